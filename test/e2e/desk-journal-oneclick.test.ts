// The Journal pane and one-click mode end to end, in Chromium through browser mode, against a paper
// gateway whose API key the test knows (a standalone `npm run paper` child on a live profile), so it
// can check the key never reaches the page: an order placed from the ticket shows in the journal with
// its request (no key anywhere on the page or in any frame), a search by order id finds it, and the
// CSV export writes a file with the rows. Armed, one F1 press is exactly one order in the gateway's
// order book; a held F1's repeats add none; a press within the cooldown is refused in words; after
// the cooldown another press makes two. Screenshots under test-results/.
import { readFileSync, rmSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesList } from '../../src-main/contract/index.js';
import {
  invoke,
  openDesk,
  startPaper,
  tempDir,
  type Desk,
  type PaperProcess,
} from '../support/desk-harness.js';
import { PLACED_LINE } from '../support/ticket-lines.js';

const KEY = 'e2e0journal0key0' + 'f00dcafe'.repeat(6);
const COOLDOWN_MS = 1500;

let desk: Desk;
let page: Page;
let gateway: PaperProcess;
let paperDir: string;

/**
 * The gateway's own order book, asked over HTTP with the key (not through OrderDesk). The desk polls
 * with the same key, so the gateway's rate limit may refuse a read: that read is retried, never
 * taken for an empty book.
 */
async function gatewayOrders(): Promise<{ orderid: string; symbol: string; action: string }[]> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${gateway.url}/api/v1/orderbook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apikey: KEY }),
    });
    const body = (await res.json()) as {
      status?: string;
      message?: string;
      data?: { orders?: { orderid: string; symbol: string; action: string }[] };
    };
    if (res.ok && body.status === 'success' && Array.isArray(body.data?.orders)) return body.data.orders;
    if (attempt >= 20) throw new Error(`orderbook: HTTP ${res.status} ${body.message ?? ''}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

beforeAll(async () => {
  paperDir = tempDir('desk-journal-paper');
  gateway = await startPaper(paperDir, KEY);
  desk = await openDesk('desk-journal');
  page = desk.page;
  const list = await invoke<ProfilesList>(page, 'profiles.add', {
    name: 'Paper with a known key',
    baseUrl: gateway.url,
  });
  const profile = list.profiles.find((p) => p.baseUrl === gateway.url);
  if (!profile) throw new Error('the profile was not added');
  await invoke(page, 'apiKey.set', { key: KEY, profileId: profile.id });
  await invoke(page, 'profiles.switch', { id: profile.id });
  // Enter sends at once (the confirmation step has its own tests); one-click's caps allow SBIN × 1.
  await invoke(page, 'settings.update', {
    confirmations: { place: false },
    oneClick: { maxLots: 5, maxValue: 100_000, cooldownMs: COOLDOWN_MS },
  });
  // A paper gateway run on its own reports analyze mode: the desk shows it as a sandbox, not LIVE.
  await page.locator('[data-testid="status-bar"][data-mode="SANDBOX"]').waitFor({ timeout: 20_000 });
  await page
    .getByTestId('connection')
    .and(page.locator('[data-state="connected"]'))
    .waitFor({ timeout: 20_000 });
}, 90_000);

afterAll(async () => {
  await desk?.stop();
  await gateway?.stop();
  if (paperDir) rmSync(paperDir, { recursive: true, force: true });
});

/** axe (WCAG 2.x A/AA, best practice) over one of this file's components only: serious or critical. */
async function axeOf(selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });

/** `/`, the symbol, Enter: the ticket holds the instrument; then the quantity and MARKET. */
async function ticketFor(symbol: string, quantity: string): Promise<void> {
  await page.locator('body').press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type(symbol.toLowerCase());
  await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await expect.poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 }).toBe(symbol);
  await page.getByLabel('Qty', { exact: true }).fill(quantity);
  await ticket().getByRole('radio', { name: 'Market', exact: true }).check();
}

let placedId = '';

describe('the journal', { timeout: 60_000 }, () => {
  it("shows a placed order's request, and the API key is nowhere on the page", async () => {
    await ticketFor('SBIN', '3');
    await page.getByLabel('Qty', { exact: true }).focus();
    await page.keyboard.press('Enter');
    const placed = ticket().getByText(PLACED_LINE);
    await placed.waitFor({ timeout: 10_000 });
    placedId = /order (\S+)/.exec((await placed.textContent()) ?? '')?.[1] ?? '';
    expect(placedId).not.toBe('');

    await page.getByRole('tab', { name: 'Journal' }).click();
    const pane = page.getByTestId('journal-pane');
    const row = pane.locator('[data-row-key]').filter({ hasText: placedId });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toMatch(/Place\s*BUY\s*SBIN/);
    await row.getByRole('button').first().click();
    const request = JSON.parse((await page.getByTestId('journal-request').textContent()) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(request).toMatchObject({
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 3,
      pricetype: 'MARKET',
    });
    expect(request).not.toHaveProperty('apikey');
    expect(await page.getByTestId('journal-response').textContent()).toContain(placedId);
    await page.screenshot({ path: 'test-results/desk-journal-detail-1280.png' });

    expect(await page.content()).not.toContain(KEY);
    expect(desk.framesToPage.some((f) => f.includes(KEY))).toBe(false);
    await page.getByRole('button', { name: /Back/ }).click();
  });

  it('a search by order id finds the order, and the CSV export writes its rows', async () => {
    const pane = page.getByTestId('journal-pane');
    await pane.getByLabel('Order ID').fill(placedId);
    await pane.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => pane.locator('[data-row-key]').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('journal-status').textContent()).toMatch(/^\s*1 entry/);

    await pane.getByRole('button', { name: 'Export CSV' }).click();
    const report = page.getByTestId('journal-export');
    await expect.poll(() => report.textContent(), { timeout: 10_000 }).toMatch(/^Exported 1 row to /);
    const path = /^Exported 1 row to (.+)$/.exec((await report.textContent()) ?? '')?.[1] ?? '';
    expect(path.startsWith(desk.dataDir)).toBe(true);
    const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^time_ist,id,profile,operation,order_ids/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(placedId);
    expect(lines[1]).toContain('placeorder');
    expect(readFileSync(path, 'utf8')).not.toContain(KEY);
    expect(await axeOf('[data-testid="journal-pane"]')).toEqual([]);
    await desk.shots('journal');
  });
});

describe('one-click mode', { timeout: 60_000 }, () => {
  it('armed: one F1 press is one order; held, its repeats add none; the cooldown refuses; then two', async () => {
    await ticketFor('SBIN', '1');
    const before = (await gatewayOrders()).length;
    const toggle = page.getByRole('switch', { name: 'One-click' });
    expect(await toggle.isChecked()).toBe(false);
    // By keyboard, as a trader at the keys would: focus the switch, Space.
    await toggle.focus();
    await page.keyboard.press('Space');
    await page.getByTestId('one-click-armed').waitFor();
    // Focus back on the page itself, off the switch and out of the fields.
    await page.locator('body').press('Escape');

    // The first keydown of a hold is the press; every later one is the key's auto-repeat.
    await page.keyboard.down('F1');
    await expect.poll(async () => (await gatewayOrders()).length, { timeout: 10_000 }).toBe(before + 1);
    // The gateway has the order before the desk has its answer: wait for "Sent", as a held key's
    // repeats start only ~0.5 s into the hold, else the answer's notice replaces the held one.
    const notice = page.getByTestId('one-click-notice');
    await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toMatch(/^Sent BUY 1 SBIN/);
    for (let i = 0; i < 8; i++) await page.keyboard.down('F1');
    await page.keyboard.up('F1');
    expect(await notice.textContent()).toContain('Held key ignored');
    // Real time: an order a repeat let through would reach the gateway within this.
    await page.waitForTimeout(500);
    expect((await gatewayOrders()).length).toBe(before + 1);

    // A fresh press inside the cooldown: refused, and said.
    await page.keyboard.press('F1');
    await expect.poll(() => notice.textContent()).toMatch(/Cooldown: not sent, next order in \d\.\d s/);
    expect((await gatewayOrders()).length).toBe(before + 1);
    await page.screenshot({ path: 'test-results/desk-one-click-armed-1280.png' });
    expect(await axeOf('[data-testid="one-click"]')).toEqual([]);
    // The light theme: the armed strip's notice keeps its contrast (its dark-theme pastels were
    // 1.5:1 on the light tint), the same refusal on screen.
    await invoke(page, 'settings.update', { shell: { theme: 'light' } });
    await expect
      .poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.theme'))
      .toBe('light');
    expect(await notice.getAttribute('class')).toContain('refused');
    expect(await axeOf('[data-testid="one-click"]')).toEqual([]);
    await page.screenshot({ path: 'test-results/desk-one-click-armed-light-1280.png' });
    await invoke(page, 'settings.update', { shell: { theme: 'dark' } });
    await expect
      .poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.theme'))
      .toBe('dark');

    // Real time: the one-click cooldown runs on the desk's clock and nothing shows when it ends.
    await page.waitForTimeout(COOLDOWN_MS + 100);
    await page.keyboard.press('F1');
    await expect.poll(async () => (await gatewayOrders()).length, { timeout: 10_000 }).toBe(before + 2);
    const orders = await gatewayOrders();
    expect(orders.slice(-2).every((o) => o.symbol === 'SBIN' && o.action === 'BUY')).toBe(true);
    await desk.shots('one-click-armed');
  });

  it('the scalping preset: ↑ buys the at-the-money NIFTY call, one lot, from a NIFTY ticket', async () => {
    await invoke(page, 'settings.update', { hotkeys: { preset: 'scalping' } });
    await ticketFor('NIFTY', '1');
    const spot = (
      await invoke<{ data: { ltp: number } }>(page, 'market.quotes', {
        symbol: 'NIFTY',
        exchange: 'NSE_INDEX',
      })
    ).data.ltp;
    // Real time: the one-click cooldown runs on the desk's clock and nothing shows when it ends.
    await page.waitForTimeout(COOLDOWN_MS + 100);
    const before = (await gatewayOrders()).length;
    // Out of the ticket's fields (there ↑ steps the quantity): focus on the page itself.
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await gatewayOrders()).length, { timeout: 15_000 }).toBe(before + 1);
    const order = (await gatewayOrders()).find((o) => /^NIFTY\d{2}[A-Z]{3}\d{2}\d+CE$/.test(o.symbol));
    expect(order?.action).toBe('BUY');
    const strike = Number(/(\d+)CE$/.exec(order?.symbol.replace(/^NIFTY\d{2}[A-Z]{3}\d{2}/, '') ?? '')?.[1]);
    // NIFTY strikes are 50 apart: the nearest is within half a step of the spot, and the spot may
    // move by a few points between the quote read here and the press.
    expect(Math.abs(strike - spot)).toBeLessThanOrEqual(50);
    expect(await page.getByTestId('one-click-notice').textContent()).toMatch(
      /^Sent BUY \d+ NIFTY \d+ [A-Z]{3} \d+ CE at market/,
    );
    await page.screenshot({ path: 'test-results/desk-one-click-atm-1280.png' });
    await invoke(page, 'settings.update', { hotkeys: { preset: 'nest' } });
  });

  it('is remembered: after a reload the switch is still armed; disarmed, F1 sends nothing', async () => {
    await page.reload();
    await page.getByTestId('one-click-armed').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('switch', { name: 'One-click' }).isChecked()).toBe(true);
    await page.getByRole('switch', { name: 'One-click' }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('one-click-armed').count()).toBe(0);
    const before = (await gatewayOrders()).length;
    await page.locator('body').press('Escape');
    await page.keyboard.press('F1');
    // Real time: an order F1 sent would reach the gateway within this; nothing says "none sent".
    await page.waitForTimeout(800);
    expect((await gatewayOrders()).length).toBe(before);
    expect(desk.problems).toEqual([]);
  });
});
