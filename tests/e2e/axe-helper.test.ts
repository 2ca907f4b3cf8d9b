import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { expectNoAxeViolations } from './helpers/admin-e2e';

/** The rules an axe check refused, or none when it passed. */
async function refusedRules(check: Promise<void>): Promise<string[]> {
  return check.then(
    () => [],
    (error: { actual?: { rule: string }[] }) => (error.actual ?? []).map((violation) => violation.rule).sort(),
  );
}

const PAGE = (body: string) =>
  `<html lang="ja"><head><title>確認</title></head><body><main>${body}</main></body></html>`;

// Every browser suite's accessibility check goes through expectNoAxeViolations (axe loaded once per document): it must
// still see what is wrong, only in the dialog when asked, and again after the document is replaced.
describe('the axe check of the browser tests', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(() => browser?.close());

  it('refuses an image without a text and a button without a name; in a dialog, only what the dialog holds', async () => {
    await page.setContent(
      PAGE('<h1>予約</h1><img src="data:,"><div role="dialog" aria-label="確認"><button></button></div>'),
    );
    expect(await refusedRules(expectNoAxeViolations(page, 'page'))).toEqual(['button-name', 'image-alt']);
    expect(await refusedRules(expectNoAxeViolations(page, 'dialog', { dialog: true }))).toEqual(['button-name']);
  });

  it('passes a page with nothing wrong, and checks a new document with axe loaded again', async () => {
    await page.setContent(PAGE('<h1>予約</h1><button>予約する</button>'));
    expect(await refusedRules(expectNoAxeViolations(page, 'clean'))).toEqual([]);
    await page.setContent(PAGE('<h1>予約</h1><img src="data:,">'));
    expect(await refusedRules(expectNoAxeViolations(page, 'replaced'))).toEqual(['image-alt']);
  });
});
