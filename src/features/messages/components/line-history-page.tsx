import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { MESSAGES } from '#src/shared/messages';
import { useLineHistory } from '../api/messages-queries';
import { BulkSendPanel } from './bulk-send-panel';
import { ChatView } from './chat-view';
import { HistoryFilterPanel, type HistoryFilterValues } from './history-filter-panel';
import { ReplyBox } from './reply-box';

function useCustomerIdParam(): number | undefined {
  const { customerId } = useParams();
  const id = Number(customerId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** LINE履歴: /admin/line-history (filters in the query string) and /admin/customers/{id}/history. */
export function LineHistoryPage() {
  const customerId = useCustomerIdParam();
  const [params, setParams] = useSearchParams();
  const values: HistoryFilterValues = {
    query: params.get('query') ?? '',
    start_date: params.get('start_date') ?? '',
    end_date: params.get('end_date') ?? '',
  };
  const history = useLineHistory({ customer_id: customerId, ...values });
  const end = useRef<HTMLDivElement>(null);
  const newestId = history.data?.at(-1)?.id;

  // A chat opens at its newest message, and follows when a new one arrives (not on every refetch).
  useEffect(() => {
    if (newestId) end.current?.scrollIntoView({ block: 'end' });
  }, [newestId]);

  const apply = (next: HistoryFilterValues) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value.trim()) search.set(key, value.trim());
    setParams(search);
  };

  let content;
  if (history.isPending) content = <LoadingState />;
  else if (history.isError)
    content = (
      <Alert color="red" role="alert">
        {MESSAGES.adminHistoryLoadFailed}
      </Alert>
    );
  else if (history.data.length === 0) content = <Text c="dimmed">メッセージはありません。</Text>;
  else content = <ChatView messages={history.data} />;

  return (
    <Stack>
      <title>LINE履歴</title>
      <Title order={1}>LINE履歴</Title>
      {customerId !== undefined && (
        <Text size="sm">
          この顧客とのメッセージを表示しています。
          <Anchor component={Link} to="/admin/line-history" ml="xs">
            すべての履歴を見る
          </Anchor>
        </Text>
      )}
      <BulkSendPanel />
      {/* Remounted when the URL changes, so the fields always show the applied filters. */}
      <HistoryFilterPanel key={params.toString()} values={values} onApply={apply} />
      {content}
      {/* One customer's thread: answer them here (the server keeps it to the caller's own customers). */}
      {customerId !== undefined && <ReplyBox customerId={customerId} />}
      <div ref={end} />
    </Stack>
  );
}
