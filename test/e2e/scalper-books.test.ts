// The books a scalper keeps open, in Chromium against the embedded paper gateway: a position row's
// Add (the ticket, same side, one lot) and Rev (asked in exact words, one order of twice the net,
// the position book read back at the opposite net), Exit, and the closed row's realised P&L and
// buy/sell averages; close all's report folding to one line with the positions still in view at
// 420 px; a split of 105 by 20 as ONE alert with its six orders inside; the journal's dd-mm-yyyy
// date filter. Shots scalper-*-1280/-420.png under test-results/.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, PositionsView } from '../../src-main/contract/index.js';
import {
  invoke,
  NARROW,
  openDesk,
  pickInstrument,
  renderedFrames,
  shotsAt,
  WIDE,
  type Desk,
} from '../support/desk-harness.js';

// The page's global, as seen by functions evaluate runs in the page (this file has no DOM types).
declare const document: { activeElement: { getAttribute(n: string): string | null } | null };

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('scalper-books');
  page = desk.page;
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

const shot = (name: string, narrow = true) => shotsAt(page, `scalper-${name}`, narrow);

const grid = (): Locator => page.getByRole('grid', { name: 'Positions' });
const sbinRow = (): Locator => grid().locator('[data-row-key="NSE:SBIN:MIS"]');
const dialog = (): Locator => page.getByRole('alertdialog');

async function sbinNet(): Promise<number | undefined> {
  const v = await invoke<PositionsView>(page, 'books.positions');
  return v.positions.find((p) => p.symbol === 'SBIN' && p.product === 'MIS')?.quantity;
}

async function buySbin(quantity: number): Promise<void> {
  await invoke(page, 'orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product: 'MIS',
  });
  await expect.poll(() => sbinNet(), { timeout: 15_000 }).toBeGreaterThan(0);
}

async function positionsTab(): Promise<void> {
  await page.getByRole('tab', { name: /^Positions/ }).click();
  await sbinRow().waitFor({ timeout: 15_000 });
}

describe('the positions a scalper works', { timeout: 120_000 }, () => {
  it('Add by keyboard from the row opens the ticket on BUY, one lot, MIS; nothing is sent', async () => {
    await buySbin(10);
    await positionsTab();
    await expect.poll(() => sbinRow().locator('.qty').textContent(), { timeout: 15_000 }).toBe('+10');
    const before = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    // The row first (Alt+F6 focuses the Positions pane's row), then Tab reaches its actions.
    await page.keyboard.press('Alt+F6');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-row-key') ?? null))
      .toBe('NSE:SBIN:MIS');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toMatch(/^Add to SBIN MIS/);
    await page.keyboard.press('Enter');
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await expect.poll(() => ticket.locator('.name').first().textContent(), { timeout: 10_000 }).toBe('SBIN');
    await expect.poll(() => page.getByLabel('Qty', { exact: true }).inputValue()).toBe('1');
    expect(await ticket.getByRole('radio', { name: 'MIS', exact: true }).isChecked()).toBe(true);
    expect((await invoke<OrdersView>(page, 'books.orders')).orders.length).toBe(before);
    // The row selected again, its actions in view and in the tab order.
    await page.keyboard.press('Alt+F6');
    await page.keyboard.press('Tab');
    await shot('positions-actions');
  });

  it('Rev asks in exact words, sends one order of 20, and the book reads back -10', async () => {
    await positionsTab();
    const before = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    await sbinRow()
      .getByRole('button', { name: /^Reverse SBIN MIS/ })
      .click();
    await dialog().waitFor({ timeout: 10_000 });
    expect(await dialog().textContent()).toContain('SELL 20 SBIN NSE MIS MARKET: reverses +10 to -10');
    // Esc sends nothing.
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect((await invoke<OrdersView>(page, 'books.orders')).orders.length).toBe(before);

    await sbinRow()
      .getByRole('button', { name: /^Reverse SBIN MIS/ })
      .click();
    await dialog().getByRole('button', { name: 'Sell to reverse' }).click();
    await expect.poll(() => sbinNet(), { timeout: 15_000 }).toBe(-10);
    const orders = (await invoke<OrdersView>(page, 'books.orders')).orders;
    expect(orders.length).toBe(before + 1);
    expect(orders.find((o) => o.action === 'SELL' && o.quantity === 20 && o.symbol === 'SBIN')).toBeDefined();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Reverse sent' }).textContent(), {
        timeout: 10_000,
      })
      .toMatch(/the position book shows SBIN MIS -10/);
    await expect.poll(() => sbinRow().locator('.qty').textContent(), { timeout: 15_000 }).toBe('-10');
  });

  it('Exit closes it: the closed row shows its realised P&L and buy/sell averages', async () => {
    await sbinRow()
      .getByRole('button', { name: /^Exit SBIN MIS/ })
      .click();
    await dialog().getByRole('button', { name: 'Buy to exit' }).click();
    await expect.poll(() => sbinNet(), { timeout: 15_000 }).toBe(0);
    const view = await invoke<PositionsView>(page, 'books.positions');
    const flat = view.positions.find((p) => p.symbol === 'SBIN' && p.product === 'MIS')!;
    expect(flat.realised).toBeTypeOf('number');
    const heads = await grid().getByRole('columnheader').allTextContents();
    const cell = (label: string) =>
      sbinRow()
        .getByRole('gridcell')
        .nth(heads.findIndex((h) => h.trim() === label));
    await expect
      .poll(() => cell('Avg').textContent(), { timeout: 15_000 })
      .toMatch(/^B [\d,]+\.\d{2} · S [\d,]+\.\d{2}$/);
    const pnl = (await cell('P&L (MTM)').textContent()) ?? '';
    const rupees = new Intl.NumberFormat('en-IN', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(Math.abs(flat.realised!));
    expect(pnl).toContain(`₹${rupees}`);
    expect(await sbinRow().getByRole('button').count()).toBe(0);
    await shot('closed-row');
  });

  it("close all's report folds to one line after 4 s; at 420 px the positions stay in view", async () => {
    await buySbin(5);
    await positionsTab();
    await page.getByRole('button', { name: 'Close all', exact: true }).click();
    await dialog().getByRole('button', { name: 'Close all', exact: true }).click();
    const report = page.getByRole('status', { name: 'Close all progress' });
    await expect
      .poll(() => report.textContent(), { timeout: 30_000 })
      .toContain('Flat: every position of the strategy is closed');
    // In full first: the steps are listed.
    expect(await report.locator('li').count()).toBe(3);
    await expect
      .poll(() => report.getByRole('button', { name: 'Details' }).count(), { timeout: 8000 })
      .toBe(1);
    expect(await report.textContent()).toContain('3 of 3 steps done · 0 failed');
    expect(await report.locator('li').count()).toBe(0);
    await shot('report-collapsed');
    await page.setViewportSize(NARROW);
    await renderedFrames(page);
    // Drawn again in the narrow layout, it stays folded, and the SBIN row is on screen.
    expect(await report.getByRole('button', { name: 'Details' }).count()).toBe(1);
    const box = await sbinRow().boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThan(NARROW.height);
    await page.setViewportSize(WIDE);
    await renderedFrames(page);
  });

  it('a split of 105 by 20 is ONE alert (and one toast) with its six orders inside', async () => {
    await invoke(page, 'settings.update', { confirmations: { place: false } });
    await pickInstrument(page, 'INFY');
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await ticket.getByRole('group', { name: 'Ticket mode' }).getByRole('radio', { name: 'Split' }).check();
    await ticket.getByRole('radio', { name: 'Market', exact: true }).check();
    await ticket.getByRole('radio', { name: 'MIS', exact: true }).check();
    await page.getByLabel('Qty', { exact: true }).fill('105');
    await page.getByLabel('Split size').fill('20');
    await expect.poll(() => page.getByTestId('split-child').count(), { timeout: 10_000 }).toBe(6);
    await page.getByLabel('Split size').press('Enter');
    await expect.poll(() => page.getByTestId('split-result').count(), { timeout: 15_000 }).toBe(6);
    const toasts = page.getByTestId('alert');
    await expect
      .poll(() => toasts.filter({ hasText: 'Split BUY 105 INFY: 6 of 6 filled' }).count(), {
        timeout: 20_000,
      })
      .toBe(1);
    // No toast of a single INFY child.
    expect(await toasts.filter({ hasText: /^BUY 20 INFY/ }).count()).toBe(0);
    await page.getByRole('tab', { name: /^Alerts/ }).click();
    const rows = page.getByTestId('alert-row').filter({ hasText: 'Split BUY 105 INFY' });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('alert-row').filter({ hasText: /INFY/ }).count()).toBe(1);
    await rows.getByText('6 orders', { exact: true }).first().click();
    expect(await rows.locator('li').count()).toBe(6);
    await shot('split-alert');
  });

  it('the journal filters by a dd-mm-yyyy IST day and says how to write one', async () => {
    await page.getByRole('tab', { name: /^Journal/ }).click();
    const day = page.getByLabel('Date (IST)');
    await day.waitFor({ timeout: 10_000 });
    // It opens on today, written dd-mm-yyyy.
    const today = await day.inputValue();
    expect(today).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    await day.fill('2026-11-23');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'dd-mm-yyyy' }).textContent(), { timeout: 5000 })
      .toContain('write the day as dd-mm-yyyy (IST)');
    await shot('journal-filter', false);
    await day.fill(today);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = page.getByRole('grid', { name: 'Journal entries' }).locator('[data-row-key]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('alert').filter({ hasText: 'dd-mm-yyyy' }).count()).toBe(0);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
