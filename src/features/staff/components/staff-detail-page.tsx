import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { useAdminViewer } from '#src/components/staff-choice';
import { isNotFound } from '#src/lib/api-client';
import { copyText } from '#src/lib/clipboard';
import { toast } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { StaffUser } from '#src/shared/schemas/staff';
import { useGenerateStaffLineLink, useStaff } from '../api/staff-queries';
import { AccountStatusBadge, AccountStatusSection, PasswordResetSection } from './staff-account-actions';
import { NominationSection } from './nomination-section';
import { PictureSection } from './picture-section';
import { RoleSection } from './role-section';
import { NOT_SET, STAFF_LIST_PATH, staffName } from './staff-labels';

function BackToList() {
  return (
    <Anchor component={Link} to={STAFF_LIST_PATH} size="sm">
      ← 社員管理に戻る
    </Anchor>
  );
}

function Failure({ message }: { message: string }) {
  return (
    <Stack>
      <title>社員詳細</title>
      <BackToList />
      <Title order={1}>社員詳細</Title>
      <Alert color="red" role="alert">
        {message}
      </Alert>
    </Stack>
  );
}

function LineLinkSection({ user }: { user: StaffUser }) {
  const generate = useGenerateStaffLineLink(user.id);
  const [url, setUrl] = useState<string | null>(null);

  const onGenerate = () =>
    generate.mutate(undefined, {
      onSuccess: (link) => setUrl(link.registration_link),
      onError: () => toast('red', MESSAGES.adminStaffLinkUrlFailed),
    });

  const onCopy = async () => {
    if (!url) return;
    if (await copyText(url)) toast('green', MESSAGES.adminStaffLinkUrlCopied);
    else toast('yellow', 'コピーできませんでした。URLを選択してコピーしてください。');
  };

  if (user.is_line_linked) return <Text>連携済みです。</Text>;
  return (
    <Stack gap="sm">
      <Text>まだ連携されていません。</Text>
      <Group>
        <Button onClick={onGenerate} disabled={generate.isPending}>
          {generate.isPending ? '生成中...' : '連携用URLを生成する'}
        </Button>
      </Group>
      {url && (
        <Stack gap="xs">
          <Text size="sm">
            このURLを管理者本人に渡し、ご自身のスマートフォンのLINEで開いてもらってください。URLは一度だけ、24時間有効です。
          </Text>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="連携用URL"
              value={url}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              style={{ flex: 1 }}
            />
            <Button variant="default" onClick={() => void onCopy()}>
              コピー
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

function StaffDetail({ user }: { user: StaffUser }) {
  const viewer = useAdminViewer();
  const isSelf = viewer.data?.id === user.id;
  return (
    <Stack>
      <title>{`${staffName(user)} | 社員詳細`}</title>
      <BackToList />
      <Group gap="sm" align="center">
        <Title order={1}>{staffName(user)}</Title>
        <AccountStatusBadge active={user.is_active} />
      </Group>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <div>
            <Text size="xs" c="dimmed">
              ログインID
            </Text>
            <Text>{user.username}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              メールアドレス
            </Text>
            <Text>{user.email || NOT_SET}</Text>
          </div>
          <RoleSection user={user} canChange={viewer.isSuccess && !isSelf} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <NominationSection user={user} />
      </Paper>
      <Paper withBorder p="md">
        <PictureSection user={user} />
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            LINE連携
          </Title>
          <LineLinkSection user={user} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <AccountStatusSection user={user} isSelf={isSelf} />
      </Paper>
      <Paper withBorder p="md">
        <PasswordResetSection user={user} isSelf={isSelf} />
      </Paper>
    </Stack>
  );
}

function StaffDetailLoader({ id }: { id: number }) {
  const staff = useStaff(id);
  if (staff.data) return <StaffDetail user={staff.data} />;
  if (!staff.error) return <LoadingState />;
  const notFound = isNotFound(staff.error);
  return (
    <Failure
      message={notFound ? MESSAGES.staffNotFound : 'データの取得に失敗しました。ページを再読み込みしてください。'}
    />
  );
}

/**
 * Staff detail (docs/screens.md#staff-detail) with the one-time LINE link URL, and the account actions:
 * deactivate/reactivate and a new password, both of which end the staff member's sessions.
 */
export function StaffDetailPage() {
  const { userId } = useParams();
  const id = Number(userId);
  if (!Number.isSafeInteger(id) || id <= 0) return <Failure message={MESSAGES.staffNotFound} />;
  return <StaffDetailLoader key={id} id={id} />;
}
