import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { MESSAGES } from '#src/shared/messages';

/**
 * Client-side guard (issue 6): an ordinary staff member who opens a superuser page directly sees this instead.
 * The server refuses their calls anyway (403); this keeps them from a page full of errors.
 */
export function ForbiddenPage() {
  return (
    <Stack gap="md" align="flex-start">
      <title>{MESSAGES.adminForbiddenTitle}</title>
      <Title order={1} size="h2">
        {MESSAGES.adminForbiddenTitle}
      </Title>
      <Text>このページはオーナーのみ表示できます。</Text>
      <Anchor component={Link} to="/admin/reservations">
        予約確認へ戻る
      </Anchor>
    </Stack>
  );
}

/** Unknown paths below /admin, inside the shell (the app's own 404 page brings a second main landmark). */
export function AdminNotFoundPage() {
  return (
    <Stack gap="md" align="flex-start">
      <title>{MESSAGES.pageNotFound}</title>
      <Title order={1} size="h2">
        {MESSAGES.pageNotFound}
      </Title>
      <Anchor component={Link} to="/admin/reservations">
        予約確認へ戻る
      </Anchor>
    </Stack>
  );
}
