import { Anchor, Box, Button, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { OfflineBanner } from '#src/components/offline-banner';
import { CustomerAuthProvider, useCustomerAuth } from '#src/lib/customer-auth';
import { paths } from '#src/lib/paths';
import { usePublicConfig } from '#src/lib/public-config';

/** The customer shell: the session (docs/screens.md#customer-session), a slim header, and the offline banner (docs/architecture.md#offline-design). */
export function CustomerLayout() {
  return (
    <CustomerAuthProvider>
      <CustomerHeader />
      <OfflineBanner />
      <Outlet />
    </CustomerAuthProvider>
  );
}

function CustomerHeader() {
  const { signedIn, logout } = useCustomerAuth();
  const config = usePublicConfig();
  return (
    <Box component="header" bd="0 solid var(--mantine-color-gray-3)" style={{ borderBottomWidth: 1 }}>
      <Container size="sm" px="md" py="xs">
        <Group justify="space-between" wrap="nowrap" mih={44}>
          <Anchor component={Link} to="/" fw={700} c="var(--mantine-color-text)" underline="never" truncate="end">
            {config.data?.salon_name || 'ネイルサロン予約'}
          </Anchor>
          {signedIn && (
            <Group gap={4} wrap="nowrap">
              <Button component={Link} to={paths.reservations} variant="subtle" size="compact-sm">
                予約一覧
              </Button>
              <Button variant="subtle" size="compact-sm" onClick={() => logout()}>
                ログアウト
              </Button>
            </Group>
          )}
        </Group>
      </Container>
    </Box>
  );
}
