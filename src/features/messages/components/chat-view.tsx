import { Anchor, Avatar, Divider, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { formatDateJa, formatTime } from '#src/shared/format';
import type { LineMessageItem } from '#src/shared/schemas/messages';

/** `sent_at` carries the salon's offset, so its first ten characters are the salon-local day. */
const dayOf = (message: LineMessageItem) => message.sent_at.slice(0, 10);

/** Messages in chat order, grouped by salon-local day (docs/screens.md#message-history: date separators). */
function groupByDay(messages: LineMessageItem[]): { day: string; messages: LineMessageItem[] }[] {
  const groups: { day: string; messages: LineMessageItem[] }[] = [];
  for (const message of messages) {
    const day = dayOf(message);
    const last = groups.at(-1);
    if (last?.day === day) last.messages.push(message);
    else groups.push({ day, messages: [message] });
  }
  return groups;
}

function MessageImage({ url, fromAdmin }: { url: string; fromAdmin: boolean }) {
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" display="block">
      <Image
        src={url}
        alt={fromAdmin ? '送信した画像（新しいタブで開く）' : '受信した画像（新しいタブで開く）'}
        maw={220}
        mah={220}
        fit="contain"
        radius="sm"
      />
    </Anchor>
  );
}

function Bubble({ message }: { message: LineMessageItem }) {
  const fromAdmin = message.sender_type === 'admin';
  return (
    <Paper
      p="xs"
      radius="md"
      bg={fromAdmin ? 'pink.0' : 'gray.1'}
      maw="80%"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      <Stack gap={4}>
        {message.message && <Text size="sm">{message.message}</Text>}
        {message.image_url && <MessageImage url={message.image_url} fromAdmin={fromAdmin} />}
      </Stack>
    </Paper>
  );
}

function MessageRow({ message }: { message: LineMessageItem }) {
  const time = formatTime(message.sent_at);
  if (message.sender_type === 'admin') {
    return (
      <Stack gap={2} align="flex-end" component="li" data-sender="admin">
        <Text size="xs" c="dimmed">
          {`${message.customer_name}へ・${time}`}
        </Text>
        <Bubble message={message} />
      </Stack>
    );
  }
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" component="li" data-sender="customer">
      <Avatar src={message.customer_line_picture_url || null} alt={message.customer_name} radius="xl" size="md">
        {message.customer_name.slice(0, 1)}
      </Avatar>
      <Stack gap={2} style={{ flex: 1 }} align="flex-start">
        <Text size="xs" c="dimmed">
          {`${message.customer_name}・${time}`}
        </Text>
        <Bubble message={message} />
      </Stack>
    </Group>
  );
}

/** A chat-like history: admin messages on the right, customer messages on the left with their picture. */
export function ChatView({ messages }: { messages: LineMessageItem[] }) {
  return (
    <Stack gap="md">
      {groupByDay(messages).map(({ day, messages: dayMessages }) => (
        <Fragment key={day}>
          <Divider label={formatDateJa(day)} labelPosition="center" role="separator" aria-label={formatDateJa(day)} />
          <Stack
            component="ul"
            gap="sm"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={`${formatDateJa(day)}のメッセージ`}
          >
            {dayMessages.map((message) => (
              <MessageRow key={message.id} message={message} />
            ))}
          </Stack>
        </Fragment>
      ))}
    </Stack>
  );
}
