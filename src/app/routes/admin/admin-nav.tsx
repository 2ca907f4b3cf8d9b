import { Box, Button, Divider, NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { AdminProfile } from '#src/shared/schemas/auth';
import { paths } from '#src/lib/paths';
import { registerPaths } from '#src/components/checkout-button';
import { isOwner, roleOf, STAFF_ROLE_LABELS } from '#src/shared/roles';

interface NavItem {
  to: string;
  label: string;
  superuserOnly?: boolean;
}

/**
 * docs/screens.md#admin-navigation; 社員管理, 統計 and the settings are the owner's only (受付 and
 * ネイリスト do not see them; the server refuses them too, docs/architecture.md#roles-and-scope).
 */
const NAV_ITEMS: NavItem[] = [
  { to: paths.adminReservations, label: '予約確認' },
  { to: paths.adminBoard, label: '予約台帳' },
  { to: paths.adminSchedule, label: '受付時間設定' },
  { to: paths.adminCustomers, label: '顧客管理' },
  { to: paths.adminLineHistory(), label: 'LINE履歴' },
  { to: paths.adminMenu, label: 'メニュー管理' },
  { to: paths.adminStaffList, label: '社員管理', superuserOnly: true },
  { to: registerPaths.closing, label: 'レジ締め', superuserOnly: true },
  { to: registerPaths.products, label: '商品管理', superuserOnly: true },
  { to: paths.adminStatistics, label: '統計', superuserOnly: true },
  { to: paths.adminSettings, label: '設定', superuserOnly: true },
];

/** docs/screens.md#admin-navigation: an item is active when the path starts with its route; /admin itself is the reservation list. */
function isActive(item: NavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (item.to === paths.adminReservations && path === paths.admin) return true;
  return path === item.to || path.startsWith(`${item.to}/`);
}

interface AdminSidebarProps {
  profile: AdminProfile | null;
  salonName: string;
  onNavigate?(): void;
  onLogout(): void;
}

/** The sidebar's content: the same in the desktop column and in the phone drawer. */
export function AdminSidebar({ profile, salonName, onNavigate, onLogout }: AdminSidebarProps) {
  const { pathname } = useLocation();
  const items = NAV_ITEMS.filter((item) => !item.superuserOnly || (profile !== null && isOwner(roleOf(profile))));
  return (
    <Stack h="100%" gap={0} justify="space-between">
      <Box>
        <Box px="md" py="md">
          <Text fw={700} size="lg" lh={1.3}>
            {salonName}
          </Text>
          <Text size="xs" c="dimmed">
            スタッフ管理画面
          </Text>
        </Box>
        <Divider />
        <Box component="nav" aria-label="管理メニュー" p="xs">
          {items.map((item) => {
            const active = isActive(item, pathname);
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                active={active}
                aria-current={active ? 'page' : undefined}
                variant="filled"
                onClick={onNavigate}
                styles={{
                  root: { borderRadius: 'var(--mantine-radius-md)' },
                  label: { fontSize: 'var(--mantine-font-size-md)' },
                }}
              />
            );
          })}
        </Box>
      </Box>
      <Box p="md">
        <Divider mb="md" />
        {profile && (
          <Text size="sm" c="dimmed" mb="xs">
            {profile.full_name || profile.username}（{STAFF_ROLE_LABELS[roleOf(profile)]}）
          </Text>
        )}
        <Button variant="default" fullWidth onClick={onLogout}>
          ログアウト
        </Button>
      </Box>
    </Stack>
  );
}
