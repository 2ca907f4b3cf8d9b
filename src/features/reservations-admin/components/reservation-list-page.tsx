import { Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { LoadingState } from '#src/components/loading-state';
import { OfflineReason } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { todayLocal } from '#src/lib/device-time';
import { useOnline } from '#src/lib/online';
import { RESERVATION_STATUSES, RESERVATION_STATUS_LABELS, type ReservationStatus } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { AdminReservationFilters } from '../api/reservations-admin-api';
import { useAdminReservations } from '../api/reservations-admin-queries';
import { parseReservationSearch } from '../search';
import { ReservationList } from './reservation-list';
import { ReservationSearchBox } from './reservation-search-box';
import { WaitlistDay } from './waitlist-day';

// The dialog (and its selects) loads on first use: the list is the admin area's first screen.
const StaffBookingDialog = lazy(() =>
  import('./staff-booking-dialog').then((m) => ({ default: m.StaffBookingDialog })),
);

/** docs/screens.md#admin-reservation-list: pending and confirmed on, the others off. */
export const DEFAULT_STATUSES: ReservationStatus[] = ['pending', 'confirmed'];

const isStatus = (value: string): value is ReservationStatus =>
  (RESERVATION_STATUSES as readonly string[]).includes(value);

/**
 * The filters live in the address (?from=&to=&status=&q=), so that coming back from a detail keeps them. Absent
 * values mean the defaults: from today, open-ended, pending and confirmed. An empty `from=` is "no start".
 */
function useReservationFilters() {
  const [params, setParams] = useSearchParams();
  const typed = params.get('q') ?? '';
  const filters: AdminReservationFilters & { typed: string } = {
    typed,
    start_date: params.has('from') ? params.get('from') || undefined : todayLocal(),
    end_date: params.get('to') || undefined,
    status: params.has('status') ? params.getAll('status').filter(isStatus) : DEFAULT_STATUSES,
  };
  const update = (patch: Partial<AdminReservationFilters & { typed: string }>) => {
    const next = { ...filters, ...patch };
    const search = new URLSearchParams();
    if (next.typed.trim()) search.set('q', next.typed.trim());
    search.set('from', next.start_date ?? '');
    if (next.end_date) search.set('to', next.end_date);
    if (next.status.length === 0) search.set('status', '');
    for (const status of next.status) search.append('status', status);
    setParams(search, { replace: true });
  };
  return [filters, update] as const;
}

/** docs/screens.md#admin-reservation-list (/admin and /admin/reservations). */
export function ReservationListPage() {
  const [filters, update] = useReservationFilters();
  const [dialogOpened, dialog] = useDisclosure(false);
  // Mounted from the first opening on, so that closing keeps its transition.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const searched = parseReservationSearch(filters.typed);
  // A code names one booking: it is looked up whatever the dates and statuses (search.ts).
  const byCode = searched !== null && 'code' in searched;
  const noStatus = filters.status.length === 0 && !byCode;
  const { typed: _typed, ...listFilters } = filters;
  const reservations = useAdminReservations(
    byCode ? { status: [], code: searched.code } : { ...listFilters, q: searched?.q },
    !noStatus,
  );
  // A booking needs the server's slots and its decision: not offered offline (docs/architecture.md#offline-design).
  const online = useOnline();

  return (
    <Stack gap="md">
      <title>予約確認 | スタッフ管理画面</title>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          予約確認
        </Title>
        <Button
          disabled={!online}
          onClick={() => {
            setDialogLoaded(true);
            dialog.open();
          }}
        >
          新規予約
        </Button>
      </Group>
      <OfflineReason what="新規予約" />

      <Paper withBorder radius="md" p="md" component="section" aria-label="絞り込み">
        <Stack gap="sm">
          <Group grow align="flex-start" gap="sm">
            <DatePickerInput
              {...CALENDAR_PROPS}
              label="開始日"
              placeholder="指定なし"
              valueFormat="YYYY/MM/DD"
              clearable
              clearButtonProps={{ 'aria-label': '開始日をクリア' }}
              value={filters.start_date ?? null}
              maxDate={filters.end_date}
              onChange={(value) => update({ start_date: value ?? undefined })}
            />
            <DatePickerInput
              {...CALENDAR_PROPS}
              label="終了日"
              placeholder="指定なし"
              valueFormat="YYYY/MM/DD"
              clearable
              clearButtonProps={{ 'aria-label': '終了日をクリア' }}
              value={filters.end_date ?? null}
              minDate={filters.start_date}
              onChange={(value) => update({ end_date: value ?? undefined })}
            />
          </Group>
          <ReservationSearchBox typed={filters.typed} onSearch={(typed) => update({ typed })} />
          {byCode && (
            <Text size="sm" c="dimmed" role="status">
              予約コード {searched.code} で検索しています。期間とステータスの条件は使いません。
            </Text>
          )}
          <Checkbox.Group
            label="ステータス"
            value={filters.status}
            onChange={(values) => update({ status: values.filter(isStatus) })}
          >
            <Group gap="md" mt={6}>
              {RESERVATION_STATUSES.map((status) => (
                <Checkbox key={status} value={status} label={RESERVATION_STATUS_LABELS[status]} />
              ))}
            </Group>
          </Checkbox.Group>
        </Stack>
      </Paper>

      <section aria-label="予約" aria-busy={reservations.isFetching}>
        {noStatus ? (
          <Text c="dimmed">ステータスを1つ以上選んでください。</Text>
        ) : reservations.isPending ? (
          <LoadingState />
        ) : reservations.isError ? (
          <RetryAlert title={MESSAGES.reservationFetchFailed} onRetry={() => void reservations.refetch()} />
        ) : reservations.data.length === 0 ? (
          <Text c="dimmed">条件に一致する予約はありません。</Text>
        ) : (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {reservations.data.length}件
            </Text>
            <ReservationList reservations={reservations.data} />
          </Stack>
        )}
      </section>

      <WaitlistDay initialDate={filters.start_date} />

      {dialogLoaded && (
        <Suspense fallback={null}>
          <StaffBookingDialog opened={dialogOpened} onClose={dialog.close} />
        </Suspense>
      )}
    </Stack>
  );
}
