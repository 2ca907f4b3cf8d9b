import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, fixDeviceClock, LAZY, staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { createTestQueryClient, renderWithProviders } from '#tests/setup/render';
import { scheduleKeys } from '#src/lib/query-keys';
import { MESSAGES } from '#src/shared/messages';
import type { ScheduleDay, ShiftTemplate } from '#src/shared/schemas/schedule';
import { SchedulePage } from './schedule-page';

const GRID = ['09:00', '09:30', '10:00', '10:30', '11:00'];

function serveSlots(open: string[]) {
  const saved: unknown[] = [];
  server.use(
    http.get('/api/admin/available-slots/', () =>
      HttpResponse.json(GRID.map((time) => ({ time, is_available: open.includes(time) }))),
    ),
    http.post('/api/admin/available-slots/', async ({ request }) => {
      const body = (await request.json()) as { times: string[] };
      saved.push(body);
      return HttpResponse.json(GRID.map((time) => ({ time, is_available: body.times.includes(time) })));
    }),
  );
  return saved;
}

function captureConfigured(dates: string[]) {
  const urls: URL[] = [];
  server.use(
    http.get('/api/admin/configured-dates/', ({ request }) => {
      urls.push(new URL(request.url));
      return HttpResponse.json(dates);
    }),
  );
  return urls;
}

/** The screen's other reads: the weekly shift, the month's decided days and (superuser) the holidays. */
function serveSchedule(options: { shifts?: ShiftTemplate; days?: ScheduleDay[] } = {}) {
  server.use(
    http.get('/api/admin/shifts/', ({ request }) =>
      HttpResponse.json(
        options.shifts ?? { user_id: Number(new URL(request.url).searchParams.get('user_id') ?? 2), days: [] },
      ),
    ),
    http.get('/api/admin/schedule-days/', () => HttpResponse.json(options.days ?? [])),
    http.get('/api/admin/holidays/', () => HttpResponse.json([])),
    // The カレンダー連携 section reads the signed-in profile (its calendar URL).
    http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
  );
}

const STRANDED = {
  detail: MESSAGES.scheduleStrandsReservations(1),
  code: 'stranded',
  reservations: [
    {
      reservation_number: 'R-20300114-0001',
      start_time: '2030-01-14T10:00:00',
      customer_name: '山田 花子',
      staff_name: '佐藤 美咲',
    },
  ],
};

fixDeviceClock();
afterEach(clearNotifications);
beforeEach(() => serveSchedule());

describe('opening-time settings (受付時間設定)', () => {
  it('without the month’s decided days, highlights the configured days of the shown month in green', async () => {
    const urls = captureConfigured(['2030-01-15', '2030-01-20']);
    server.use(
      http.get('/api/admin/schedule-days/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    const configured = await screen.findByRole('button', { name: '2030年1月15日（受付時間設定済み）' }, LAZY);
    expect(configured).toHaveAttribute('data-configured', 'true');
    expect(configured.style.backgroundColor).toContain('green');
    expect(screen.getByRole('button', { name: '2030年1月16日' })).not.toHaveAttribute('data-configured');
    // The next month's first days are not in January's grid (src/components/calendar.ts hides them).
    expect(screen.queryByRole('button', { name: /^2030年2月1日/ })).toBeNull();
    expect(screen.getByText('2030年1月の設定済み: 2日')).toHaveAttribute('role', 'status');
    expect(await screen.findByText(MESSAGES.adminScheduleDaysLoadFailed)).toBeInTheDocument();
    // An ordinary staff member's user_id would be ignored anyway: none is sent.
    expect(urls[0]!.searchParams.get('year')).toBe('2030');
    expect(urls[0]!.searchParams.get('month')).toBe('1');
    expect(urls[0]!.searchParams.has('user_id')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: '次の月' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('month')).toBe('2'));
  });

  it('opens one checkbox per 30-minute slot for a day, and saves the chosen ones', async () => {
    captureConfigured([]);
    const saved = serveSlots(['10:00']);
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月15日' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: '2030年1月15日(火) の受付時間' });
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.map((box) => box.getAttribute('value'))).toEqual(GRID);
    expect(within(dialog).getByRole('checkbox', { name: '10:00' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: '09:00' })).not.toBeChecked();

    await userEvent.click(within(dialog).getByRole('checkbox', { name: '09:00' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '10:00' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '10:30' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));

    await waitFor(() => expect(saved).toEqual([{ date: '2030-01-15', times: ['09:00', '10:30'] }]));
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /の受付時間/ })).not.toBeInTheDocument());
  });

  it('selects all and clears all; cancel closes without saving', async () => {
    captureConfigured([]);
    const saved = serveSlots([]);
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月15日' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'すべて選択' }));
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .every((box) => (box as HTMLInputElement).checked),
    ).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'すべて解除' }));
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .some((box) => (box as HTMLInputElement).checked),
    ).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /の受付時間/ })).not.toBeInTheDocument());
    expect(saved).toEqual([]);
  });

  it('offline: shows the stored times, says why they cannot change, and only closes', async () => {
    captureConfigured([]);
    const saved = serveSlots(['10:00']);
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月15日' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await within(dialog).findByRole('checkbox', { name: '10:00' });
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      window.dispatchEvent(new Event('offline'));
      expect(await within(dialog).findByText(MESSAGES.offlineUnavailable('受付時間の変更'))).toBeInTheDocument();
      expect(within(dialog).getByRole('checkbox', { name: '10:00' })).toBeChecked();
      expect(within(dialog).getByRole('checkbox', { name: '10:00' })).toBeDisabled();
      expect(within(dialog).getByRole('button', { name: 'すべて選択' })).toBeDisabled();
      expect(within(dialog).getByRole('button', { name: '保存' })).toBeDisabled();
      await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /の受付時間/ })).not.toBeInTheDocument());
      expect(saved).toEqual([]);
    } finally {
      onLine.mockRestore();
      window.dispatchEvent(new Event('online'));
    }
  });

  it('says 時間枠の読み込みに失敗しました。 and 設定の保存に失敗しました。', async () => {
    captureConfigured([]);
    server.use(
      http.get('/api/admin/available-slots/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月15日' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.adminSlotsLoadFailed);

    serveSlots(['09:00']);
    server.use(
      http.post('/api/admin/available-slots/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: '再読み込み' }));
    await userEvent.click(await within(dialog).findByRole('button', { name: '保存' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.adminSlotsSaveFailed);
  });

  it('lets a superuser edit another staff member’s schedule (user_id)', async () => {
    const urls = captureConfigured([]);
    const saved = serveSlots([]);
    server.use(
      http.get('/api/admin/users/', () =>
        HttpResponse.json([
          { ...superuserProfile, is_active: true },
          {
            id: 2,
            username: 'staff',
            full_name: '佐藤 美咲',
            email: '',
            is_superuser: false,
            is_active: true,
            is_line_linked: false,
          },
        ]),
      ),
    );
    renderWithProviders(<SchedulePage viewer={superuserProfile} />);
    await waitFor(() => expect(urls[0]?.searchParams.get('user_id')).toBe('1'), LAZY);
    await userEvent.click(screen.getByLabelText('担当スタッフ', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '佐藤 美咲' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.get('user_id')).toBe('2'));
    await userEvent.click(screen.getByRole('button', { name: '2030年1月15日' }));
    const dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: '09:30' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saved).toEqual([{ date: '2030-01-15', times: ['09:30'], user_id: 2 }]));
  });
  it('lists a staff member added on another device even when its copy of the staff was read a minute ago', async () => {
    captureConfigured([]);
    const newcomer = { ...superuserProfile, id: 9, username: 'mika', full_name: '新人 美香', is_superuser: false };
    server.use(
      http.get('/api/admin/users/', () =>
        HttpResponse.json([
          { ...superuserProfile, is_active: true },
          { ...newcomer, role: 'nailist', is_active: true, is_line_linked: false },
        ]),
      ),
    );
    // The copy a reload restores (issue 32): only the owner, read a minute ago.
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(scheduleKeys.staff(), [{ ...superuserProfile, is_active: true }], {
      updatedAt: Date.now() - 60_000,
    });
    renderWithProviders(<SchedulePage viewer={superuserProfile} />, { queryClient });
    await userEvent.click(await screen.findByLabelText('担当スタッフ', { selector: 'input' }, LAZY));
    expect(await screen.findByRole('option', { name: '新人 美香' })).toBeInTheDocument();
  });
  it('colours and labels each day by how it is decided (テンプレート / 個別設定 / 定休日 / 休業日 / 休み)', async () => {
    captureConfigured(['2030-01-15']);
    serveSchedule({
      days: [
        { date: '2030-01-14', source: 'template', open: true },
        { date: '2030-01-15', source: 'exception', open: true },
        { date: '2030-01-16', source: 'closed', open: false },
        { date: '2030-01-17', source: 'holiday', open: false },
        { date: '2030-01-18', source: 'off', open: false },
        { date: '2030-01-19', source: 'exception', open: false },
      ],
    });
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    const expected: Array<[string, string, string]> = [
      ['2030年1月14日（テンプレート）', 'template', 'blue'],
      ['2030年1月15日（個別設定）', 'exception', 'green'],
      ['2030年1月16日（定休日）', 'closed', 'gray'],
      ['2030年1月17日（休業日）', 'holiday', 'red'],
      ['2030年1月18日（休み）', 'off', ''],
      ['2030年1月19日（個別設定・受付なし）', 'exception', 'green'],
    ];
    for (const [name, source, colour] of expected) {
      const day = await screen.findByRole('button', { name }, LAZY);
      expect(day).toHaveAttribute('data-source', source);
      if (colour) expect(day.style.backgroundColor).toContain(colour);
    }
    expect(screen.getByText('2030年1月の勤務日: 2日（個別設定 2日）')).toHaveAttribute('role', 'status');
  });

  it('saves the weekly shift (週間シフト) as the working weekdays only, checking start before end first', async () => {
    captureConfigured([]);
    serveSchedule({ shifts: { user_id: 2, days: [{ weekday: 1, start_time: '10:00', end_time: '19:00' }] } });
    const puts: unknown[] = [];
    server.use(
      http.put('/api/admin/shifts/', async ({ request }) => {
        const body = (await request.json()) as { days: unknown[] };
        puts.push(body);
        return HttpResponse.json({ user_id: 2, days: body.days });
      }),
    );
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    const form = await screen.findByRole('form', { name: '週間シフト' }, LAZY);
    const monday = within(form).getByRole('group', { name: '月曜日' });
    expect(within(monday).getByRole('checkbox', { name: '月曜日は休み' })).not.toBeChecked();
    expect(within(monday).getByRole('combobox', { name: '月曜日の開始' })).toHaveValue('10:00');
    expect(within(monday).getByRole('combobox', { name: '月曜日の終了' })).toHaveValue('19:00');
    expect(within(form).getByRole('checkbox', { name: '日曜日は休み' })).toBeChecked();
    expect(within(form).queryByRole('combobox', { name: '日曜日の開始' })).not.toBeInTheDocument();
    // The grid runs from 00:00 to 24:00 in 30-minute steps.
    const mondayEnd = within(monday).getByRole('combobox', { name: '月曜日の終了' });
    const ends = within(mondayEnd)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(ends[0]).toBe('00:30');
    expect(ends.at(-1)).toBe('24:00');
    expect(ends).toHaveLength(48);

    await userEvent.click(within(form).getByRole('checkbox', { name: '日曜日は休み' }));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: '日曜日の開始' }), '09:00');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: '日曜日の終了' }), '17:30');
    await userEvent.click(within(form).getByRole('checkbox', { name: '月曜日は休み' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: '火曜日は休み' }));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: '火曜日の開始' }), '20:00');
    await userEvent.click(within(form).getByRole('button', { name: '週間シフトを保存' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(`火曜日: ${MESSAGES.shiftTimeInvalid}`);
    expect(puts).toEqual([]);

    await userEvent.selectOptions(within(form).getByRole('combobox', { name: '火曜日の終了' }), '24:00');
    await userEvent.click(within(form).getByRole('button', { name: '週間シフトを保存' }));
    await waitFor(() =>
      expect(puts).toEqual([
        {
          days: [
            { weekday: 0, start_time: '09:00', end_time: '17:30' },
            { weekday: 2, start_time: '20:00', end_time: '24:00' },
          ],
        },
      ]),
    );
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
  });

  it('a shift change that would strand a booking: shows the reason and the booking, linked, and keeps the form', async () => {
    captureConfigured([]);
    serveSchedule({ shifts: { user_id: 2, days: [{ weekday: 1, start_time: '10:00', end_time: '19:00' }] } });
    server.use(http.put('/api/admin/shifts/', () => HttpResponse.json(STRANDED, { status: 409 })));
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    const form = await screen.findByRole('form', { name: '週間シフト' }, LAZY);
    await userEvent.click(within(form).getByRole('checkbox', { name: '月曜日は休み' }));
    await userEvent.click(within(form).getByRole('button', { name: '週間シフトを保存' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.adminStrandedTitle);
    expect(alert).toHaveTextContent(STRANDED.detail);
    expect(alert).toHaveTextContent('2030年1月14日(月) 10:00 山田 花子 様（担当: 佐藤 美咲）');
    expect(within(alert).getByRole('link', { name: 'R-20300114-0001' })).toHaveAttribute(
      'href',
      '/admin/reservations/R-20300114-0001',
    );
    expect(within(form).getByRole('checkbox', { name: '月曜日は休み' })).toBeChecked();
    expect(screen.queryByText(MESSAGES.adminSaved)).not.toBeInTheDocument();
  });

  it('a day set by hand goes back to the shift (シフトに戻す) only after a confirmation', async () => {
    captureConfigured(['2030-01-15']);
    serveSlots(['10:00']);
    serveSchedule({
      days: [
        { date: '2030-01-15', source: 'exception', open: true },
        { date: '2030-01-16', source: 'template', open: true },
      ],
    });
    const deletes: URL[] = [];
    server.use(
      http.delete('/api/admin/available-slots/', ({ request }) => {
        deletes.push(new URL(request.url));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    // A day that follows the shift has nothing to go back to.
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月16日（テンプレート）' }, LAZY));
    let dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await within(dialog).findByRole('checkbox', { name: '10:00' });
    expect(within(dialog).queryByRole('button', { name: 'シフトに戻す' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /の受付時間/ })).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: '2030年1月15日（個別設定）' }));
    dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'シフトに戻す' }));
    const confirm = await screen.findByRole('dialog', { name: '確認' });
    expect(confirm).toHaveTextContent(MESSAGES.adminRevertToShiftConfirm);
    await userEvent.click(within(confirm).getByRole('button', { name: '戻る' }));
    expect(deletes).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'シフトに戻す' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: 'シフトに戻す' }),
    );
    await waitFor(() => expect(deletes).toHaveLength(1));
    expect(deletes[0]!.searchParams.get('date')).toBe('2030-01-15');
    expect(deletes[0]!.searchParams.has('user_id')).toBe(false);
    expect(await screen.findByText(MESSAGES.adminRevertedToShift)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /の受付時間/ })).not.toBeInTheDocument());
  });

  it('a day’s save that would strand a booking lists it in the dialog and saves nothing', async () => {
    captureConfigured([]);
    serveSlots(['10:00']);
    server.use(http.post('/api/admin/available-slots/', () => HttpResponse.json(STRANDED, { status: 409 })));
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await userEvent.click(await screen.findByRole('button', { name: '2030年1月15日' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: /の受付時間/ });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: '10:00' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STRANDED.detail);
    expect(within(alert).getByRole('link', { name: 'R-20300114-0001' })).toBeInTheDocument();
    expect(within(dialog).queryByText(MESSAGES.adminSlotsSaveFailed)).not.toBeInTheDocument();
  });

  it('lets a superuser list, add and (after a confirmation) delete the salon’s holidays', async () => {
    captureConfigured([]);
    let holidays = [{ date: '2030-01-20', note: '研修' }];
    const posts: unknown[] = [];
    const deleted: string[] = [];
    server.use(
      http.get('/api/admin/users/', () => HttpResponse.json([{ ...superuserProfile, is_active: true }])),
      http.get('/api/admin/holidays/', () => HttpResponse.json(holidays)),
      http.post('/api/admin/holidays/', async ({ request }) => {
        const body = (await request.json()) as { date: string; note: string };
        posts.push(body);
        holidays = [...holidays, body].sort((a, b) => a.date.localeCompare(b.date));
        return HttpResponse.json(body, { status: 201 });
      }),
      http.delete('/api/admin/holidays/:date/', ({ params }) => {
        deleted.push(String(params.date));
        holidays = holidays.filter((holiday) => holiday.date !== params.date);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithProviders(<SchedulePage viewer={superuserProfile} />);
    const list = await screen.findByRole('list', { name: '2030年1月の休業日' }, LAZY);
    expect(list).toHaveTextContent('2030年1月20日(日) 研修');

    const form = screen.getByRole('form', { name: '休業日を追加' });
    await userEvent.click(within(form).getByRole('button', { name: '追加' }));
    expect(await within(form).findByText(MESSAGES.fieldRequired)).toBeInTheDocument();
    expect(posts).toEqual([]);
    await userEvent.type(within(form).getByLabelText(/日付/), '2030-01-25');
    await userEvent.type(within(form).getByLabelText('メモ'), '臨時休業');
    await userEvent.click(within(form).getByRole('button', { name: '追加' }));
    await waitFor(() => expect(posts).toEqual([{ date: '2030-01-25', note: '臨時休業' }]));
    expect(await screen.findByText(MESSAGES.adminHolidayAdded)).toBeInTheDocument();
    expect(await screen.findByText('2030年1月25日(金) 臨時休業')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '2030年1月20日(日)の休業日を削除' }));
    const confirm = await screen.findByRole('dialog', { name: '確認' });
    expect(confirm).toHaveTextContent(MESSAGES.adminHolidayDeleteConfirm('2030年1月20日(日)'));
    await userEvent.click(within(confirm).getByRole('button', { name: '戻る' }));
    expect(deleted).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: '2030年1月20日(日)の休業日を削除' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '削除する' }),
    );
    await waitFor(() => expect(deleted).toEqual(['2030-01-20']));
    expect(await screen.findByText(MESSAGES.adminHolidayDeleted)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('2030年1月20日(日) 研修')).not.toBeInTheDocument());
  }, 15_000);

  it('ordinary staff edit their own shift (no user_id) and see no holiday list', async () => {
    captureConfigured([]);
    const shiftUrls: URL[] = [];
    server.use(
      http.get('/api/admin/shifts/', ({ request }) => {
        shiftUrls.push(new URL(request.url));
        return HttpResponse.json({ user_id: 2, days: [] });
      }),
    );
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    await screen.findByRole('form', { name: '週間シフト' }, LAZY);
    expect(shiftUrls[0]!.searchParams.has('user_id')).toBe(false);
    expect(screen.queryByRole('heading', { name: '休業日' })).not.toBeInTheDocument();
  });
});
