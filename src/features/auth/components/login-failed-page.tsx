import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { HomeLink } from '#src/components/home-link';
import { PageContainer } from '#src/components/page-container';
import { MESSAGES } from '#src/shared/messages';

/** /login-failed: where the login ends after every attempt failed (docs/screens.md#login-failed). */
export function LoginFailedPage() {
  return (
    <PageContainer>
      <title>ログインに失敗しました | ネイルサロン予約</title>
      <Stack gap="md" align="center" ta="center" mt="xl">
        <Title order={1} size="h2">
          ログインに失敗しました
        </Title>
        <Text>{MESSAGES.loginFailedPage}</Text>
        <Anchor component={Link} to="/login">
          もう一度ログインする
        </Anchor>
        <HomeLink />
      </Stack>
    </PageContainer>
  );
}
