import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { OnlineOnly } from '#src/components/online-only';
import { StaffBookingDialogContext, type StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import type { AdminProfile } from '#src/shared/schemas/auth';
import { AdminNotFoundPage } from './forbidden-page';
import { RequireSuperuser } from './require-superuser';

/** One lazily loaded page: the admin entry ships the shell only, each screen arrives when first opened. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint; the page keeps its props type
function lazyPage<M extends Record<K, ComponentType<any>>, K extends string>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const ReservationListPage = lazyPage(
  () => import('#src/features/reservations-admin/components/reservation-list-page'),
  'ReservationListPage',
);
const ReservationDetailPage = lazyPage(
  () => import('#src/features/reservations-admin/components/reservation-detail-page'),
  'ReservationDetailPage',
);
const DayBoardPage = lazyPage(() => import('#src/features/reservations-admin/components/board-page'), 'DayBoardPage');
const SchedulePage = lazyPage(() => import('#src/features/schedule/components/schedule-page'), 'SchedulePage');
const MenuPage = lazyPage(() => import('#src/features/menu/components/menu-page'), 'MenuPage');
const SettingsPage = lazyPage(() => import('#src/features/settings/components/settings-page'), 'SettingsPage');
const CustomerListPage = lazyPage(
  () => import('#src/features/customers/components/customer-list-page'),
  'CustomerListPage',
);
const CustomerDetailPage = lazyPage(
  () => import('#src/features/customers/components/customer-detail-page'),
  'CustomerDetailPage',
);
const CustomerMemoPage = lazyPage(
  () => import('#src/features/customers/components/customer-memo-page'),
  'CustomerMemoPage',
);
const SendMessagePage = lazyPage(
  () => import('#src/features/customers/components/send-message-page'),
  'SendMessagePage',
);
const LineHistoryPage = lazyPage(
  () => import('#src/features/messages/components/line-history-page'),
  'LineHistoryPage',
);
const StaffListPage = lazyPage(() => import('#src/features/staff/components/staff-list-page'), 'StaffListPage');
const AddStaffPage = lazyPage(() => import('#src/features/staff/components/add-staff-page'), 'AddStaffPage');
const StaffDetailPage = lazyPage(() => import('#src/features/staff/components/staff-detail-page'), 'StaffDetailPage');
// recharts is imported by the statistics page's own lazy chart component, never by this table.
const StatisticsPage = lazyPage(() => import('#src/features/statistics/components/statistics-page'), 'StatisticsPage');

const CheckoutPage = lazyPage(() => import('#src/features/register/components/checkout-page'), 'CheckoutPage');
const RegisterClosingPage = lazyPage(
  () => import('#src/features/register/components/register-closing-page'),
  'RegisterClosingPage',
);
const ProductsPage = lazyPage(() => import('#src/features/register/components/products-page'), 'ProductsPage');

const Superuser = ({ page }: { page: ReactNode }) => <RequireSuperuser>{page}</RequireSuperuser>;

/** 予約作成, for the pages of other features that open it (src/lib/staff-booking-dialog-slot.tsx); loaded on first use. */
const StaffBookingDialog = lazyPage(
  () => import('#src/features/reservations-admin/components/staff-booking-dialog'),
  'StaffBookingDialog',
);
const renderStaffBookingDialog = (props: StaffBookingDialogProps) => (
  <Suspense fallback={null}>
    <StaffBookingDialog {...props} />
  </Suspense>
);

/** Screens whose actions need the server: offline they are shown disabled, with the reason (docs/architecture.md#offline-design). */
const MESSAGES_OFFLINE = 'メッセージの送信';
const STAFF_OFFLINE = '社員管理';

/**
 * The admin panel routes of docs/screens.md#admin-navigation, relative to /admin (the shell renders them below the sidebar). Superuser
 * pages are wrapped in RequireSuperuser (issue 6: client-side guard). Add a page as a lazyPage and a <Route>.
 */
export function AdminRoutes({ profile }: { profile: AdminProfile | null }) {
  return (
    <StaffBookingDialogContext value={renderStaffBookingDialog}>
      <AdminRouteTable profile={profile} />
    </StaffBookingDialogContext>
  );
}

function AdminRouteTable({ profile }: { profile: AdminProfile | null }) {
  return (
    <Routes>
      <Route index element={<ReservationListPage />} />
      <Route path="reservations" element={<ReservationListPage />} />
      <Route path="reservations/:reservationNumber" element={<ReservationDetailPage />} />
      <Route path="reservations/:reservationNumber/checkout" element={<CheckoutPage />} />
      <Route path="customers/:customerId/checkout" element={<CheckoutPage />} />
      <Route
        path="register"
        element={
          <Superuser
            page={
              <OnlineOnly what="レジ締め">
                <RegisterClosingPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route
        path="products"
        element={
          <Superuser
            page={
              <OnlineOnly what="商品の管理">
                <ProductsPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route path="board" element={<DayBoardPage />} />
      <Route path="schedule" element={<SchedulePage viewer={profile} />} />
      <Route
        path="menu"
        element={
          <OnlineOnly what="メニューの変更">
            <MenuPage />
          </OnlineOnly>
        }
      />
      <Route path="customers" element={<CustomerListPage />} />
      <Route path="customers/:customerId" element={<CustomerDetailPage />} />
      <Route path="customers/:customerId/memo" element={<CustomerMemoPage />} />
      <Route
        path="customers/:customerId/send-message"
        element={
          <OnlineOnly what={MESSAGES_OFFLINE}>
            <SendMessagePage />
          </OnlineOnly>
        }
      />
      <Route
        path="customers/:customerId/line"
        element={
          <OnlineOnly what={MESSAGES_OFFLINE}>
            <SendMessagePage />
          </OnlineOnly>
        }
      />
      <Route
        path="customers/:customerId/history"
        element={
          <OnlineOnly what={MESSAGES_OFFLINE}>
            <LineHistoryPage />
          </OnlineOnly>
        }
      />
      <Route
        path="line-history"
        element={
          <OnlineOnly what={MESSAGES_OFFLINE}>
            <LineHistoryPage />
          </OnlineOnly>
        }
      />
      <Route
        path="users"
        element={
          <Superuser
            page={
              <OnlineOnly what={STAFF_OFFLINE}>
                <StaffListPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route
        path="users/new"
        element={
          <Superuser
            page={
              <OnlineOnly what={STAFF_OFFLINE}>
                <AddStaffPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route
        path="users/:userId"
        element={
          <Superuser
            page={
              <OnlineOnly what={STAFF_OFFLINE}>
                <StaffDetailPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route path="statistics" element={<Superuser page={<StatisticsPage />} />} />
      <Route
        path="settings"
        element={
          <Superuser
            page={
              <OnlineOnly what="設定の変更">
                <SettingsPage />
              </OnlineOnly>
            }
          />
        }
      />
      <Route path="*" element={<AdminNotFoundPage />} />
    </Routes>
  );
}
