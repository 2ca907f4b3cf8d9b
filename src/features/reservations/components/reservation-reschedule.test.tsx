import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  baseCustomerHandlers,
  errorBody,
  RESERVATION_NUMBER,
  reservationFixture,
  signInCustomer,
  signInStaff,
} from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';

/** The customer's detail page: options and 指名 as booked, and moving the booking to another day and time. */
configure({ asyncUtilTimeout: 5000 });

const PATH = `/reservations/${RESERVATION_NUMBER}`;

/** Booked with two options and a named nailist: 90 + 30 + 10 minutes, 6,600 + 1,100 + 550 + 1,100 yen. */
const withOptions = (overrides: Partial<Reservation> = {}) =>
  reservationFixture({
    service: { id: 12, name: 'グラデーションジェル', price: '9350', duration_minutes: 130 },
    options: [
      { id: 21, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
      { id: 22, name: 'ストーン10粒', price: '550', duration_minutes: 10 },
    ],
    is_nominated: true,
    nomination_fee: '1100',
    end_time: '2030-05-20T12:10:00',
    ...overrides,
  });

interface Seen {
  reads: number;
  availability: URLSearchParams[];
  bookableDates: URLSearchParams[];
  posts: Array<{ body: unknown; key: string | null; auth: string | null }>;
}

/**
 * The reservation (as read before and after a move), the free days and times, and the reschedule endpoint's
 * answers in turn (each either a reservation or an error body with its status).
 */
function serve(before: Reservation, answers: Array<Reservation | { status: number; body: object }>) {
  const seen: Seen = { reads: 0, availability: [], bookableDates: [], posts: [] };
  let current = before;
  server.use(
    ...baseCustomerHandlers(),
    http.get('/api/reservations/:number/', () => {
      seen.reads += 1;
      return HttpResponse.json(current);
    }),
    http.get('/api/bookable-dates/', ({ request }) => {
      seen.bookableDates.push(new URL(request.url).searchParams);
      return HttpResponse.json(['2030-05-14', '2030-05-15']);
    }),
    http.get('/api/availability/', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.availability.push(params);
      if (params.get('date') === '2030-05-14') return HttpResponse.json([]);
      // After a taken slot the list comes back without 10:30.
      return HttpResponse.json(seen.posts.length === 0 ? ['10:00', '10:30', '14:00'] : ['10:00', '14:00']);
    }),
    http.post('/api/reservations/:number/reschedule/', async ({ request }) => {
      seen.posts.push({
        body: await request.json(),
        key: request.headers.get('idempotency-key'),
        auth: request.headers.get('authorization'),
      });
      const answer = answers[seen.posts.length - 1];
      if (!answer) return HttpResponse.json(errorBody('unexpected', 'unexpected'), { status: 500 });
      if ('status' in answer && typeof answer.status === 'number' && 'body' in answer) {
        if (answer.status === 403) current = { ...current, can_cancel: false };
        return HttpResponse.json(answer.body, { status: answer.status });
      }
      current = answer as Reservation;
      return HttpResponse.json(answer);
    }),
  );
  return seen;
}

const user = () => userEvent.setup();

beforeEach(() => {
  // "Today" is 10 May 2030 for the calendar; only Date is faked.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2030, 4, 10, 10, 0));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openPicker() {
  await user().click(await screen.findByRole('button', { name: '日時を変更' }));
  await screen.findByRole('heading', { level: 2, name: '新しい日付を選ぶ' });
}

async function pick(day: string, time: string) {
  const button = await screen.findByRole('button', { name: day });
  await waitFor(() => expect(button).toBeEnabled());
  await user().click(button);
  await screen.findByRole('heading', { level: 2, name: '新しい時間を選ぶ' });
  await user().click(await screen.findByRole('button', { name: time }));
  await screen.findByRole('heading', { level: 2, name: '変更内容の確認' });
}

function rows(): Array<[string, string]> {
  const terms = [...(document.querySelector('dl')?.querySelectorAll('dt') ?? [])];
  return terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']);
}

describe('/reservations/{number}: options, 指名 and moving the booking', () => {
  it('shows the options, the named nailist with her fee, and the totals', async () => {
    signInCustomer();
    serve(withOptions(), []);
    renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    expect(rows()).toEqual(
      expect.arrayContaining([
        ['オプション', 'ジェルオフ（+30分 +¥1,100）、ストーン10粒（+10分 +¥550）'],
        ['担当', '佐藤 美咲（指名）'],
        ['指名料', '¥1,100'],
        ['料金', '¥9,350'],
        ['所要時間', '130分'],
      ]),
    );
  });

  it('names the assigned nailist without （指名） and shows no options for a plain booking', async () => {
    signInCustomer();
    serve(reservationFixture(), []);
    renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    const labels = rows().map(([label]) => label);
    expect(rows()).toEqual(expect.arrayContaining([['担当', '佐藤 美咲']]));
    expect(labels).not.toContain('オプション');
    expect(labels).not.toContain('指名料');
  });

  it('moves the booking to a new day and time with the same menu and nailist, and shows the new time', async () => {
    signInCustomer();
    const moved = withOptions({ start_time: '2030-05-15T10:30:00', end_time: '2030-05-15T12:40:00' });
    const seen = serve(withOptions(), [moved]);
    renderRoute(PATH);
    await openPicker();

    // A day without a free start keeps the customer on the calendar.
    const empty = await screen.findByRole('button', { name: '2030年5月14日（予約できます）' });
    await waitFor(() => expect(empty).toBeEnabled());
    await user().click(empty);
    expect(await screen.findByText(MESSAGES.noSlotsOnDay)).toBeInTheDocument();

    await pick('2030年5月15日（予約できます）', '10:30');
    expect(screen.getByText('この日時に変更しますか？')).toBeInTheDocument();
    expect(screen.getByText('2030年5月15日(水) 10:30〜12:40')).toBeInTheDocument();

    for (const params of [...seen.bookableDates, ...seen.availability]) {
      expect(params.get('service_id')).toBe('12');
      expect(params.get('staff_id')).toBe('2');
      expect(params.get('option_ids')).toBe('21,22');
    }
    expect(seen.availability.length).toBeGreaterThan(0);

    const readsBefore = seen.reads;
    await user().click(screen.getByRole('button', { name: '変更する' }));
    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent(`${MESSAGES.rescheduled} 新しい日時: 2030年5月15日(水) 10:30〜12:40`);
    expect(seen.posts).toHaveLength(1);
    expect(seen.posts[0]?.body).toEqual({ start_time: '2030-05-15T10:30:00', staff_id: 2 });
    expect(seen.posts[0]?.key).toMatch(/^[\w-]{16,}$/);
    expect(seen.posts[0]?.auth).toBe('Bearer customer-access');
    // Reloaded afterwards, and the page shows the new start.
    await waitFor(() => expect(seen.reads).toBeGreaterThan(readsBefore));
    expect(rows()).toEqual(expect.arrayContaining([['日時', '2030年5月15日(水) 10:30〜12:40']]));
    expect(screen.queryByRole('heading', { name: '変更内容の確認' })).not.toBeInTheDocument();
  });

  it('sends no staff_id when the nailist was not named', async () => {
    signInCustomer();
    const seen = serve(reservationFixture(), [reservationFixture({ start_time: '2030-05-15T14:00:00' })]);
    renderRoute(PATH);
    await openPicker();
    await pick('2030年5月15日（予約できます）', '14:00');
    await user().click(screen.getByRole('button', { name: '変更する' }));
    await screen.findByText(new RegExp(MESSAGES.rescheduled));
    expect(seen.posts[0]?.body).toEqual({ start_time: '2030-05-15T14:00:00' });
    for (const params of seen.availability) {
      expect(params.has('staff_id')).toBe(false);
      expect(params.has('option_ids')).toBe(false);
    }
  });

  it('lets the customer pick again when the time was taken meanwhile (409)', async () => {
    signInCustomer();
    const seen = serve(withOptions(), [
      { status: 409, body: errorBody(MESSAGES.slotUnavailable, 'slot_unavailable') },
      withOptions({ start_time: '2030-05-15T14:00:00', end_time: '2030-05-15T16:10:00' }),
    ]);
    renderRoute(PATH);
    await openPicker();
    await pick('2030年5月15日（予約できます）', '10:30');
    await user().click(screen.getByRole('button', { name: '変更する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.slotUnavailable);
    await screen.findByRole('heading', { level: 2, name: '新しい時間を選ぶ' });
    // The day's times were asked again: the taken one is gone.
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: '開始時刻' }))
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['10:00〜12:10', '14:00〜16:10']),
    );
    await user().click(screen.getByRole('button', { name: '14:00' }));
    await user().click(await screen.findByRole('button', { name: '変更する' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2030年5月15日(水) 14:00');
    expect(seen.posts.map((post) => post.body)).toEqual([
      { start_time: '2030-05-15T10:30:00', staff_id: 2 },
      { start_time: '2030-05-15T14:00:00', staff_id: 2 },
    ]);
    // Another start is another request: not the same key.
    expect(seen.posts[0]?.key).not.toBe(seen.posts[1]?.key);
  });

  it('says the change deadline passed (403) and offers the change no more', async () => {
    signInCustomer();
    serve(withOptions(), [
      { status: 403, body: errorBody(MESSAGES.rescheduleDeadlinePassed, 'reschedule_deadline_passed') },
    ]);
    renderRoute(PATH);
    await openPicker();
    await pick('2030年5月15日（予約できます）', '10:30');
    await user().click(screen.getByRole('button', { name: '変更する' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.rescheduleFailed);
    expect(alert).toHaveTextContent(MESSAGES.rescheduleDeadlinePassed);
    await waitFor(() => expect(screen.queryByRole('button', { name: '日時を変更' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: '変更する' })).not.toBeInTheDocument();
  });

  it('offers the change only for an active booking before the deadline, and only to its customer', async () => {
    signInCustomer();
    serve(reservationFixture({ can_cancel: false, status: 'confirmed' }), []);
    const first = renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    expect(screen.queryByRole('button', { name: '日時を変更' })).not.toBeInTheDocument();
    first.unmount();

    serve(reservationFixture({ status: 'completed', can_cancel: true }), []);
    const second = renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    expect(screen.queryByRole('button', { name: '日時を変更' })).not.toBeInTheDocument();
    second.unmount();

    signInStaff();
    serve(reservationFixture({ status: 'confirmed' }), []);
    renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    expect(screen.queryByRole('button', { name: '日時を変更' })).not.toBeInTheDocument();
  });

  it('brings its calendar into view when opened (it opens below the details, off a phone screen)', async () => {
    signInCustomer();
    serve(reservationFixture(), []);
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    renderRoute(PATH);
    await openPicker();
    const panel = screen.getByRole('region', { name: '新しい日付を選ぶ' });
    await waitFor(() => expect(scrolled).toContain(panel));
    expect(panel).toContainElement(await screen.findByRole('button', { name: '2030年5月15日（予約できます）' }));
  });

  it('closes the picker without changing anything', async () => {
    signInCustomer();
    const seen = serve(reservationFixture(), []);
    renderRoute(PATH);
    await openPicker();
    await user().click(screen.getByRole('button', { name: '日時の変更をやめる' }));
    expect(await screen.findByRole('button', { name: '日時を変更' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '新しい日付を選ぶ' })).not.toBeInTheDocument();
    expect(seen.posts).toHaveLength(0);
  });
});
