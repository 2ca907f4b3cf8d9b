import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { LAZY } from '#tests/setup/admin-fixtures';
import { salonSettingsFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { loadNotifications } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { SalonSettings } from '#src/shared/schemas/settings';
import { SettingsPage } from './settings-page';

const stored: SalonSettings = salonSettingsFixture;

function serveSettings(initial: Partial<SalonSettings> = {}) {
  let current = { ...stored, ...initial };
  const patches: unknown[] = [];
  server.use(
    http.get('/api/admin/line-usage/', () => HttpResponse.json({ month: '2030-01', pushes_sent: 0, limit: 200 })),
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

describe('settings: 無断欠席・直前キャンセル', () => {
  it('shows the stored rule and saves auto-confirm, the rule switched off and the hours', async () => {
    const patches = serveSettings();
    renderWithProviders(<SettingsPage />);
    const section = (await screen.findByText('無断欠席・直前キャンセル', {}, LAZY)).closest('fieldset')!;
    expect(section).toBeInTheDocument();
    const autoConfirm = screen.getByRole('switch', { name: /^オンライン予約を自動で確定する/ });
    const rule = screen.getByRole('switch', { name: /^無断欠席・直前キャンセルが多いお客様/ });
    const threshold = screen.getByLabelText(/承認制にする回数/);
    const hours = screen.getByLabelText(/直前キャンセルとみなす時間/);
    expect(autoConfirm).not.toBeChecked();
    expect(rule).toBeChecked();
    expect(threshold).toHaveValue('2');
    expect(hours).toHaveValue('24');

    await userEvent.click(autoConfirm);
    await userEvent.click(rule);
    expect(threshold).toBeDisabled();
    await userEvent.clear(hours);
    await userEvent.type(hours, '48');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() =>
      expect(patches).toEqual([
        { auto_confirm_online_bookings: true, approval_after_incidents: null, late_cancel_hours: 48 },
      ]),
    );
    expect(await screen.findByText(MESSAGES.adminSaved)).toBeInTheDocument();
  }, 15_000);

  it('turns the rule back on at 2 and refuses out-of-range numbers before sending', async () => {
    const patches = serveSettings({ approval_after_incidents: null });
    renderWithProviders(<SettingsPage />);
    const rule = await screen.findByRole('switch', { name: /^無断欠席・直前キャンセルが多いお客様/ }, LAZY);
    expect(rule).not.toBeChecked();
    expect(screen.getByLabelText(/承認制にする回数/)).toBeDisabled();
    await userEvent.click(rule);
    const threshold = screen.getByLabelText(/承認制にする回数/);
    expect(threshold).toHaveValue('2');
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '11');
    const hours = screen.getByLabelText(/直前キャンセルとみなす時間/);
    await userEvent.clear(hours);
    await userEvent.type(hours, '169');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText(MESSAGES.approvalAfterIncidentsRange)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.lateCancelHoursRange)).toBeInTheDocument();
    expect(patches).toEqual([]);

    await userEvent.clear(threshold);
    await userEvent.type(threshold, '3');
    await userEvent.clear(hours);
    await userEvent.type(hours, '12');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() => expect(patches).toEqual([{ approval_after_incidents: 3, late_cancel_hours: 12 }]));
  }, 15_000);
});
