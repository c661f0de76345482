// The desk end to end over damaged files at rest: a first run places a dozen paper orders, then random
// bytes go over a page in the middle of the journal and of the paper ledger. The next start shows the
// journal salvaged (saved of total, the damaged file kept) and the paper account unavailable (its
// ledger named); "Reset the paper account…" asks, resets, says where the damaged ledger is kept, and
// the watchlist, refused its quotes while paper was down, shows prices again with no error left, and
// an order goes through on the fresh paper account. Screenshots at 1280×720 and 420 px wide.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { OrdersView } from '../../src-main/contract/index.js';
import { damageMiddlePage } from '../support/damage.js';
import { sbinMarketBuy as order } from '../support/orders.js';
import { invoke, renderedFrames, tempDir, WIDE, NARROW } from '../support/desk-harness.js';
import { SHOTS, startHostAndBrowser, type WebProcess } from '../support/web-process.js';

const dataDir = tempDir('desk-storage');
let running: { web: WebProcess; browser: Browser } | undefined;
const ORDERS = 12;

afterAll(async () => {
  await stopDesk();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openDesk(): Promise<Page> {
  const [web, browser] = await startHostAndBrowser(dataDir);
  running = { web, browser };
  const page = await (await browser.newContext({ viewport: WIDE })).newPage();
  await page.goto(web.url);
  await page.getByTestId('profile').waitFor({ timeout: 20_000 });
  return page;
}

async function stopDesk(): Promise<void> {
  await running?.browser.close().catch(() => undefined);
  await running?.web.stop();
  running = undefined;
}

async function shots(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `desk-${name}-1280.png`) });
  await page.setViewportSize(NARROW);
  await renderedFrames(page);
  await page.screenshot({ path: join(SHOTS, `desk-${name}-420.png`) });
  await page.setViewportSize(WIDE);
}

describe('damaged files at rest', { timeout: 120_000 }, () => {
  it('journal salvaged and paper unavailable at start; reset the paper account, then an order goes through', async () => {
    let page = await openDesk();
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    for (let i = 1; i <= ORDERS; i++) {
      await invoke(page, 'orders.place', order(i));
    }
    await stopDesk();

    const ledger = join(dataDir, 'paper', 'paper.db');
    damageMiddlePage(join(dataDir, 'journal.db'), 7);
    damageMiddlePage(ledger, 11);

    page = await openDesk();
    const journal = page.getByTestId('banner-journal');
    await journal.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('banner-journal-words').textContent()).toMatch(
      new RegExp(
        `^The journal was damaged: \\d+ of ${ORDERS} entries saved.*; the damaged file is kept at .*journal\\.db\\.corrupt-\\d+$`,
      ),
    );
    const paper = page.getByTestId('banner-paper');
    await paper.waitFor({ timeout: 20_000 });
    expect(await paper.textContent()).toContain(`Its ledger ${ledger} could not be opened.`);
    expect(await page.getByTestId('connection').textContent()).toContain('paper unavailable');
    // The watchlist's quote watch is refused (the paper gateway cannot be had): the banner above
    // says so once, the list does not repeat it.
    const list = page.locator('#watchlist-panel');
    await expect.poll(() => list.locator('td.ltp').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await list.locator('.note.bad, tr.err').count()).toBe(0);
    await shots(page, 'storage-damaged');

    // By keyboard: Tab to the reset, Enter, the dialog's confirm button.
    const reset = page.getByRole('button', { name: 'Reset the paper account…' });
    await reset.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Reset the paper account?' });
    await dialog.waitFor();
    await shots(page, 'storage-reset-confirm');
    await dialog.getByRole('button', { name: 'Reset the paper account' }).click();
    const outcome = page.getByTestId('paper-reset-outcome');
    await outcome.waitFor({ timeout: 20_000 });
    const said = (await outcome.textContent()) ?? '';
    expect(said).toMatch(
      /^The paper account was reset and starts afresh; the damaged ledger is kept at .*paper\.db\.corrupt-\d+$/,
    );
    expect(existsSync(said.replace(/^.* kept at /, ''))).toBe(true);
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    // The refused watch is asked again now that paper answers: every row priced, no error left.
    await expect
      .poll(async () => (await list.locator('td.ltp').allTextContents()).every((t) => /\d/.test(t)), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await list.locator('.note.bad, tr.err').count()).toBe(0);
    await shots(page, 'storage-reset-done');

    await invoke(page, 'orders.place', order(ORDERS + 1));
    await expect
      .poll(async () => (await invoke<OrdersView>(page, 'books.orders')).orders.length, { timeout: 10_000 })
      .toBe(1);
  });
});
