import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearNotifications,
  fixDeviceClock,
  LAZY,
  makeReservation,
  openEventStream,
  setDesktop,
  storeAdminTokens,
} from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { DayBoard } from '#src/shared/schemas/day-board';
import { useReservationEvents } from '../hooks/use-reservation-events';
import { placeBookings } from './board-layout';
import { StaffBookingDialogContext, type StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import { DayBoardPage } from './board-page';

// The device's clock: 2030-01-10 09:00 (fixDeviceClock).
const DAY = '2030-01-10';

/** 佐藤 A works 09:00–12:00 and 13:00–15:00 (a break at 12:00), 鈴木 B 10:00–18:00. */
const BOARD: DayBoard = {
  date: DAY,
  grid_minutes: 30,
  staff: [
    {
      id: 1,
      name: '佐藤 A',
      working: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '15:00' },
      ],
      reservations: [
        {
          reservation_number: 'number-1',
          reservation_code: 'K7M4Q9TX',
          start_time: `${DAY}T09:30:00`,
          end_time: `${DAY}T10:30:00`,
          customer_name: '山田 花子',
          service_name: 'ジェルネイル',
          option_names: ['ジェルオフ', 'アート'],
          is_nominated: true,
          status: 'confirmed',
        },
      ],
    },
    {
      id: 2,
      name: '鈴木 B',
      working: [{ start: '10:00', end: '18:00' }],
      reservations: [
        {
          reservation_number: 'number-2',
          reservation_code: 'ABCD2345',
          start_time: `${DAY}T13:00:00`,
          end_time: `${DAY}T14:00:00`,
          customer_name: '高橋 結衣',
          service_name: 'ケア',
          option_names: [],
          is_nominated: false,
          status: 'pending',
        },
      ],
    },
  ],
};

const HANAKO = '09:30〜10:30 山田 花子 様 ジェルネイル＋ジェルオフ、アート 指名 確定';

/** Renders the board under the admin routes' 予約作成 (here `dialog`, standing in for the real one). */
function renderBoard(dialog?: (props: StaffBookingDialogProps) => ReactNode) {
  const dates: string[] = [];
  server.use(
    http.get('/api/admin/day-board/', ({ request }) => {
      const date = new URL(request.url).searchParams.get('date')!;
      dates.push(date);
      return HttpResponse.json({ ...BOARD, date, staff: date === DAY ? BOARD.staff : [] });
    }),
  );
  const routes = [
    {
      path: '/admin/board',
      element: (
        <StaffBookingDialogContext value={dialog ?? null}>
          <DayBoardPage />
        </StaffBookingDialogContext>
      ),
    },
    { path: '/admin/reservations/:reservationNumber', element: <p>detail page</p> },
  ];
  return { dates, ...renderRoute(`/admin/board?date=${DAY}`, { routes }) };
}

let restoreMedia: (() => void) | undefined;
fixDeviceClock();
afterEach(() => {
  restoreMedia?.();
  restoreMedia = undefined;
  clearNotifications();
  vi.restoreAllMocks();
});

describe('予約台帳', () => {
  it('lays the day out: columns, blocks with readable labels, free working cells as buttons, the now-line', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    const { dates, router } = renderBoard();
    const hanako = await screen.findByRole('link', { name: HANAKO }, LAZY);
    expect(hanako).toHaveAttribute('href', '/admin/reservations/number-1');
    expect(screen.getByRole('link', { name: '13:00〜14:00 高橋 結衣 様 ケア 保留中' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '佐藤 Aの予約' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '鈴木 Bの予約' })).toBeInTheDocument();
    expect(screen.getByText('2030年1月10日(木)（今日）')).toBeInTheDocument();

    // Free working time is a button; booked, break and off-duty cells are not.
    for (const free of ['佐藤 A 09:00 空き', '佐藤 A 10:30 空き', '佐藤 A 13:00 空き', '鈴木 B 10:00 空き']) {
      expect(screen.getByRole('button', { name: free })).toBeInTheDocument();
    }
    for (const none of ['佐藤 A 09:30 空き', '佐藤 A 10:00 空き', '佐藤 A 12:00 空き', '鈴木 B 09:30 空き']) {
      expect(screen.queryByRole('button', { name: none })).not.toBeInTheDocument();
    }
    // Rows from 09:00 (A's start) to 18:00 (B's end): 18 rows of 30 minutes in each column.
    const columnA = screen.getByRole('group', { name: '佐藤 Aの予約' });
    expect(columnA.querySelectorAll('[data-board-cell]')).toHaveLength(18);
    expect(columnA.querySelector('[data-now-line]')).not.toBeNull();
    expect(dates).toEqual([DAY]);

    await userEvent.click(screen.getByRole('button', { name: '翌日' }));
    expect(await screen.findByText('この日に出勤するスタッフはいません。')).toBeInTheDocument();
    expect(dates.at(-1)).toBe('2030-01-11');
    expect(router.state.location.search).toBe('?date=2030-01-11');
  });

  it('turns the day with a sideways swipe, not with a swipe that starts on a block', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    const { router } = renderBoard();
    const board = await screen.findByRole('region', { name: '予約台帳' }, LAZY);
    const swipe = (target: Element, fromX: number, toX: number) => {
      fireEvent.touchStart(target, { touches: [{ clientX: fromX, clientY: 300 }] });
      fireEvent.touchEnd(target, { changedTouches: [{ clientX: toX, clientY: 310 }] });
    };
    swipe(screen.getByRole('link', { name: HANAKO }), 300, 100);
    expect(router.state.location.search).toBe(`?date=${DAY}`);
    swipe(board, 100, 300);
    await waitFor(() => expect(router.state.location.search).toBe('?date=2030-01-09'));
  });

  it('updates live: a reservation event reloads the board', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    const stream = openEventStream();
    let staff = BOARD.staff;
    server.use(
      http.get('/api/admin/events/', () => stream.response),
      http.get('/api/admin/day-board/', () => HttpResponse.json({ ...BOARD, staff })),
    );
    function LiveBoard() {
      useReservationEvents({ enabled: true, backoffMs: () => 10 });
      return <DayBoardPage />;
    }
    renderRoute(`/admin/board?date=${DAY}`, { routes: [{ path: '/admin/board', element: <LiveBoard /> }] });
    await screen.findByRole('link', { name: HANAKO }, LAZY);
    staff = [{ ...BOARD.staff[0]!, reservations: [] }, BOARD.staff[1]!];
    stream.send('reservation', {
      action: 'cancelled',
      reservation_number: 'number-1',
      staff_id: 1,
      status: 'cancelled',
      start_time: `${DAY}T09:30:00`,
      customer_name: '山田 花子',
      by: 'staff',
    });
    await waitFor(() => expect(screen.queryByRole('link', { name: HANAKO })).not.toBeInTheDocument());
  });

  it('opens 予約作成 prefilled with the tapped empty cell (staff, date, time) and closes it once booked', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    const opened: StaffBookingDialogProps[] = [];
    renderBoard((props) => {
      if (!props.opened) return null;
      opened.push(props);
      return (
        <div role="dialog" aria-label="予約作成">
          <button onClick={() => props.onCreated?.('new-booking')}>作成する</button>
        </div>
      );
    });
    expect(await screen.findByRole('button', { name: '鈴木 B 15:00 空き' }, LAZY)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: '予約作成' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '鈴木 B 15:00 空き' }));
    expect(screen.getByRole('dialog', { name: '予約作成' })).toBeInTheDocument();
    expect(opened.at(-1)!.initial).toEqual({ staffId: 2, date: DAY, time: '15:00' });
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(screen.queryByRole('dialog', { name: '予約作成' })).not.toBeInTheDocument();
  });

  it('moves a dragged block only after 日時を変更 is confirmed, with the call and messages of 日時を変更', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    const sent: unknown[] = [];
    server.use(
      http.post('/api/admin/reservations/:number/reschedule/', async ({ request, params }) => {
        sent.push({ number: params.number, body: await request.json() });
        return sent.length === 1
          ? HttpResponse.json({ detail: 'その時間は他の予約と重なっています。', code: 'conflict' }, { status: 409 })
          : HttpResponse.json(makeReservation({ start_time: `${DAY}T11:00:00`, end_time: `${DAY}T12:00:00` }));
      }),
    );
    const { router } = renderBoard();
    const block = await screen.findByRole('link', { name: HANAKO }, LAZY);
    const columnB = screen.getByRole('group', { name: '鈴木 Bの予約' });
    // jsdom has no layout: every box is at 0, so the row is the pointer's travel over 48 px rows (09:00 + 4 rows).
    document.elementFromPoint = vi.fn(() => columnB);
    const pointer = { pointerId: 1, button: 0, pointerType: 'mouse', clientX: 5 };
    fireEvent.pointerDown(block, { ...pointer, clientY: 10 });
    fireEvent.pointerMove(block, { ...pointer, clientY: 100 });
    fireEvent.pointerUp(block, { ...pointer, clientY: 10 + 4 * 48 });
    fireEvent.click(block);

    const dialog = await screen.findByRole('dialog', { name: '日時を変更' });
    expect(router.state.location.pathname).toBe('/admin/board');
    expect(dialog).toHaveTextContent(
      '山田 花子 様の予約を 2030年1月10日(木) 09:30 から 2030年1月10日(木) 11:00（担当: 鈴木 B）に変更しますか？',
    );
    expect(sent).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: '変更する' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('その時間は他の予約と重なっています。');
    await userEvent.click(within(dialog).getByRole('button', { name: '変更する' }));
    expect(await screen.findByText(MESSAGES.rescheduled)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '日時を変更' })).not.toBeInTheDocument());
    expect(sent[1]).toEqual({
      number: 'number-1',
      body: { start_time: `${DAY}T11:00:00`, expected_start_time: `${DAY}T09:30:00`, staff_id: 2 },
    });
  });

  it('refuses a drop on a time already past, as 日時を変更 offers none, without asking', async () => {
    vi.setSystemTime(new Date(2030, 0, 10, 12, 0, 0));
    storeAdminTokens();
    restoreMedia = setDesktop(true);
    renderBoard();
    const block = await screen.findByRole('link', { name: HANAKO }, LAZY);
    document.elementFromPoint = vi.fn(() => screen.getByRole('group', { name: '鈴木 Bの予約' }));
    const pointer = { pointerId: 1, button: 0, pointerType: 'mouse', clientX: 5 };
    fireEvent.pointerDown(block, { ...pointer, clientY: 10 });
    fireEvent.pointerMove(block, { ...pointer, clientY: 100 });
    fireEvent.pointerUp(block, { ...pointer, clientY: 10 + 4 * 48 });
    expect(await screen.findByText('過去の日時には移動できません。')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: '日時を変更' })).not.toBeInTheDocument();
  });

  it('shows one column at a time on a phone, chosen with 表示するスタッフ', async () => {
    storeAdminTokens();
    restoreMedia = setDesktop(false);
    const { router } = renderBoard();
    expect(await screen.findByRole('group', { name: '佐藤 Aの予約' }, LAZY)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: '鈴木 Bの予約' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('表示するスタッフ', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '鈴木 B' }));
    expect(await screen.findByRole('group', { name: '鈴木 Bの予約' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: '佐藤 Aの予約' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe(`?date=${DAY}&staff=2`);
  });
});

describe('board layout', () => {
  it('puts overlapping bookings side by side and the rest full width', () => {
    const at = (start: string, end: string, number: string) => ({
      ...BOARD.staff[0]!.reservations[0]!,
      reservation_number: number,
      start_time: `${DAY}T${start}:00`,
      end_time: `${DAY}T${end}:00`,
    });
    const column = {
      ...BOARD.staff[0]!,
      reservations: [at('10:00', '11:00', 'a'), at('10:30', '11:30', 'b'), at('12:00', '12:15', 'c')],
    };
    const placed = placeBookings(column, DAY, { starts: [], grid: 30, first: 9 * 60 });
    expect(
      placed.map(({ booking, top, height, lane, lanes }) => [booking.reservation_number, top, height, lane, lanes]),
    ).toEqual([
      ['a', 60, 60, 0, 2],
      ['b', 90, 60, 1, 2],
      // Shorter than a cell: drawn one cell tall, readable.
      ['c', 180, 30, 0, 1],
    ]);
  });
});
