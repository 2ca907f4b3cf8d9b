import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { LineLoginButton } from '#src/components/line-login-button';
import { PageContainer } from '#src/components/page-container';
import { SalonContact } from '#src/components/salon-contact';
import { useCustomerAuth, type LoginPageState } from '#src/lib/customer-auth';
import { usePublicConfig } from '#src/lib/public-config';

/** /login (docs/screens.md#customer-login): the brand heading and one green button. */
export function LoginPage() {
  const { signedIn } = useCustomerAuth();
  const config = usePublicConfig();
  const notice = (useLocation().state as LoginPageState | null)?.notice;
  const brand = config.data?.salon_name || 'ネイルサロン予約';

  return (
    <PageContainer>
      <title>ログイン | ネイルサロン予約</title>
      <Stack gap="lg" align="center" ta="center" mt="xl">
        <Title order={1}>{brand}</Title>
        {notice && (
          <Alert color="red" role="alert" w="100%" ta="left">
            {notice}
          </Alert>
        )}
        {signedIn ? (
          <>
            <Text>ログイン済みです。</Text>
            <Button component={Link} to="/reserve" size="lg" radius="xl" w={{ base: '100%', xs: 320 }}>
              予約へ進む
            </Button>
          </>
        ) : (
          <>
            <Text c="dimmed">LINEアカウントでログインして、メニューと日時を選んでご予約ください。</Text>
            <LineLoginButton w={{ base: '100%', xs: 320 }} />
          </>
        )}
        <Anchor component={Link} to="/manual">
          ご利用方法
        </Anchor>
        <SalonContact />
      </Stack>
    </PageContainer>
  );
}
