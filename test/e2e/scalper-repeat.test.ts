// Repeat and defaults as a scalper uses them, in Chromium through browser mode against the embedded
// paper gateway: F7 and F10 set MARKET and MIS on SBIN and another equity keeps them while a NIFTY
// future starts at its own segment's LIMIT + NRML; after an answer, F1, the quantity and Enter place
// the same order again; the repeat-last key asks and sends it a third time; Esc on its question sends
// nothing; sizing from a stop and a risk fills the quantity. Shots: scalper-defaults, -repeat, -sizing
// at 1280×720 and 420 px wide.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, SearchResponse, SymbolInfo } from '../../src-main/contract/index.js';
import {
  invoke,
  NARROW,
  nearestExpiry,
  openDesk,
  pickInstrument,
  renderedFrames,
  SHOTS,
  WIDE,
  type Desk,
} from '../support/desk-harness.js';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk('scalper-repeat');
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

const shot = (page: Page, name: string, width: 1280 | 420) =>
  page.screenshot({ path: join(SHOTS, `scalper-${name}-${width}.png`) });

async function sbinOrders(page: Page): Promise<OrdersView['orders']> {
  const view = await invoke<OrdersView>(page, 'books.orders');
  return view.orders.filter((o) => o.symbol === 'SBIN' && o.exchange === 'NSE');
}

const ticketOf = (page: Page) => page.getByRole('form', { name: 'Order ticket' });
const checked = (page: Page, name: string) =>
  ticketOf(page).getByRole('radio', { name, exact: true }).isChecked();
const choice = async (page: Page) => ({
  market: await checked(page, 'Market'),
  limit: await checked(page, 'Limit'),
  mis: await checked(page, 'MIS'),
  cnc: (await ticketOf(page).getByRole('radio', { name: 'CNC' }).count()) > 0 && (await checked(page, 'CNC')),
  nrml:
    (await ticketOf(page).getByRole('radio', { name: 'NRML' }).count()) > 0 && (await checked(page, 'NRML')),
});

/** The near NIFTY future's symbol, loaded by the `/` search. */
async function loadNiftyFuture(page: Page): Promise<SymbolInfo> {
  const found = await invoke<SearchResponse>(page, 'market.search', { query: 'NIFTY', exchange: 'NFO' });
  const fut = nearestExpiry(found.data.filter((r) => r.name === 'NIFTY' && r.instrumenttype === 'FUTIDX'));
  await pickInstrument(page, fut.symbol, /^NIFTY \d+ [A-Z]{3} FUT$/);
  return invoke<SymbolInfo>(page, 'market.symbol', { symbol: fut.symbol, exchange: 'NFO' });
}

/** Enter, then Enter on the confirmation once the arm window has passed. */
async function sendConfirmed(page: Page): Promise<void> {
  await page.keyboard.press('Enter');
  await page.getByRole('group', { name: 'Confirm the order' }).first().waitFor();
  // Real time: the desk ignores an Enter within CONFIRM_ARM_MS (300 ms) of the question opening.
  await page.waitForTimeout(350);
  await page.keyboard.press('Enter');
}

describe('repeat and defaults', () => {
  let firstPlacedAt = 0;

  it('F7 and F10 set MARKET + MIS on SBIN; another equity keeps them; a NIFTY future starts at LIMIT + NRML', async () => {
    const { page } = desk;
    await pickInstrument(page, 'SBIN');
    expect(await choice(page)).toMatchObject({ limit: true, cnc: true });
    await page.keyboard.press('F1');
    const qty = page.getByLabel('Qty', { exact: true });
    await qty.fill('5');
    await page.keyboard.press('F7');
    await page.keyboard.press('F10');
    expect(await choice(page)).toMatchObject({ market: true, mis: true });
    await ticketOf(page).getByText('MARKET · MIS: new equity symbols start so').waitFor();
    await sendConfirmed(page);
    await expect
      .poll(
        () =>
          ticketOf(page)
            .getByText(/order \d+/)
            .count(),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    firstPlacedAt = Date.now();
    await expect.poll(async () => (await sbinOrders(page)).length, { timeout: 10_000 }).toBe(1);
    expect((await sbinOrders(page))[0]).toMatchObject({
      action: 'BUY',
      quantity: 5,
      pricetype: 'MARKET',
      product: 'MIS',
    });

    await pickInstrument(page, 'RELIANCE');
    expect(await choice(page)).toMatchObject({ market: true, mis: true });
    await shot(page, 'defaults', 1280);
    await page.setViewportSize(NARROW);
    await renderedFrames(page);
    expect(await choice(page)).toMatchObject({ market: true, mis: true });
    await shot(page, 'defaults', 420);
    await page.setViewportSize(WIDE);
    await renderedFrames(page);

    await loadNiftyFuture(page);
    expect(await choice(page)).toMatchObject({ limit: true, nrml: true });
    // Saved across restarts with the desk's settings.
    const saved = await invoke<{ ticketDefaults: unknown }>(page, 'settings.get');
    expect(saved.ticketDefaults).toEqual({ equity: { priceType: 'MARKET', product: 'MIS' } });
  });

  it('after the answer, F1, the quantity and Enter place the same order again; the repeat key a third time', async () => {
    const { page } = desk;
    await pickInstrument(page, 'SBIN');
    expect(await choice(page)).toMatchObject({ market: true, mis: true });
    // Past the core's duplicate window (2 s) since the first: this is a new order, not a double press.
    await page.waitForTimeout(Math.max(0, 2100 - (Date.now() - firstPlacedAt)));
    await page.keyboard.press('F1');
    await page.getByLabel('Qty', { exact: true }).fill('5');
    await sendConfirmed(page);
    await expect.poll(async () => (await sbinOrders(page)).length, { timeout: 10_000 }).toBe(2);

    // The repeat key from another symbol: the question names the last order, Esc sends nothing.
    await pickInstrument(page, 'RELIANCE');
    await page.keyboard.press('Shift+F12');
    const repeat = page.getByRole('region', { name: 'Repeat the last order' });
    const question = repeat.getByRole('group', { name: 'Confirm the order' });
    await question.waitFor();
    expect(await question.textContent()).toContain('Repeat the last order: Buy 5 SBIN @ MKT on NSE · MIS');
    await page.waitForTimeout(350);
    await page.keyboard.press('Escape');
    await repeat.getByText('Not sent').waitFor();
    await page.waitForTimeout(400);
    expect(await sbinOrders(page)).toHaveLength(2);

    await page.keyboard.press('Shift+F12');
    await question.waitFor();
    await shot(page, 'repeat', 1280);
    await page.waitForTimeout(350);
    await page.keyboard.press('Enter');
    await repeat.getByText(/^Repeated · order /).waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await sbinOrders(page)).length, { timeout: 10_000 }).toBe(3);
    const orders = await sbinOrders(page);
    for (const o of orders)
      expect(o).toMatchObject({ action: 'BUY', quantity: 5, pricetype: 'MARKET', product: 'MIS' });
    // The ticket still shows RELIANCE.
    expect(await ticketOf(page).locator('.name').first().textContent()).toBe('RELIANCE');

    // At 420 px: the question in the always-on ticket; Esc leaves the book at 3.
    await page.setViewportSize(NARROW);
    await renderedFrames(page);
    await page.keyboard.press('Shift+F12');
    await page.getByRole('region', { name: 'Repeat the last order' }).getByRole('group').waitFor();
    await shot(page, 'repeat', 420);
    await page.waitForTimeout(350);
    await page.keyboard.press('Escape');
    await page.setViewportSize(WIDE);
    await renderedFrames(page);
    await page.waitForTimeout(400);
    expect(await sbinOrders(page)).toHaveLength(3);
  });

  it('sizing from a stop 20 points away and ₹3,000 fills the quantity in whole lots', async () => {
    const { page } = desk;
    const fut = await loadNiftyFuture(page);
    const size = async () => {
      const form = ticketOf(page);
      await form.getByRole('button', { name: /Size from risk/ }).click();
      const price = form.getByLabel('Price', { exact: true });
      await expect.poll(() => price.inputValue(), { timeout: 15_000 }).toMatch(/^\d+\.\d+$/);
      const entry = Number(await price.inputValue());
      await form.getByLabel('Stop', { exact: true }).fill((entry - 20).toFixed(2));
      await form.getByLabel('Risk ₹', { exact: true }).fill('3000');
      return entry;
    };
    await size();
    const lots = Math.floor(3000 / (20 * fut.lotSize));
    const qty = page.getByLabel('Qty', { exact: true });
    await expect.poll(() => qty.inputValue()).toBe(String(lots * fut.lotSize));
    const result = ticketOf(page).getByTestId('sizing-result');
    expect((await result.textContent())?.replace(/\s+/g, ' ')).toContain(`→ ${lots} lots`);
    await shot(page, 'sizing', 1280);
    await page.setViewportSize(NARROW);
    await renderedFrames(page);
    // The narrow ticket is its own mount: size again there.
    if ((await ticketOf(page).getByTestId('sizing-result').count()) === 0) await size();
    await expect
      .poll(() => page.getByLabel('Qty', { exact: true }).inputValue())
      .toBe(String(lots * fut.lotSize));
    await shot(page, 'sizing', 420);
    await page.setViewportSize(WIDE);
    await renderedFrames(page);
    expect(desk.problems).toEqual([]);
  });
});
