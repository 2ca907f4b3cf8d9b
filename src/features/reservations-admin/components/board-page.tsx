import { Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type TouchEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { OfflineReason } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { nowLocal, todayLocal } from '#src/lib/device-time';
import { useOnline } from '#src/lib/online';
import { StaffBookingDialogSlot } from '#src/lib/staff-booking-dialog-slot';
import { useIsDesktop } from '#src/lib/use-is-desktop';
import { addDaysToDate } from '#src/shared/time';
import { BoardDateNav } from './board-date-nav';
import { BoardLegend } from './board-legend';
import { BoardMoveDialog } from './board-move-dialog';
import { BoardSearch } from './board-search';
import { dayBoardQuery } from '../api/day-board-api';
import { DayBoardGrid, type EmptyCell, type MoveRequest } from './board-grid';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A horizontal swipe this long (and mostly sideways) turns the day. */
const SWIPE_PX = 60;

/** This device's "now", once a minute: the now-line moves and past cells stop taking bookings. */
function useNow(): string {
  const [now, setNow] = useState(nowLocal);
  useEffect(() => {
    const timer = setInterval(() => setNow(nowLocal()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The day (`?date=`) and the phone's one column (`?staff=`) live in the address: back from a detail keeps them. */
function useBoardAddress() {
  const [params, setParams] = useSearchParams();
  const typed = params.get('date') ?? '';
  const date = DATE.test(typed) ? typed : todayLocal();
  const staffId = Number(params.get('staff')) || null;
  const go = (next: { date?: string; staffId?: number | null }) => {
    const search = new URLSearchParams();
    search.set('date', next.date ?? date);
    const staff = next.staffId === undefined ? staffId : next.staffId;
    if (staff) search.set('staff', String(staff));
    setParams(search, { replace: true });
  };
  return { date, staffId, go };
}

/** docs/screens.md#admin-day-board (/admin/board): the front desk's day, one column per staff member on duty. */
export function DayBoardPage() {
  const { date, staffId, go } = useBoardAddress();
  const board = useQuery(dayBoardQuery(date));
  const desktop = useIsDesktop();
  const online = useOnline();
  const now = useNow();
  // The empty cell tapped: 予約作成 opens prefilled with it (the nailist as 指名, the date and the time).
  const [chosenCell, setChosenCell] = useState<EmptyCell | null>(null);
  const [move, setMove] = useState<MoveRequest | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const swipe = useRef<{ x: number; y: number } | null>(null);
  const gridArea = useRef<HTMLDivElement>(null);

  const columns = board.data?.staff ?? [];
  const phoneColumn = columns.find((column) => column.id === staffId) ?? columns[0];
  const shown = desktop ? columns : phoneColumn ? [phoneColumn] : [];
  const staffName = (id: number) => columns.find((column) => column.id === id)?.name ?? '';

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    const onBlock = (event.target as Element).closest('[data-board-block]');
    swipe.current = touch && event.touches.length === 1 && !onBlock ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = swipe.current;
    const touch = event.changedTouches[0];
    swipe.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    const region = gridArea.current?.querySelector('[role="region"]');
    // Columns wider than the screen scroll sideways: there a swipe is the scroll's, the buttons turn the day.
    const scrollsSideways = region ? region.scrollWidth > region.clientWidth + 1 : false;
    if (Math.abs(dx) < SWIPE_PX || Math.abs(dy) * 2 > Math.abs(dx) || scrollsSideways) return;
    go({ date: addDaysToDate(date, dx < 0 ? 1 : -1) });
  };

  return (
    <Stack gap="md">
      <title>予約台帳 | スタッフ管理画面</title>
      <Title order={1} size="h2">
        予約台帳
      </Title>
      <BoardDateNav date={date} onChange={(next) => go({ date: next })} />
      <BoardSearch
        onFound={(reservation) => {
          go({ date: reservation.start_time.slice(0, 10), staffId: reservation.staff_id });
          setHighlighted(reservation.reservation_number);
        }}
      />
      <OfflineReason what="予約の作成・移動" />
      {!desktop && columns.length > 0 && (
        <Select
          label="表示するスタッフ"
          data={columns.map((column) => ({ value: String(column.id), label: column.name }))}
          value={phoneColumn ? String(phoneColumn.id) : null}
          onChange={(value) => value && go({ staffId: Number(value) })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <div ref={gridArea} onTouchStart={onTouchStart} onTouchEnd={onTouchEnd} aria-busy={board.isFetching}>
        {!board.data ? (
          board.isError ? (
            <RetryAlert title="予約台帳の取得に失敗しました。" onRetry={() => void board.refetch()} />
          ) : (
            <LoadingState />
          )
        ) : shown.length === 0 ? (
          <Text c="dimmed">この日に出勤するスタッフはいません。</Text>
        ) : (
          <DayBoardGrid
            board={board.data}
            columns={shown}
            now={now}
            canMove={online}
            canBook={online}
            highlighted={highlighted}
            onEmptyCellTap={setChosenCell}
            onMoveRequest={setMove}
          />
        )}
      </div>
      <BoardLegend />
      <StaffBookingDialogSlot
        opened={chosenCell !== null}
        initial={chosenCell ?? undefined}
        onClose={() => setChosenCell(null)}
        // The new booking stays on the board, outlined, instead of its detail page: the desk goes on from here.
        onCreated={(reservationNumber) => {
          setChosenCell(null);
          setHighlighted(reservationNumber);
        }}
      />
      <BoardMoveDialog
        move={move && { ...move, date, staffName: staffName(move.staffId) }}
        onClose={() => setMove(null)}
      />
    </Stack>
  );
}
