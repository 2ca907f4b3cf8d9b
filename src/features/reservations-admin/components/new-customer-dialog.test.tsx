import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixDeviceClock, makeReservation, staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { CLOSE_AFTER_SUCCESS_MS, NewCustomerDialog } from './new-customer-dialog';

const services = [
  { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90, salon: 1 },
  { id: 4, name: 'ケア', price: '3000', duration_minutes: 30, salon: 1 },
];

function slotsFor(answer: { available_times: string[]; outside_business_hours: string[]; booked_times: string[] }) {
  const dates: string[] = [];
  server.use(
    http.get('/api/admin/detailed-time-slots/', ({ request }) => {
      dates.push(new URL(request.url).searchParams.get('date')!);
      return HttpResponse.json(answer);
    }),
  );
  return dates;
}

async function pickDate(label: string) {
  await userEvent.click(screen.getByRole('button', { name: /日付/ }));
  await userEvent.click(await screen.findByRole('button', { name: label }));
}

async function pickOption(input: HTMLElement, option: string | RegExp) {
  await userEvent.click(input);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

fixDeviceClock();
beforeEach(() => {
  server.use(
    http.get('/api/services/', () => HttpResponse.json(services)),
    // An ordinary staff member unless a test says otherwise: they book for themselves.
    http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('new-customer dialog', () => {
  it('keeps the time disabled until a date is chosen; offers open times, then the others labelled (営業時間外), never booked ones', async () => {
    const dates = slotsFor({
      available_times: ['10:00', '10:30'],
      outside_business_hours: ['09:00', '18:00'],
      booked_times: ['11:00', '11:30'],
    });
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    const time = await screen.findByLabelText(/^時間/, { selector: 'input' });
    expect(time).toBeDisabled();

    await pickDate('2030年1月15日');
    await waitFor(() => expect(time).toBeEnabled());
    expect(dates).toEqual(['2030-01-15']);
    await userEvent.click(time);
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['10:00', '10:30', '09:00 (営業時間外)', '18:00 (営業時間外)']);
  });

  it('says この日は予約可能な時間がありません。 when the day has no times', async () => {
    slotsFor({ available_times: [], outside_business_hours: [], booked_times: ['09:00'] });
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await screen.findByLabelText(/^時間/, { selector: 'input' });
    await pickDate('2030年1月15日');
    expect(await screen.findByText(MESSAGES.adminNoTimesForDay)).toBeInTheDocument();
  });

  it('leaves out the times of today that have passed', async () => {
    slotsFor({ available_times: ['08:30', '09:00', '09:30'], outside_business_hours: ['10:00'], booked_times: [] });
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await screen.findByLabelText(/^時間/, { selector: 'input' });
    await pickDate('2030年1月10日');
    await userEvent.click(screen.getByLabelText(/^時間/, { selector: 'input' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['09:30', '10:00 (営業時間外)']);
  });

  it('requires name, service, date and time, and checks phone digits and the e-mail', async () => {
    const posted = vi.fn();
    server.use(http.post('/api/admin/reservations/create-with-new-customer/', () => (posted(), HttpResponse.json({}))));
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /電話番号/ }), '+81-90-1234');
    await userEvent.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findAllByText(MESSAGES.fieldRequired)).toHaveLength(4);
    expect(screen.getByText(MESSAGES.phoneDigits)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('creates the customer and the confirmed reservation, says so, and closes after 1.5 s', async () => {
    slotsFor({ available_times: ['10:00'], outside_business_hours: ['19:00'], booked_times: [] });
    let body: unknown;
    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(makeReservation({ status: 'confirmed' }), { status: 201 });
      }),
    );
    const onClose = vi.fn();
    renderWithProviders(<NewCustomerDialog opened onClose={onClose} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await userEvent.type(screen.getByRole('textbox', { name: /電話番号/ }), '0312345678');
    await pickOption(screen.getByLabelText(/^メニュー/, { selector: 'input' }), 'ジェルネイル (90分) - ¥6,600');
    await pickDate('2030年1月15日');
    await pickOption(screen.getByLabelText(/^時間/, { selector: 'input' }), '19:00 (営業時間外)');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));

    expect(await screen.findByText(MESSAGES.adminNewCustomerCreated)).toBeInTheDocument();
    expect(body).toEqual({
      name: '新規 太郎',
      phone_number: '0312345678',
      email: '',
      service_id: 3,
      start_time: '2030-01-15T19:00:00',
    });
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: CLOSE_AFTER_SUCCESS_MS + 1000 });
  }, 15_000);

  it('lets the front desk (受付) choose among the bookable nailists, without reading the staff accounts', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/admin/me/', () =>
        HttpResponse.json({ ...staffProfile, id: 7, username: 'desk', role: 'front_desk', is_superuser: false }),
      ),
      http.get('/api/admin/users/', () => {
        asked.push('/api/admin/users/');
        return HttpResponse.json({ detail: '権限がありません。', code: 'permission_denied' }, { status: 403 });
      }),
      http.get('/api/staff/', () =>
        HttpResponse.json([
          { id: 5, name: '佐藤 A', picture_url: '', profile: '', nomination_fee: '0' },
          { id: 6, name: '鈴木 B', picture_url: '', profile: '', nomination_fee: '0' },
        ]),
      ),
      http.get('/api/admin/detailed-time-slots/', ({ request }) => {
        const userId = new URL(request.url).searchParams.get('user_id');
        const open = userId === '5' ? ['10:00'] : [];
        return HttpResponse.json({ available_times: open, outside_business_hours: [], booked_times: [] });
      }),
    );
    let body: unknown;
    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(makeReservation({ status: 'confirmed' }), { status: 201 });
      }),
    );
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await pickOption(screen.getByLabelText(/^メニュー/, { selector: 'input' }), /ケア/);
    await pickDate('2030年1月15日');
    const staff = screen.getByLabelText(/担当スタッフ/);
    await waitFor(() => expect(staff).toHaveValue('5'));
    expect(
      within(staff)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['佐藤 A（空き 1枠）', '鈴木 B（空き 0枠）']);
    await pickOption(screen.getByLabelText(/^時間/, { selector: 'input' }), '10:00');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    await waitFor(() => expect(body).toMatchObject({ staff_id: 5, start_time: '2030-01-15T10:00:00' }));
    expect(asked).toEqual([]);
  });

  it('lets a superuser without slots choose a staff member: only their closed times are (営業時間外)', async () => {
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/users/', () =>
        HttpResponse.json([
          { ...superuserProfile, is_active: true },
          {
            id: 5,
            username: 'sato',
            full_name: '佐藤 A',
            email: '',
            is_superuser: false,
            is_active: true,
            is_line_linked: false,
          },
          {
            id: 6,
            username: 'suzuki',
            full_name: '鈴木 B',
            email: '',
            is_superuser: false,
            is_active: true,
            is_line_linked: false,
          },
        ]),
      ),
      http.get('/api/admin/detailed-time-slots/', ({ request }) => {
        const userId = new URL(request.url).searchParams.get('user_id');
        // The admin has no slots; 鈴木 is open 10:00–11:00, 佐藤 only 18:00.
        const open = userId === '6' ? ['10:00', '10:30'] : userId === '5' ? ['18:00'] : [];
        const all = ['09:00', '10:00', '10:30', '18:00'];
        return HttpResponse.json({
          available_times: open,
          outside_business_hours: all.filter((time) => !open.includes(time)),
          booked_times: [],
        });
      }),
    );
    let body: unknown;
    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(makeReservation({ status: 'confirmed' }), { status: 201 });
      }),
    );
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await pickOption(screen.getByLabelText(/^メニュー/, { selector: 'input' }), /ケア/);
    await pickDate('2030年1月15日');
    // The default: the staff member with the most free time that day.
    const staff = screen.getByLabelText(/担当スタッフ/);
    await waitFor(() => expect(staff).toHaveValue('6'));
    const time = screen.getByLabelText(/^時間/, { selector: 'input' });
    await userEvent.click(time);
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['10:00', '10:30', '09:00 (営業時間外)', '18:00 (営業時間外)']);
    await userEvent.keyboard('{Escape}');

    // Another choice lists that staff member's day.
    await userEvent.selectOptions(staff, '5');
    await userEvent.click(time);
    await waitFor(async () =>
      expect(
        within(await screen.findByRole('listbox'))
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['18:00', '09:00 (営業時間外)', '10:00 (営業時間外)', '10:30 (営業時間外)']),
    );
    await userEvent.click(screen.getByRole('option', { name: '18:00' }));
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findByText(MESSAGES.adminNewCustomerCreated)).toBeInTheDocument();
    expect(body).toMatchObject({ start_time: '2030-01-15T18:00:00', staff_id: 5 });
  }, 15_000);

  it('shows the server error, with field messages under the fields', async () => {
    slotsFor({ available_times: ['10:00'], outside_business_hours: [], booked_times: [] });
    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.staffTimeTaken, code: 'slot_unavailable' }, { status: 409 }),
      ),
    );
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await pickOption(screen.getByLabelText(/^メニュー/, { selector: 'input' }), /ケア/);
    await pickDate('2030年1月15日');
    await pickOption(screen.getByLabelText(/^時間/, { selector: 'input' }), '10:00');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SERVER_MESSAGES.staffTimeTaken);

    server.use(
      http.post('/api/admin/reservations/create-with-new-customer/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { email: [MESSAGES.emailInvalid] } },
          { status: 400 },
        ),
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findByText(MESSAGES.emailInvalid)).toBeInTheDocument();
  });

  it('falls back to 作成に失敗しました。 when the answer carries no error of ours', async () => {
    slotsFor({ available_times: ['10:00'], outside_business_hours: [], booked_times: [] });
    server.use(
      http.post(
        '/api/admin/reservations/create-with-new-customer/',
        () => new HttpResponse('<html>oops</html>', { status: 502 }),
      ),
    );
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /お名前/ }), '新規 太郎');
    await pickOption(screen.getByLabelText(/^メニュー/, { selector: 'input' }), /ケア/);
    await pickDate('2030年1月15日');
    await pickOption(screen.getByLabelText(/^時間/, { selector: 'input' }), '10:00');
    await userEvent.click(screen.getByRole('button', { name: '作成する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminCreateFailed);
  });

  it('shows an empty menu and time list when they cannot be loaded (logged only)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.get('/api/services/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
      http.get('/api/admin/detailed-time-slots/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<NewCustomerDialog opened onClose={() => {}} />);
    await screen.findByLabelText(/^メニュー/, { selector: 'input' });
    await pickDate('2030年1月15日');
    expect(await screen.findByText(MESSAGES.adminNoTimesForDay)).toBeInTheDocument();
    await act(async () => {});
    expect(logged).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
