import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshotPath } from '../../helpers/browser';
import { expectNoAxeViolations } from '../helpers/admin-e2e';

/** The phone size of issue 5's screenshots. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** Page object of the customer screens: the steps a customer takes, by the labels a customer reads. */
export class CustomerApp {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  goto(path: string) {
    return this.page.goto(`${this.baseUrl}${path}`);
  }

  async path(): Promise<string> {
    return new URL(this.page.url()).pathname;
  }

  async waitForPath(path: string | RegExp, timeout = 30_000) {
    await this.page.waitForURL((url) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)), {
      timeout,
    });
  }

  /** axe-core over the whole page: issue 5 allows no violations on any customer page. */
  async expectAccessible(name: string) {
    await expectNoAxeViolations(this.page, name);
  }

  async screenshot(name: string) {
    await this.page.screenshot({ path: screenshotPath(`customer-${name}`) });
  }

  /** Both at once: every documented screen is also checked. */
  async record(name: string) {
    await this.screenshot(name);
    await this.expectAccessible(name);
  }

  heading(name: string | RegExp, level?: number) {
    return this.page.getByRole('heading', { name, ...(level ? { level } : {}) });
  }

  button(name: string | RegExp) {
    return this.page.getByRole('button', { name });
  }

  /** The login page's green button, then the LINE emulator's page: a new test user or an existing one. */
  async loginWithLineEmulator(lineUser: string, options: { existing?: boolean } = {}) {
    await this.button('LINEでログインして予約する').click();
    await this.page.waitForURL((url) => url.pathname === '/dev/line/authorize');
    if (options.existing) {
      await this.button(`${lineUser} としてログイン`).click();
    } else {
      await this.page.getByLabel('新しいテストユーザーの名前').fill(lineUser);
      await this.button('作成してログイン').click();
    }
  }

  /**
   * Step 2: the first day the calendar lets one pick that is at least `minDaysAhead` days away (this month, else
   * the next), so that the booking is still inside the online cancellation deadline.
   */
  async chooseBookableDay(minDaysAhead = 3) {
    const earliest = new Date();
    earliest.setHours(0, 0, 0, 0);
    earliest.setDate(earliest.getDate() + minDaysAhead);
    const monthLoaded = () =>
      this.page.getByText(/^(枠で囲まれた日がご予約いただける日です。|この月に予約可能な日はありません。)/).waitFor();
    for (let month = 0; month < 2; month += 1) {
      await monthLoaded();
      const labels = await this.page
        .getByRole('button', { name: /（予約できます）$/ })
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
      const label = labels.find((text) => {
        const [, y, m, d] = /^(\d+)年(\d+)月(\d+)日/.exec(text) ?? [];
        return y !== undefined && new Date(Number(y), Number(m) - 1, Number(d)) >= earliest;
      });
      if (label) {
        await this.page.getByRole('button', { name: label, exact: true }).click();
        return label;
      }
      await this.button('次の月').click();
      await this.page.getByText('予約できる日を読み込み中…').waitFor({ state: 'detached' });
    }
    throw new Error(`no bookable day ${minDaysAhead} or more days ahead in this month or the next`);
  }

  /** The customer tokens in this page's localStorage: [access_token, refresh_token]. */
  storedTokens() {
    return this.page.evaluate<[string | null, string | null]>(
      "[localStorage.getItem('access_token'), localStorage.getItem('refresh_token')]",
    );
  }

  /** Usable at 360 px (issue 5): nothing sticks out sideways. */
  async expectNoHorizontalOverflow(name: string) {
    // A string: this file is type-checked without DOM types (tsconfig.server.json).
    const overflow = await this.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  }
}
