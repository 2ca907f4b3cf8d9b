import { Alert, Anchor, Avatar, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { MESSAGES } from '#src/shared/messages';
import type { AdminCustomer } from '#src/shared/schemas/customers';
import { useCustomerList } from '../api/customers-queries';
import { CustomerSearchPanel, EMPTY_SEARCH, type CustomerSearchValues } from './customer-search-panel';
import { paths } from '#src/lib/paths';

/** docs/screens.md#customer-list: the search runs one second after typing stops. */
export const SEARCH_DEBOUNCE_MS = 1000;

const NA = 'N/A';

/** docs/screens.md#customer-list: N/A when not linked, LINE名未登録 when linked without a display name. */
export function lineNameOf(customer: AdminCustomer): string {
  if (!customer.is_line_linked) return NA;
  return customer.line_display_name || 'LINE名未登録';
}

export const customerPath = paths.adminCustomer;

function LineIdentity({ customer }: { customer: AdminCustomer }) {
  const name = lineNameOf(customer);
  return (
    <Group gap="xs" wrap="nowrap">
      <Avatar
        src={customer.line_picture_url || null}
        alt={customer.is_line_linked ? `${name}のLINEアイコン` : 'LINE未連携'}
        size="sm"
        radius="xl"
      />
      <Text size="sm">{name}</Text>
    </Group>
  );
}

function CustomerCards({ customers }: { customers: AdminCustomer[] }) {
  return (
    <Stack gap="sm">
      {customers.map((customer) => (
        <Card key={customer.id} withBorder component={Link} to={customerPath(customer.id)} padding="sm">
          <Stack gap={4}>
            <Text fw={700}>{customer.name}</Text>
            <LineIdentity customer={customer} />
            <Text size="sm">メール: {customer.email || NA}</Text>
            <Text size="sm">電話: {customer.phone_number || NA}</Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

function CustomerTable({ customers }: { customers: AdminCustomer[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>名前</Table.Th>
            <Table.Th>LINE</Table.Th>
            <Table.Th>メールアドレス</Table.Th>
            <Table.Th>電話番号</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr
              key={customer.id}
              onClick={() => void navigate(customerPath(customer.id))}
              style={{ cursor: 'pointer' }}
            >
              <Table.Td>
                <Anchor component={Link} to={customerPath(customer.id)} fw={700}>
                  {customer.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <LineIdentity customer={customer} />
              </Table.Td>
              <Table.Td>{customer.email || NA}</Table.Td>
              <Table.Td>{customer.phone_number || NA}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** 顧客管理 (docs/screens.md#customer-list). */
export function CustomerListPage() {
  const [search, setSearch] = useState<CustomerSearchValues>(EMPTY_SEARCH);
  const [applied] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const list = useCustomerList(applied);
  const isDesktop = useIsDesktop();
  const customers = list.data?.pages.flat() ?? [];

  let content;
  if (list.isPending) content = <LoadingState />;
  else if (list.isError)
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.adminCustomerListLoadFailed}
      </Alert>
    );
  else if (customers.length === 0) content = <Text c="dimmed">該当する顧客はいません。</Text>;
  else
    content = (
      <>
        {isDesktop ? <CustomerTable customers={customers} /> : <CustomerCards customers={customers} />}
        {list.hasNextPage && (
          <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            さらに表示
          </Button>
        )}
      </>
    );

  return (
    <Stack>
      <title>顧客管理</title>
      <Title order={1}>顧客管理</Title>
      <CustomerSearchPanel values={search} onChange={setSearch} />
      {content}
    </Stack>
  );
}
