import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { baseCustomerHandlers, bookingHandlers, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';

/**
 * The steps a customer takes through /reserve, shared by the wizard's test files: a signed-in customer, three
 * menus, bookable days in May 2030 and "today" 10 May 2030.
 */

// The wizard loads chunks and data step by step; a busy CI machine needs more than the default second.
configure({ asyncUtilTimeout: 5000 });

export const BOOKABLE = ['2030-05-14', '2030-05-15', '2030-05-20'];
export const SLOTS = { '2030-05-14': [], '2030-05-15': ['10:00', '10:30', '14:00'], '2030-05-20': ['11:00'] };

/** Call at the top of a test file: only Date is faked, timers and promises run normally. */
export function fixWizardClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2030, 4, 10, 10, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

export function setup() {
  signInCustomer();
  server.use(...baseCustomerHandlers(), ...bookingHandlers({ bookable: BOOKABLE, slots: SLOTS }));
}

export const user = () => userEvent.setup();

/** Picks a menu and lands on its options and 指名 (nothing chosen yet: 指名なし). */
export async function pickService(name = 'グラデーションジェル 1時間半 ¥6,600') {
  await user().click(await screen.findByRole('button', { name }));
  await screen.findByRole('heading', { level: 2, name: 'オプション・指名を選ぶ' });
  // The nailists load with the step; wait for them so that a test's later choice finds its radio.
  await screen.findByRole('radio', { name: '指名なし' });
}

/** On the options step: goes on to the calendar. */
export async function confirmMenu() {
  await user().click(screen.getByRole('button', { name: 'この内容で日付を選ぶ' }));
  await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
}

/** Picks a menu without options or 指名 and goes on to the calendar. */
export async function chooseService(name = 'グラデーションジェル 1時間半 ¥6,600') {
  await pickService(name);
  await confirmMenu();
}

export async function chooseDay(label: string) {
  const day = await screen.findByRole('button', { name: label });
  await waitFor(() => expect(day).toBeEnabled());
  await user().click(day);
}

export async function reachDetails() {
  renderRoute('/reserve');
  await chooseService();
  await chooseDay('2030年5月15日（予約できます）');
  await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
  await user().click(await screen.findByRole('button', { name: '10:30' }));
  await screen.findByRole('heading', { level: 2, name: 'お客様情報の入力' });
  // The step's form is a lazy chunk: the first test of a file waits for it to arrive.
  await screen.findByRole('button', { name: '予約内容を確認する' });
}
