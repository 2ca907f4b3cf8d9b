import { Alert, Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { MESSAGES } from '#src/shared/messages';
import type { StaffUser } from '#src/shared/schemas/staff';
import { useStaffList } from '../api/staff-queries';
import { linkLabel, NOT_SET, roleLabel, staffName, staffPath } from './staff-labels';

function StaffCards({ users }: { users: StaffUser[] }) {
  return (
    <Stack gap="sm">
      {users.map((user) => (
        <Card key={user.id} withBorder padding="sm" component={Link} to={staffPath(user.id)}>
          <Stack gap={4}>
            <Text fw={700}>{staffName(user)}</Text>
            <Text size="sm">ログインID: {user.username}</Text>
            <Text size="sm">メール: {user.email || NOT_SET}</Text>
            <Text size="sm">権限: {roleLabel(user)}</Text>
            <Text size="sm">LINE連携: {linkLabel(user)}</Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

function StaffTable({ users }: { users: StaffUser[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>氏名</Table.Th>
            <Table.Th>ログインID</Table.Th>
            <Table.Th>メールアドレス</Table.Th>
            <Table.Th>権限</Table.Th>
            <Table.Th>LINE連携</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} onClick={() => void navigate(staffPath(user.id))} style={{ cursor: 'pointer' }}>
              <Table.Td>
                <Anchor component={Link} to={staffPath(user.id)} fw={700}>
                  {staffName(user)}
                </Anchor>
              </Table.Td>
              <Table.Td>{user.username}</Table.Td>
              <Table.Td>{user.email || NOT_SET}</Table.Td>
              <Table.Td>{roleLabel(user)}</Table.Td>
              <Table.Td>{linkLabel(user)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** 社員管理 (docs/screens.md#staff-list). */
export function StaffListPage() {
  const list = useStaffList();
  const isDesktop = useIsDesktop();

  // docs/screens.md#staff-list: a load failure is logged; the page also says so rather than showing an empty list.
  useEffect(() => {
    if (list.error) console.error(MESSAGES.adminStaffListLoadFailed, list.error);
  }, [list.error]);

  let content;
  if (list.isPending) content = <LoadingState />;
  else if (list.isError)
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.adminStaffListLoadFailed}
      </Alert>
    );
  else if (list.data.length === 0) content = <Text c="dimmed">社員が登録されていません。</Text>;
  else content = isDesktop ? <StaffTable users={list.data} /> : <StaffCards users={list.data} />;

  return (
    <Stack>
      <title>社員管理</title>
      <Group justify="space-between">
        <Title order={1}>社員管理</Title>
        <Button component={Link} to="/admin/users/new">
          新規追加
        </Button>
      </Group>
      {content}
    </Stack>
  );
}
