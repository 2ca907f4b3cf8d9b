import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, fixDeviceClock, LAZY, staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
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

fixDeviceClock();
afterEach(clearNotifications);

describe('opening-time settings (受付時間設定)', () => {
  it('highlights the configured days of the shown month in green', async () => {
    const urls = captureConfigured(['2030-01-15', '2030-01-20']);
    renderWithProviders(<SchedulePage viewer={staffProfile} />);
    const configured = await screen.findByRole('button', { name: '2030年1月15日（受付時間設定済み）' }, LAZY);
    expect(configured).toHaveAttribute('data-configured', 'true');
    expect(configured.style.backgroundColor).toContain('green');
    expect(screen.getByRole('button', { name: '2030年1月16日' })).not.toHaveAttribute('data-configured');
    expect(screen.getByRole('status')).toHaveTextContent('2030年1月の設定済み: 2日');
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
    const dialog = await screen.findByRole('dialog', { name: '2030年01月15日 の受付時間' });
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
});
