// The desk end to end, the books: cancel all and close all, each asked in the window first (a "no"
// sends nothing), then done, with the close-all steps ending in the flat check. Orders to work on are placed through the page's bridge; everything
// checked is what the trader sees. Screenshots at 1280×720 and 420 px wide.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderIdResponse, OrdersView, PositionsView } from '../../src-main/contract/index.js';
import { invoke, ltpOf, openDesk, priceAway, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-books');
  page = desk.page;
  // Room for an order the gateway itself refuses for funds (the desk's own value limit is lower).
  await invoke(page, 'settings.update', {
    risk: { maxValuePerOrder: 1e11, maxQuantityPerOrder: 10_000_000 },
  });
});

afterAll(async () => {
  await desk?.stop();
});

const tab = (name: string): Locator => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const grid = (name: string): Locator => page.getByRole('grid', { name });
const dialog = (): Locator => page.getByRole('alertdialog');

async function place(input: Record<string, unknown>): Promise<string> {
  const r = await invoke<OrderIdResponse>(page, 'orders.place', {
    exchange: 'NSE',
    product: 'MIS',
    ...input,
  });
  return r.orderid;
}

async function ordersBook(): Promise<OrdersView> {
  return invoke<OrdersView>(page, 'books.orders');
}

describe('the books in Chromium', { timeout: 60_000 }, () => {
  it('cancel all asks in the window: "no" keeps the orders, "yes" cancels every open one', async () => {
    const ltp = await ltpOf(page, 'SBIN');
    const ids = [
      await place({
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price: priceAway(ltp, -3),
      }),
      await place({
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 2,
        pricetype: 'LIMIT',
        price: priceAway(ltp, -4),
      }),
    ];
    await tab('Orders').click();
    const cancelAll = page.getByRole('button', { name: /^Cancel all/ });
    await expect.poll(() => cancelAll.textContent(), { timeout: 15_000 }).toContain('Cancel all (2)');

    await page.keyboard.press('Control+Shift+X');
    await dialog().waitFor();
    expect(await dialog().textContent()).toContain('Cancel all open orders?');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect((await ordersBook()).orders.filter((o) => ids.includes(o.orderid)).map((o) => o.status)).toEqual([
      'open',
      'open',
    ]);

    await page.keyboard.press('Control+Shift+X');
    await dialog().waitFor();
    await desk.shots('cancel-all-confirm');
    await dialog().getByRole('button', { name: 'Cancel all orders' }).click();
    await dialog().waitFor({ state: 'detached' });
    for (const id of ids)
      await expect
        .poll(() => grid('Orders').locator(`[data-row-key="${id}"]`).textContent(), { timeout: 15_000 })
        .toContain('cancelled');
    expect(await cancelAll.isDisabled()).toBe(true);
    await desk.shots('cancel-all-done');
  });

  it('close all asks first, then cancels, closes and reads back flat, step by step', async () => {
    const ltp = await ltpOf(page, 'INFY');
    await place({ symbol: 'SBIN', action: 'BUY', quantity: 3, pricetype: 'MARKET' });
    await place({ symbol: 'INFY', action: 'SELL', quantity: 2, pricetype: 'MARKET' });
    const working = await place({
      symbol: 'INFY',
      action: 'BUY',
      quantity: 1,
      pricetype: 'LIMIT',
      price: priceAway(ltp, -3),
    });
    await tab('Positions').click();
    const positions = grid('Positions');
    await expect.poll(() => positions.textContent(), { timeout: 15_000 }).toContain('INFY');
    await expect.poll(() => positions.textContent()).toContain('SBIN');

    await page.keyboard.press('Control+Shift+Q');
    await dialog().waitFor({ timeout: 10_000 });
    expect(await dialog().textContent()).toContain('Close all positions of the strategy?');
    await dialog().getByRole('button', { name: 'Keep positions' }).click();
    await dialog().waitFor({ state: 'detached' });
    const still = await invoke<PositionsView>(page, 'books.positions');
    expect(still.positions.filter((p) => p.quantity !== 0).length).toBeGreaterThanOrEqual(2);

    await page.getByRole('button', { name: 'Close all', exact: true }).click();
    await dialog().waitFor({ timeout: 10_000 });
    await desk.shots('close-all-confirm');
    await dialog().getByRole('button', { name: 'Close all', exact: true }).click();
    const progress = page.getByRole('status', { name: 'Close all progress' });
    await expect
      .poll(() => progress.textContent(), { timeout: 30_000 })
      .toContain('Flat: every position of the strategy is closed');
    await desk.shots('close-all-flat');
    const after = await invoke<PositionsView>(page, 'books.positions');
    expect(after.positions.filter((p) => p.quantity !== 0)).toEqual([]);
    const book = await ordersBook();
    expect(book.orders.find((o) => o.orderid === working)?.status).toBe('cancelled');
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
