import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { MESSAGES } from '#src/shared/messages';
import { isNotFound } from '#src/lib/api-client';
import { paths } from '#src/lib/paths';

const CUSTOMER_LIST_PATH = paths.adminCustomers;

export function BackToList() {
  return (
    <Anchor component={Link} to={CUSTOMER_LIST_PATH} size="sm">
      ← 顧客一覧に戻る
    </Anchor>
  );
}

function Failure({ title, message }: { title: string; message: string }) {
  return (
    <Stack>
      <title>{title}</title>
      <BackToList />
      <Title order={1}>{title}</Title>
      <Alert color="red" role="alert">
        {message}
      </Alert>
    </Stack>
  );
}

/** Loading, not found and failure of one customer's screens (docs/screens.md#customer-detail). */
export function CustomerLoadState({ error, title = '顧客詳細' }: { error: unknown; title?: string }) {
  if (!error) return <LoadingState />;
  return (
    <Failure title={title} message={isNotFound(error) ? MESSAGES.customerNotFound : MESSAGES.adminCustomerLoadFailed} />
  );
}

export function CustomerNotFound({ title = '顧客詳細' }: { title?: string }) {
  return <Failure title={title} message={MESSAGES.customerNotFound} />;
}
