import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { MESSAGES } from '#src/shared/messages';
import { useSendReply } from '../api/messages-queries';

const MESSAGE_MAX_LENGTH = 5000;

/** Under one customer's thread: answer them without leaving the history (images go through the send page). */
export function ReplyBox({ customerId }: { customerId: number }) {
  const [text, setText] = useState('');
  const send = useSendReply(customerId);
  const hasText = Boolean(text.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hasText || send.isPending) return;
    send.mutate(text, { onSuccess: () => setText('') });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="返信">
      <Stack gap="xs">
        <Textarea
          label="返信メッセージ"
          rows={3}
          value={text}
          maxLength={MESSAGE_MAX_LENGTH}
          disabled={send.isPending}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (send.isSuccess || send.isError) send.reset();
          }}
          onKeyDown={(event) => {
            // Ctrl/⌘+Enter sends, as in most chat tools; Enter alone is a new line.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
          }}
        />
        {send.isSuccess && (
          <Alert color="green" role="status">
            {MESSAGES.adminMessageSent}
          </Alert>
        )}
        {send.isError && (
          <Alert color="red" role="alert">
            {MESSAGES.adminMessageSendFailed(errorDetail(send.error, MESSAGES.adminMessageSendFailedFallback))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" disabled={!hasText} loading={send.isPending}>
            送信
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
