import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { LAZY } from '#tests/setup/admin-fixtures';
import { salonSettingsFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { loadNotifications } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { LineUsage, SalonSettings } from '#src/shared/schemas/settings';
import { SettingsPage } from './settings-page';

const stored: SalonSettings = salonSettingsFixture;

/** GET /api/admin/line-usage/ answers `usage` (default: 37 of 200 this month). */
function serveLineUsage(usage: Partial<LineUsage> = {}) {
  const answer: LineUsage = { month: '2030-01', pushes_sent: 37, limit: 200, ...usage };
  server.use(http.get('/api/admin/line-usage/', () => HttpResponse.json(answer)));
}

function serveSettings() {
  let current = { ...stored };
  const patches: unknown[] = [];
  serveLineUsage();
  server.use(
    http.get('/api/admin/settings/', () => HttpResponse.json(current)),
    http.patch('/api/admin/settings/', async ({ request }) => {
      const patch = (await request.json()) as Partial<SalonSettings>;
      patches.push(patch);
      current = { ...current, ...patch };
      return HttpResponse.json(current);
    }),
  );
  return patches;
}

afterEach(async () => (await loadNotifications()).clean());

/** Types `text` into a field in one input (character-by-character typing took seconds per field under load). */
async function typeInto(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

describe('salon settings', () => {
  it('shows the stored settings and saves only what changed', async () => {
    const patches = serveSettings();
    renderWithProviders(<SettingsPage />);
    const deadline = await screen.findByLabelText(/キャンセル期限/, {}, LAZY);
    expect(deadline).toHaveValue('1');
    expect(screen.getByLabelText(/サロン名/)).toHaveValue('ネイルサロン 桜');
    expect(screen.getByLabelText(/予約受付の締切/)).toHaveValue('60');
    expect(screen.getByLabelText('開始', { selector: 'input' })).toHaveValue('09:00');
    expect(screen.getByLabelText('終了', { selector: 'input' })).toHaveValue('21:00');
    expect(screen.getByRole('switch', { name: '前日にリマインダーを送る' })).toBeChecked();

    await userEvent.clear(deadline);
    await typeInto(deadline, '2');
    await userEvent.click(screen.getByRole('switch', { name: '前日にリマインダーを送る' }));
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() => expect(patches).toEqual([{ cancellation_deadline_days: 2, reminders_enabled: false }]));
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
  });

  it('checks that the hours run forwards before sending, and shows the server’s field messages', async () => {
    const patches = serveSettings();
    renderWithProviders(<SettingsPage />);
    await userEvent.click(await screen.findByLabelText('終了', { selector: 'input' }, LAZY));
    await userEvent.click(await screen.findByRole('option', { name: '09:00' }));
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText(MESSAGES.businessHoursOrder)).toBeInTheDocument();
    expect(patches).toEqual([]);

    server.use(
      http.patch('/api/admin/settings/', () =>
        HttpResponse.json(
          { detail: MESSAGES.invalidInput, code: 'invalid', fields: { min_notice_minutes: [MESSAGES.minNoticeRange] } },
          { status: 400 },
        ),
      ),
    );
    await userEvent.click(screen.getByLabelText('終了', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: '20:00' }));
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText(MESSAGES.minNoticeRange)).toBeInTheDocument();
  });

  it('says when the settings cannot be loaded', async () => {
    serveLineUsage();
    server.use(
      http.get('/api/admin/settings/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    renderWithProviders(<SettingsPage />);
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminSettingsLoadFailed);
  });

  it('edits the contact details customers see, checking the phone and the https map link first', async () => {
    const patches = serveSettings();
    renderWithProviders(<SettingsPage />);
    const phone = await screen.findByRole('textbox', { name: /電話番号/ }, LAZY);
    const map = screen.getByRole('textbox', { name: /地図のURL/ });
    await typeInto(phone, '03 1234 5678');
    await typeInto(map, 'http://maps.example.com/');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText(MESSAGES.salonPhoneInvalid)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.mapUrlInvalid)).toBeInTheDocument();
    expect(patches).toEqual([]);

    await userEvent.clear(phone);
    await typeInto(phone, '03-1234-5678');
    await userEvent.clear(map);
    await typeInto(map, 'https://maps.example.com/sakura');
    await userEvent.type(screen.getByRole('textbox', { name: /住所/ }), '東京都渋谷区神南1-2-3');
    await userEvent.type(screen.getByRole('textbox', { name: /営業時間・定休日/ }), '火曜定休');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() =>
      expect(patches).toEqual([
        {
          phone_number: '03-1234-5678',
          address: '東京都渋谷区神南1-2-3',
          map_url: 'https://maps.example.com/sakura',
          opening_hours_text: '火曜定休',
        },
      ]),
    );
  });
  it('saves the booking grid: time unit, interval, rounding and closed weekdays (予約枠)', async () => {
    const patches = serveSettings();
    renderWithProviders(<SettingsPage />);
    const unit = await screen.findByRole('combobox', { name: /予約の時間単位/ }, LAZY);
    expect(unit).toHaveValue('30');
    expect(screen.getByRole('combobox', { name: /インターバル/ })).toHaveValue('0');
    expect(screen.getByRole('combobox', { name: /所要時間の丸め/ })).toHaveValue('5');
    const closed = screen.getByRole('group', { name: /^定休日/ });
    expect(
      within(closed)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('aria-label')),
    ).toEqual(['日曜日', '月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日']);

    await userEvent.selectOptions(unit, '15分');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /インターバル/ }), '10分');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /所要時間の丸め/ }), '30分');
    await userEvent.click(within(closed).getByRole('checkbox', { name: '水曜日' }));
    await userEvent.click(within(closed).getByRole('checkbox', { name: '火曜日' }));
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() =>
      expect(patches).toEqual([
        { slot_minutes: 15, buffer_minutes: 10, block_rounding_minutes: 30, closed_weekdays: [2, 3] },
      ]),
    );
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
    // The form starts again from the answer: the boxes stay as saved, and saving again sends nothing.
    expect(await screen.findByRole('checkbox', { name: '火曜日' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText('変更はありません。')).toBeInTheDocument();
    expect(patches).toHaveLength(1);
  });

  it('a closed weekday that would strand bookings: shows why and lists them, each linking to its detail', async () => {
    serveSettings();
    const detail = MESSAGES.scheduleStrandsReservations(2);
    server.use(
      http.patch('/api/admin/settings/', () =>
        HttpResponse.json(
          {
            detail,
            code: 'stranded',
            reservations: [
              {
                reservation_number: 'R-20300115-0001',
                start_time: '2030-01-15T10:00:00',
                customer_name: '山田 花子',
                staff_name: '佐藤 美咲',
              },
              {
                reservation_number: 'R-20300122-0002',
                start_time: '2030-01-22T14:30:00',
                customer_name: '鈴木 一郎',
                staff_name: '佐藤 美咲',
              },
            ],
          },
          { status: 409 },
        ),
      ),
    );
    renderWithProviders(<SettingsPage />);
    await userEvent.click(await screen.findByRole('checkbox', { name: '火曜日' }, LAZY));
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.adminStrandedTitle);
    expect(alert).toHaveTextContent(detail);
    const link = within(alert).getByRole('link', { name: 'R-20300115-0001' });
    expect(link).toHaveAttribute('href', '/admin/reservations/R-20300115-0001');
    expect(alert).toHaveTextContent('2030年1月15日(火) 10:00 山田 花子 様（担当: 佐藤 美咲）');
    expect(within(alert).getByRole('link', { name: 'R-20300122-0002' })).toBeInTheDocument();
    // Nothing was saved: the box the staff member ticked is still only on this screen.
    expect(screen.getByRole('checkbox', { name: '火曜日' })).toBeChecked();
    expect(screen.queryByText(MESSAGES.adminSaved)).not.toBeInTheDocument();
  });

  describe('LINE message budget (今月のLINE送信数)', () => {
    it('shows this month’s pushes against the plan’s limit, without a warning below 90%', async () => {
      serveSettings();
      renderWithProviders(<SettingsPage />);
      expect(await screen.findByText('今月のLINE送信数: 37 / 200通', {}, LAZY)).toBeInTheDocument();
      expect(screen.getByRole('progressbar', { name: '今月のLINE送信数の割合' })).toHaveAttribute(
        'aria-valuenow',
        '19',
      );
      expect(screen.queryByText(MESSAGES.lineBudgetNearLimit)).not.toBeInTheDocument();
      expect(screen.queryByText(MESSAGES.lineBudgetReached)).not.toBeInTheDocument();
    });

    it('warns from 90% of the limit on', async () => {
      serveSettings();
      serveLineUsage({ pushes_sent: 180 });
      renderWithProviders(<SettingsPage />);
      expect(await screen.findByText('今月のLINE送信数: 180 / 200通', {}, LAZY)).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.lineBudgetNearLimit);
      expect(screen.queryByText(MESSAGES.lineBudgetReached)).not.toBeInTheDocument();
    });

    it('says at the limit that customer notices now go by e-mail', async () => {
      serveSettings();
      serveLineUsage({ pushes_sent: 200 });
      renderWithProviders(<SettingsPage />);
      expect(await screen.findByText('今月のLINE送信数: 200 / 200通', {}, LAZY)).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.lineBudgetReached);
      expect(screen.queryByText(MESSAGES.lineBudgetNearLimit)).not.toBeInTheDocument();
    });

    it('shows a plan without a limit (0) without a bar or warning', async () => {
      serveSettings();
      serveLineUsage({ pushes_sent: 5000, limit: 0 });
      renderWithProviders(<SettingsPage />);
      expect(await screen.findByText('今月のLINE送信数: 5000通（上限なし）', {}, LAZY)).toBeInTheDocument();
      expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('edits the monthly limit, refusing a value over 1,000,000 before sending', async () => {
      const patches = serveSettings();
      renderWithProviders(<SettingsPage />);
      const limit = await screen.findByRole('textbox', { name: /LINEの月間送信上限/ }, LAZY);
      expect(limit).toHaveValue('200');
      await userEvent.clear(limit);
      await typeInto(limit, '2000000');
      await userEvent.click(screen.getByRole('button', { name: '保存する' }));
      expect(await screen.findByText(MESSAGES.lineMonthlyLimitRange)).toBeInTheDocument();
      expect(patches).toEqual([]);

      await userEvent.clear(limit);
      await typeInto(limit, '5000');
      await userEvent.click(screen.getByRole('button', { name: '保存する' }));
      await waitFor(() => expect(patches).toEqual([{ line_monthly_push_limit: 5000 }]));
    });

    it('says when the count cannot be loaded, and loads it again on request', async () => {
      serveSettings();
      server.use(
        http.get('/api/admin/line-usage/', () =>
          HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
        ),
      );
      renderWithProviders(<SettingsPage />);
      expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.lineUsageLoadFailed);
      serveLineUsage({ pushes_sent: 12 });
      await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
      expect(await screen.findByText('今月のLINE送信数: 12 / 200通')).toBeInTheDocument();
    });
  });
});
