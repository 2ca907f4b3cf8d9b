import { Box, Burger, Drawer, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { useAdminProfile } from '#src/features/admin-auth/api/admin-auth-queries';
import { logOutAdmin } from '#src/features/admin-auth/session';
import { LineBudgetBanner } from '#src/features/settings/components/line-budget-banner';
import { customerKeys } from '#src/lib/query-keys';
import { useReservationEvents } from '#src/features/reservations-admin/hooks/use-reservation-events';
import { usePublicConfig } from '#src/lib/public-config';
import { endThisBrowserSubscription } from '#src/lib/push-browser';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { OfflineStatus } from '../../offline/offline-status';
import { AdminRoutes } from './admin-routes';
import { AdminSidebar } from './admin-nav';

/** docs/screens.md#admin-navigation: below 768 px the sidebar is a drawer under a 64 px top bar. */
const SIDEBAR_WIDTH = 240;
const TOP_BAR_HEIGHT = 64;

/** The session ends here at once; then this browser stops taking the staff member's push notices (best effort). */
function logOut() {
  logOutAdmin();
  endThisBrowserSubscription().catch(() => {});
}

/** The signed-in admin panel: sidebar (or drawer), live updates, and the page of the current route. */
export function AdminShell() {
  const [drawerOpened, drawer] = useDisclosure(false);
  const desktop = useIsDesktop();
  const profile = useAdminProfile();
  const config = usePublicConfig();
  const queryClient = useQueryClient();
  const salonName = config.data?.salon_name || 'ネイルサロン';

  // Widening the window past the breakpoint shows the fixed sidebar; the drawer must not stay open behind it.
  useEffect(() => {
    if (desktop) drawer.close();
  }, [desktop, drawer]);

  useReservationEvents({
    enabled: true,
    // A customer's reservation history shows the same reservations as the front desk.
    onChange: () => void queryClient.invalidateQueries({ queryKey: customerKeys.all }),
  });

  const sidebar = (onNavigate?: () => void) => (
    <AdminSidebar profile={profile.data ?? null} salonName={salonName} onNavigate={onNavigate} onLogout={logOut} />
  );

  return (
    <Box mih="100dvh" bg="gray.0">
      {/*
        A named region rather than <header>: Mantine's dialogs put a <header> in a <section role="dialog">, which
        counts as a second banner landmark whenever a dialog is open.
      */}
      <Box
        component="section"
        aria-label="メニューバー"
        hiddenFrom="sm"
        h={TOP_BAR_HEIGHT}
        px="md"
        bg="white"
        pos="sticky"
        top={0}
        style={{ zIndex: 150, borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Group h="100%" gap="sm" wrap="nowrap">
          <Burger
            opened={drawerOpened}
            onClick={drawer.toggle}
            aria-label={drawerOpened ? 'メニューを閉じる' : 'メニューを開く'}
            aria-expanded={drawerOpened}
          />
          <Text fw={700} truncate>
            {salonName}
          </Text>
        </Group>
      </Box>

      <Drawer
        opened={drawerOpened && !desktop}
        onClose={drawer.close}
        size={280}
        padding={0}
        styles={{ header: { paddingInline: 'var(--mantine-spacing-md)' } }}
        title="メニュー"
        withCloseButton
      >
        {sidebar(drawer.close)}
      </Drawer>

      <Box
        component="aside"
        aria-label="サイドバー"
        visibleFrom="sm"
        pos="fixed"
        top={0}
        left={0}
        bottom={0}
        w={SIDEBAR_WIDTH}
        bg="white"
        style={{ borderRight: '1px solid var(--mantine-color-gray-3)', overflowY: 'auto' }}
      >
        {sidebar()}
      </Box>

      <Box
        component="main"
        ml={{ base: 0, sm: SIDEBAR_WIDTH }}
        px={{ base: 'md', sm: 'xl' }}
        py={{ base: 'md', sm: 'xl' }}
      >
        <Box maw={1100}>
          <OfflineStatus />
          <LineBudgetBanner />
          <Suspense fallback={<LoadingState />}>
            <AdminRoutes profile={profile.data ?? null} />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
