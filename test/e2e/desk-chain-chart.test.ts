// The option chain and the chart end to end, in Chromium against the embedded paper gateway: the
// chain lists NIFTY strikes around the spot with the at-the-money row marked, and a price click
// loads the ticket without any order reaching the book; the chart draws candles on its canvas,
// reloads its bars on an interval switch, marks a fill and draws a working order's price line.
// Screenshots at 1280×720 (and 420 px) under test-results/.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, TickerResponse } from '../../src-main/contract/index.js';
import {
  SHOTS,
  WIDE,
  invoke,
  ltpOf,
  openDesk,
  priceAway,
  readAsPressed,
  type Desk,
} from '../support/desk-harness.js';

// The page's globals, as seen by functions page.evaluate runs there (this file has no DOM types).
interface PageCanvas {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}
declare const document: {
  activeElement: { id: string; textContent: string | null } | null;
  documentElement: { dataset: Record<string, string | undefined> };
  querySelector<T>(selector: string): T | null;
  querySelectorAll<T>(selector: string): Iterable<T>;
};

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-chain-chart');
  page = desk.page;
});

afterAll(async () => {
  await desk?.stop();
});

const focusTab = (name: string): Locator => page.getByRole('tab', { name, exact: true });
const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });

/** The canvas pixels of the chart: how many are drawn in the candles' and the buy marker's colours. */
async function canvasColours(): Promise<{ candles: number; buy: number; width: number }> {
  return page.evaluate(() => {
    const near = (d: Uint8ClampedArray, i: number, r: number, g: number, b: number) =>
      Math.abs(d[i]! - r) < 24 && Math.abs(d[i + 1]! - g) < 24 && Math.abs(d[i + 2]! - b) < 24;
    let candles = 0;
    let buy = 0;
    let width = 0;
    for (const c of document.querySelectorAll<PageCanvas>('.canvas canvas')) {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) continue;
      width = Math.max(width, c.width);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3] === 0) continue;
        if (near(d, i, 0x22, 0xc5, 0x5e) || near(d, i, 0xf0, 0x52, 0x52)) candles++;
        else if (near(d, i, 0x3b, 0x82, 0xf6)) buy++;
      }
    }
    return { candles, buy, width };
  });
}

/** axe (WCAG 2.x A/AA, best practice) over one pane: its serious and critical violations, in words. */
async function axeProblems(selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe('option chain', () => {
  it('lists strikes around the spot with the ATM marked, and a price click fills the ticket without sending', async () => {
    const ordersBefore = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    await focusTab('Chain').click();
    const grid = page.getByRole('grid', { name: /option chain/ });
    await grid.waitFor({ timeout: 20_000 });
    // ±10 strikes: 21 rows, the money in the middle, with a spot quote from the index.
    const rows = grid.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(21);
    const atm = grid.locator('tbody tr.atm');
    await expect.poll(() => atm.count(), { timeout: 10_000 }).toBe(1);
    await expect(atm.getAttribute('aria-current')).resolves.toBe('true');
    await expect(atm.locator('th').textContent()).resolves.toMatch(/ATM/);
    await expect(rows.nth(10).getAttribute('class')).resolves.toMatch(/atm/);
    // The rows and an ATM mark (the picker's) stand before the first quotes: wait for the spot.
    await expect.poll(() => page.locator('.spot strong').count(), { timeout: 10_000 }).toBe(1);
    // Spot and ATM strike read in one go: the spot moves, and the ATM mark with it.
    const [spotText, atmText] = await page.evaluate<[string, string]>(`[
      document.querySelector('.spot strong')?.textContent ?? '',
      document.querySelector('tbody tr.atm th')?.textContent ?? '',
    ]`);
    const spot = Number(spotText.replace(/,/g, ''));
    const strike = Number(atmText.replace(/ATM/, '').trim());
    const step = Math.abs(Number(((await rows.nth(11).locator('th').textContent()) ?? '').trim()) - strike);
    expect(spot).toBeGreaterThan(0);
    // The ATM strike is the listed one nearest the spot.
    expect(Math.abs(strike - spot)).toBeLessThanOrEqual(step / 2);
    // Quotes landed: the ATM call's LTP is a price, not a dash, its change % beneath it.
    await expect
      .poll(() => atm.locator('td.ltp button .p').first().textContent(), { timeout: 10_000 })
      .toMatch(/^\d[\d,]*\.\d{2}$/);
    await expect(atm.locator('td.ltp button .chg').first().textContent()).resolves.toMatch(
      /^[+-]?\d+\.\d{2}%$/,
    );
    // Live: the quote watch moves the prices without a reload.
    const prices = () => grid.locator('td.ltp button').allTextContents();
    const first = (await prices()).join('|');
    await expect.poll(async () => (await prices()).join('|'), { timeout: 20_000 }).not.toBe(first);
    await page.screenshot({ path: join(SHOTS, 'desk-chain-1280.png') });
    expect(await axeProblems('.chain')).toEqual([]);

    // The ATM call's ask: a BUY of that contract at the ask, in the ticket, not sent. The row is held
    // by its strike: the spot moves, and the ATM mark can move to the next strike meanwhile (it did
    // once: 25750 read, 25800 clicked).
    const strikeRow = rows.filter({ has: page.locator('th').getByText(String(strike)) });
    await expect(strikeRow.count()).resolves.toBe(1);
    const ask = strikeRow.locator('td.ask button').first();
    // The chain is live: a price is read as the click (or Enter) lands on it, not a moment before (it
    // moved in between once: 153.95 read, 152.70 clicked).
    const askText = await readAsPressed(page, 'click', 'text', () => ask.click());
    expect(askText).toMatch(/^\d+\.\d{2}$/);
    const symbolPattern = new RegExp(`^NIFTY \\d{2} [A-Z]{3} ${strike} CE$`);
    await expect
      .poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 })
      .toMatch(symbolPattern);
    await expect.poll(() => page.getByLabel('Price', { exact: true }).inputValue()).toBe(askText);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ticket-price');
    await page.screenshot({ path: join(SHOTS, 'desk-chain-loaded-1280.png') });

    // The put's bid by keyboard: arrows to it, Enter → a SELL of the put at its bid.
    await ask.focus();
    await page.keyboard.press('ArrowRight'); // put bid
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toMatch(/^chain-cell-\d+-3$/);
    const bidText = await readAsPressed(page, 'keydown', 'text', () => page.keyboard.press('Enter'));
    expect(bidText).toMatch(/^\d+\.\d{2}$/);
    await expect
      .poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 })
      .toMatch(new RegExp(`^NIFTY \\d{2} [A-Z]{3} ${strike} PE$`));
    await expect.poll(() => page.getByLabel('Price', { exact: true }).inputValue()).toBe(bidText);
    await expect(ticket().getByRole('radio', { name: /^SELL/ }).isChecked()).resolves.toBe(true);

    // Nothing was sent: the book holds what it held. Real time: a send may wait up to 1.5 s for the
    // margin (MARGIN_WAIT_AT_SEND_MS) before it reaches the book, and nothing says "none was sent".
    await page.waitForTimeout(1500);
    const ordersAfter = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    expect(ordersAfter).toBe(ordersBefore);
    expect(desk.problems).toEqual([]);
  });
});

describe('chart', () => {
  it('draws the ticket instrument’s candles, reloads on an interval switch, marks a fill and a working order', async () => {
    // The ticket on SBIN (the chart follows it).
    const ltp = await ltpOf(page, 'SBIN');
    await page.locator('#ticket-search').fill('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 })
      .toBe('SBIN');

    await focusTab('Chart').click();
    const canvas = page.locator('.canvas');
    await expect.poll(() => canvas.getAttribute('data-bars'), { timeout: 20_000 }).not.toBe('0');
    await expect(canvas.getAttribute('data-interval')).resolves.toBe('1m');
    const oneMinuteBars = Number(await canvas.getAttribute('data-bars'));
    // The last day of 1-minute bars, as many as the gateway has for it: today round the clock so far
    // and yesterday's session (the count depends on the hour: 376 just after IST midnight, 1,440 late
    // in the day), so it is compared with the gateway's own answer for the same day back.
    const direct = await invoke<TickerResponse>(page, 'market.ticker', {
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: '1m',
      from: String(Date.now() - 86_400_000),
    });
    expect(direct.data.length).toBeGreaterThan(0);
    expect(Math.abs(oneMinuteBars - direct.data.length)).toBeLessThanOrEqual(2);
    expect(oneMinuteBars).toBeLessThanOrEqual(1441);
    await expect.poll(async () => (await canvasColours()).candles, { timeout: 10_000 }).toBeGreaterThan(500);
    const legend = page.getByTestId('chart-legend');
    await expect(legend.textContent()).resolves.toMatch(/IST.*O.*H.*L.*C.*Vol/);

    // 5m: a new load (a week of 5-minute bars), drawn again. Past days have bars only inside their
    // 09:15-15:30 session (75 a day) and today trades round the clock, so a week holds more than one
    // day's worth of 5-minute bars (1m bars / 5) but far fewer than a week round the clock.
    await page.getByRole('button', { name: '5m bars', exact: true }).click();
    await expect.poll(() => canvas.getAttribute('data-interval')).toBe('5m');
    await expect
      .poll(async () => Number(await canvas.getAttribute('data-bars')), { timeout: 20_000 })
      .toBeGreaterThan(Math.ceil(oneMinuteBars / 5) + 75);
    await expect(
      page.getByRole('button', { name: '5m bars', exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    // Back to 1m through the list of every interval the gateway offers: a day of 1-minute bars again
    // (a minute may have turned meanwhile).
    await page.getByRole('combobox', { name: 'Interval' }).selectOption('1m');
    await expect.poll(() => canvas.getAttribute('data-interval')).toBe('1m');
    await expect
      .poll(
        async () => {
          const n = Number(await canvas.getAttribute('data-bars'));
          return n >= oneMinuteBars - 1 && n <= 1441;
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    // The crosshair legend follows the pointer.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => legend.textContent()).toMatch(/\d{2}:\d{2} IST/);
    await page.mouse.move(0, 0);

    const before = await canvasColours();
    // A fill: a market buy of SBIN, through the bridge.
    await invoke(page, 'orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 3,
      pricetype: 'MARKET',
      product: 'MIS',
    });
    const fills = page.getByTestId('chart-fills').locator('li');
    await expect.poll(() => fills.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect(fills.first().textContent()).resolves.toMatch(/^B 3 @ [\d,]+\.\d{2} at .*IST$/);
    await expect
      .poll(async () => (await canvasColours()).buy, { timeout: 5_000 })
      .toBeGreaterThan(before.buy);

    // A working order: a limit buy 3 % under the market, drawn as a price line while it rests.
    await invoke(page, 'orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 2,
      pricetype: 'LIMIT',
      price: priceAway(ltp, -3),
      product: 'MIS',
    });
    const lines = page.getByTestId('chart-lines').locator('li');
    await expect.poll(() => lines.count(), { timeout: 20_000 }).toBe(1);
    await expect(lines.first().textContent()).resolves.toMatch(/^BUY 2 LMT at /);
    await page.screenshot({ path: join(SHOTS, 'desk-chart-1280.png') });
    expect(await axeProblems('.chart')).toEqual([]);
    expect(desk.problems).toEqual([]);
  });

  it('resizes with its container, and is disposed when its tab closes and drawn again when it opens', async () => {
    const width = (await canvasColours()).width;
    await page.setViewportSize({ width: 1600, height: 900 });
    await expect.poll(async () => (await canvasColours()).width, { timeout: 5_000 }).toBeGreaterThan(width);
    await page.setViewportSize(WIDE);
    await expect.poll(async () => (await canvasColours()).width, { timeout: 5_000 }).toBe(width);

    await focusTab('Depth').click();
    await expect.poll(() => page.locator('.canvas canvas').count()).toBe(0);
    await focusTab('Chart').click();
    await expect
      .poll(() => page.locator('.canvas').getAttribute('data-bars'), { timeout: 20_000 })
      .not.toBe('0');
    await expect.poll(async () => (await canvasColours()).candles, { timeout: 10_000 }).toBeGreaterThan(500);
    expect(desk.problems).toEqual([]);
  });

  it('follows the light theme (canvas and chain)', async () => {
    await invoke(page, 'settings.update', { shell: { theme: 'light' } });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    // The canvas repaints on a white panel: the commonest colour over the whole pane (its background;
    // grid lines and candles cross any one pixel or row) is light. The pointer leaves the
    // chart first, so no crosshair line is drawn.
    await page.mouse.move(0, 0);
    await expect
      .poll(() =>
        page.evaluate(() => {
          const c = document.querySelector<PageCanvas>('.canvas canvas');
          const ctx = c?.getContext('2d');
          if (!c || !ctx || c.width === 0) return 0;
          const d = ctx.getImageData(0, 0, c.width, c.height).data;
          const counts = new Map<number, number>();
          for (let i = 0; i < d.length; i += 4) {
            const sum = d[i]! + d[i + 1]! + d[i + 2]!;
            counts.set(sum, (counts.get(sum) ?? 0) + 1);
          }
          return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
        }),
      )
      .toBeGreaterThan(700);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SHOTS, 'desk-chart-light-1280.png') });
    expect(await axeProblems('.chart')).toEqual([]);
    await focusTab('Chain').click();
    await page
      .getByRole('grid', { name: /option chain/ })
      .locator('tbody tr.atm')
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SHOTS, 'desk-chain-light-1280.png') });
    expect(await axeProblems('.chain')).toEqual([]);
    await invoke(page, 'settings.update', { shell: { theme: 'dark' } });
    expect(desk.problems).toEqual([]);
  });
});
