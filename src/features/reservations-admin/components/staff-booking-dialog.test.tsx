import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixDeviceClock, makeReservation, staffProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute, renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { StaffBookingDialog } from './staff-booking-dialog';

const hand = {
  id: 3,
  name: 'ハンド定額ジェル',
  price: '5500',
  duration_minutes: 60,
  salon: 1,
  rebook_cycle_days: null,
  options: [
    { id: 31, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
    { id: 32, name: 'アート1本', price: '550', duration_minutes: 10 },
  ],
};
const care = {
  id: 4,
  name: 'ケア',
  price: '3000',
  duration_minutes: 30,
  salon: 1,
  rebook_cycle_days: null,
  options: [],
};
const deskProfile = { ...staffProfile, id: 7, username: 'desk', full_name: '受付 花', role: 'front_desk' as const };
const bookable = [
  { id: 5, name: '佐藤 A', picture_url: '', profile: '', nomination_fee: '1000' },
  { id: 6, name: '鈴木 B', picture_url: '', profile: '', nomination_fee: '0' },
];

/** Every detailed-time-slots request (its query), answered by `answer` for that query. */
function slotsBy(answer: (query: URLSearchParams) => string[]) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/detailed-time-slots/', ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      return HttpResponse.json({ available_times: answer(query), outside_business_hours: [], booked_times: [] });
    }),
  );
  return asked;
}

function created(): { body: () => unknown } {
  let body: unknown;
  const answer = async ({ request }: { request: Request }) => {
    body = await request.json();
    return HttpResponse.json(makeReservation({ status: 'confirmed', reservation_number: 'r-new' }), { status: 201 });
  };
  server.use(
    http.post('/api/admin/reservations/create-with-new-customer/', answer),
    http.post('/api/admin/reservations/create-for-customer/', answer),
  );
  return { body: () => body };
}

async function pickDate(label: string) {
  await userEvent.click(screen.getByRole('button', { name: /日付/ }));
  await userEvent.click(await screen.findByRole('button', { name: label }));
}

async function pick(label: RegExp, option: string | RegExp) {
  await userEvent.click(screen.getByLabelText(label, { selector: 'input' }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

async function offeredTimes() {
  await userEvent.click(screen.getByLabelText(/^時間/, { selector: 'input' }));
  const names = within(await screen.findByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
}

const total = () => screen.getByText(/^合計/);

fixDeviceClock();
beforeEach(() => {
  server.use(
    http.get('/api/services/', () => HttpResponse.json([hand, care])),
    http.get('/api/admin/me/', () => HttpResponse.json(deskProfile)),
    http.get('/api/staff/', () => HttpResponse.json(bookable)),
  );
});

describe('staff booking dialog (予約作成)', () => {
  it('options change the total time and price; 指名 adds the 指名料; only the starts the whole booking fits', async () => {
    // The server's answer for 60 minutes, and for 100 (both options): 10:30 does not fit the longer one.
    const asked = slotsBy((query) => (query.get('option_ids') === '31,32' ? ['10:00'] : ['10:00', '10:30']));
    renderWithProviders(<StaffBookingDialog opened onClose={() => {}} />);
    await pick(/^メニュー/, /ハンド定額ジェル/);
    expect(total()).toHaveTextContent('合計 1時間 ¥5,500');
    await userEvent.click(screen.getByRole('checkbox', { name: /ジェルオフ/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /アート1本/ }));
    expect(total()).toHaveTextContent('合計 1時間40分 ¥7,150');

    await pickDate('2030年1月15日');
    await pick(/担当スタッフ/, /^佐藤 A/);
    await userEvent.click(screen.getByRole('radio', { name: '指名あり（指名料 +¥1,000）' }));
    expect(total()).toHaveTextContent('合計 1時間40分 ¥8,150');
    expect(await offeredTimes()).toEqual(['10:00']);
    // Each staff member's day is asked for this menu's length.
    expect(
      asked.map((query) => [query.get('user_id'), query.get('service_id'), query.get('option_ids')]),
    ).toContainEqual(['5', '3', '31,32']);

    await userEvent.click(screen.getByRole('radio', { name: MESSAGES.noNomination }));
    expect(total()).toHaveTextContent('合計 1時間40分 ¥7,150');
    await userEvent.click(screen.getByRole('checkbox', { name: /アート1本/ }));
    await waitFor(async () => expect(await offeredTimes()).toEqual(['10:00', '10:30']));
  }, 40_000);

  it('prefills the staff member as 指名, the day and the start, and sends them with the options', async () => {
    slotsBy(() => ['14:00', '14:30']);
    const post = created();
    const onClose = vi.fn();
    const onCreated = vi.fn();
    renderWithProviders(
      <StaffBookingDialog
        opened
        onClose={onClose}
        onCreated={onCreated}
        initial={{ staffId: 6, date: '2030-01-15', time: '14:30' }}
      />,
    );
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '電話 太郎');
    await userEvent.type(screen.getByRole('textbox', { name: /電話番号/ }), '090-1234-5678');
    await pick(/^メニュー/, /ケア/);
    await waitFor(() =>
      expect(screen.getByLabelText(/担当スタッフ/, { selector: 'input' })).toHaveValue('鈴木 B（空き 2枠）'),
    );
    expect(screen.getByRole('radio', { name: '指名あり' })).toBeChecked();
    expect(screen.getByLabelText(/^時間/, { selector: 'input' })).toHaveValue('14:30');
    expect(total()).toHaveTextContent('合計 30分 ¥3,000（14:30〜15:00）');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));

    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('r-new'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(post.body()).toEqual({
      name: '電話 太郎',
      phone_number: '09012345678',
      email: '',
      service_id: 4,
      option_ids: [],
      start_time: '2030-01-15T14:30:00',
      staff_id: 6,
      is_nominated: true,
    });
  });

  it('a nailist books a known customer for themselves; after 作成 the dialog closes and opens the booking', async () => {
    server.use(http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)));
    server.use(http.get('/api/staff/', () => HttpResponse.json([{ ...bookable[0], id: staffProfile.id }])));
    const asked = slotsBy(() => ['10:00']);
    const post = created();
    const onClose = vi.fn();
    const { router } = renderRoute('/', {
      routes: [{ path: '*', element: <StaffBookingDialog opened onClose={onClose} customerId={9} /> }],
    });
    expect(screen.queryByRole('textbox', { name: /お名前/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/担当スタッフ/)).not.toBeInTheDocument();
    await pick(/^メニュー/, /ハンド定額ジェル/);
    await userEvent.click(screen.getByRole('checkbox', { name: /ジェルオフ/ }));
    await userEvent.click(await screen.findByRole('radio', { name: '指名あり（指名料 +¥1,000）' }));
    await pickDate('2030年1月15日');
    await pick(/^時間/, '10:00');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/reservations/r-new'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(asked.at(-1)!.get('user_id')).toBeNull();
    expect(post.body()).toEqual({
      customer_id: 9,
      service_id: 3,
      option_ids: [31],
      start_time: '2030-01-15T10:00:00',
      is_nominated: true,
    });
  });

  it('requires name, menu, date and time, and checks phone digits and the e-mail', async () => {
    const posted = vi.fn();
    server.use(http.post('/api/admin/reservations/create-with-new-customer/', () => (posted(), HttpResponse.json({}))));
    renderWithProviders(<StaffBookingDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /電話番号/ }), '+81-90-abc');
    await userEvent.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findAllByText(MESSAGES.fieldRequired)).toHaveLength(4);
    expect(screen.getByText(MESSAGES.phoneDigits)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the server error alone, and field messages under the fields', async () => {
    slotsBy(() => ['10:00']);
    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.staffTimeTaken, code: 'slot_unavailable' }, { status: 409 }),
      ),
    );
    const onClose = vi.fn();
    renderWithProviders(<StaffBookingDialog opened onClose={onClose} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await pick(/^メニュー/, /ケア/);
    await pickDate('2030年1月15日');
    await pick(/^時間/, '10:00');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.staffTimeTaken);
    expect(screen.queryByRole('status', { name: /作成しました/ })).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
