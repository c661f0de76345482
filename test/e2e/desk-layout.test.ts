// The desk's layout end to end: splitters resize the panels by keys and by drag and the sizes come
// back after a reload (settings.layout through the real core); three toasts sit in the focus area's
// corner, clear of the ticket, the books and the focus tab bar, and a rejected order's long reason is
// shown whole in its row; Positions carry Chg % and Strategy. Screenshots at 1280×720 and 420 px.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeApi, OrdersView } from '../../src-main/contract/index.js';
import { invoke, openDesk, type Desk } from '../support/desk-harness.js';

declare const window: { bridge: BridgeApi };

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-layout');
  page = desk.page;
  // Room for orders the gateway itself refuses for funds (the desk's own limits are lower).
  await invoke(page, 'settings.update', {
    risk: { maxValuePerOrder: 1e11, maxQuantityPerOrder: 10_000_000 },
  });
});

afterAll(async () => {
  await desk?.stop();
});

const separator = (name: string): Locator => page.getByRole('separator', { name });
const valueOf = async (l: Locator) => Number(await l.getAttribute('aria-valuenow'));
type Box = { x: number; y: number; width: number; height: number };
const box = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
};
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** An order the gateway takes and then rejects (its result, never thrown). */
async function tryPlace(input: Record<string, unknown>) {
  return page.evaluate(
    (i) => (window.bridge.invoke as (c: string, i: unknown) => Promise<{ ok: boolean }>)('orders.place', i),
    { exchange: 'NSE', product: 'MIS', pricetype: 'MARKET', ...input },
  );
}

describe('the desk layout in Chromium', { timeout: 90_000 }, () => {
  it('panels resize by keys and by drag, and the sizes survive a reload', async () => {
    const watch = separator('Resize watchlist');
    expect(await valueOf(watch)).toBe(280);
    await watch.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await valueOf(watch)).toBe(304);
    await expect
      .poll(async () => (await box(page.getByRole('region', { name: 'Watchlist' }))).width)
      .toBe(304);

    // Drag the bar above the books up by 80 px: the books grow by 80.
    const books = separator('Resize books panel');
    const b = await box(books);
    await page.mouse.move(b.x + 300, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + 300, b.y + b.height / 2 - 40, { steps: 4 });
    await page.mouse.move(b.x + 300, b.y + b.height / 2 - 80, { steps: 4 });
    await page.mouse.up();
    expect(await valueOf(books)).toBe(360);
    await expect.poll(async () => (await box(page.getByRole('region', { name: 'Books' }))).height).toBe(360);

    // The ticket column narrows from the keyboard (its handle moves right).
    const ticket = separator('Resize order ticket');
    await ticket.focus();
    await page.keyboard.press('Shift+ArrowRight');
    expect(await valueOf(ticket)).toBe(300);

    // The Orders table's Time column, widened from its grip by keys (88 px → 112 px).
    const timeHead = page.getByRole('grid', { name: 'Orders' }).getByRole('columnheader', { name: 'Time' });
    expect(Math.round((await box(timeHead)).width)).toBe(88);
    await page.getByRole('separator', { name: 'Resize Time column' }).focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Math.round((await box(timeHead)).width)).toBe(112);

    await expect
      .poll(async () => (await invoke<{ layout: unknown }>(page, 'settings.get')).layout, { timeout: 5000 })
      .toMatchObject({
        watchlistWidth: 304,
        booksHeight: 360,
        ticketWidth: 300,
        tableColumns: { Orders: { time: 112 } },
      });
    await desk.shots('layout-resized');

    await page.reload();
    await page.getByTestId('connection').and(page.locator('[data-state="connected"]')).waitFor();
    await expect.poll(() => valueOf(separator('Resize watchlist'))).toBe(304);
    expect(await valueOf(separator('Resize books panel'))).toBe(360);
    expect(await valueOf(separator('Resize order ticket'))).toBe(300);
    expect((await box(page.getByRole('region', { name: 'Books' }))).height).toBe(360);
    await expect.poll(async () => Math.round((await box(timeHead)).width)).toBe(112);
    // Enter on the grip gives the column its own width back.
    await page.getByRole('separator', { name: 'Resize Time column' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => Math.round((await box(timeHead)).width)).toBe(88);

    // Back to the defaults (Enter on each handle) for the flows that follow.
    for (const name of ['Resize watchlist', 'Resize books panel', 'Resize order ticket']) {
      await separator(name).focus();
      await page.keyboard.press('Enter');
    }
    expect(await valueOf(separator('Resize books panel'))).toBe(280);
  });

  it('three toasts sit at the foot of the watchlist column, clear of the depth levels; the long reason is on one line of its orders row, whole in its tooltip and description', async () => {
    // Depth on screen (B on SBIN's watchlist row loads the ticket, and the depth follows it).
    await page.locator('tr[data-instrument="NSE:SBIN"]').focus();
    await page.keyboard.press('b');
    const depth = page.getByRole('region', { name: 'Market depth' });
    const levels = depth.locator('table');
    await levels.waitFor({ timeout: 20_000 });
    const levelsBox = await box(levels);
    for (const quantity of [50_001, 50_002, 50_003]) {
      // Taken, then rejected by the gateway for funds (or refused at once): either way one alert.
      await tryPlace({ symbol: 'SBIN', action: 'BUY', quantity });
    }
    const toasts = page.getByTestId('alert');
    await expect.poll(() => toasts.count(), { timeout: 15_000 }).toBe(3);
    const focus = await box(page.getByRole('region', { name: 'Focus pane' }));
    const watch = await box(page.getByRole('region', { name: 'Watchlist' }));
    // The watchlist's scrolling rows: they end above the toasts (they scroll, never hide under them).
    const watchRows = await box(page.locator('#watchlist-panel'));
    const tabs = await box(page.getByRole('tablist', { name: 'Focus pane' }));
    const ticket = await box(page.getByRole('region', { name: 'Order ticket' }));
    const books = await box(page.getByRole('region', { name: 'Books' }));
    await page.screenshot({ path: 'test-results/desk-layout-toasts-depth-1280.png' });
    for (let i = 0; i < 3; i++) {
      // The partial fill's toast is replaced on each further fill: wait for the current one.
      await toasts.nth(i).waitFor();
      const t = await box(toasts.nth(i));
      expect(overlaps(t, ticket), `toast ${i} over the ticket`).toBe(false);
      expect(overlaps(t, books), `toast ${i} over the books`).toBe(false);
      expect(overlaps(t, tabs), `toast ${i} over the focus tabs`).toBe(false);
      expect(overlaps(t, levelsBox), `toast ${i} over the depth levels`).toBe(false);
      expect(overlaps(t, focus), `toast ${i} over the focus area`).toBe(false);
      expect(overlaps(t, watchRows), `toast ${i} over the watchlist's rows`).toBe(false);
      expect(
        t.x >= watch.x && t.x + t.width <= watch.x + watch.width,
        `toast ${i} in the watchlist column`,
      ).toBe(true);
    }

    // Each title is whole (its price and its last word were cut at the column's width): the
    // title's last line ends inside the toast's clamped text.
    const titlesCut = await page.evaluate<string[]>(`(() => {
      return [...document.querySelectorAll('[data-testid="alert"]')].flatMap((t) => {
        const title = t.querySelector('.title');
        const box = (title.parentElement ?? t).getBoundingClientRect();
        const lines = title.getClientRects();
        const last = lines[lines.length - 1];
        const ellipsed = title.scrollWidth > title.clientWidth + 1;
        const whole = !ellipsed && last.bottom <= box.bottom + 0.5 && last.right <= box.right + 0.5;
        return whole ? [] : [title.textContent];
      });
    })()`);
    expect(titlesCut).toEqual([]);

    // A tall books panel leaves a short column: fewer toasts, and the first three watchlist rows
    // still whole above the stack and its "in Alerts" line (three toasts once covered them).
    const booksBar = separator('Resize books panel');
    await booksBar.focus();
    await page.keyboard.press('End');
    await expect.poll(() => toasts.count()).toBeLessThan(3);
    const more = page.getByTestId('alerts-more');
    const stackTop = Math.min(
      (await box(more)).y,
      ...(await Promise.all((await toasts.all()).map(async (t) => (await box(t)).y))),
    );
    const rowsBox = await box(page.locator('#watchlist-panel'));
    const watchRowsNow = page.locator('#desk-watchlist tr[data-instrument]');
    expect(await watchRowsNow.count()).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 3; i++) {
      const r = await box(watchRowsNow.nth(i));
      expect(r.y + r.height, `watchlist row ${i} above the toasts`).toBeLessThanOrEqual(stackTop);
      expect(r.y + r.height, `watchlist row ${i} inside its list`).toBeLessThanOrEqual(
        rowsBox.y + rowsBox.height + 1,
      );
    }
    await page.screenshot({ path: 'test-results/desk-layout-toasts-short-column-1280.png' });
    await booksBar.focus();
    await page.keyboard.press('Enter');

    await page.getByRole('tab', { name: /^Orders/ }).click();
    const book = await invoke<OrdersView>(page, 'books.orders');
    const reason = book.orders.find((o) => o.quantity === 50_003)?.rejectionReason ?? '';
    expect(reason.length).toBeGreaterThan(20);
    const row = page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: '50,003' });
    const shown = row.locator('.reason');
    // Visible in the row, on its one line: the row keeps the book's 28 px (a long reason once made
    // it 4-6 lines tall in the Status column at 1280) and the reason's start is on screen.
    await expect.poll(() => shown.textContent()).toBe(reason);
    expect(await shown.isVisible()).toBe(true);
    expect(Math.round((await box(row)).height)).toBe(28);
    const reasonBox = await box(shown);
    expect(reasonBox.height).toBeLessThan(20);
    expect(reasonBox.width).toBeGreaterThan(60);
    // The whole text: the cell's tooltip, the Status button's accessible description, the detail.
    const cell = row.getByRole('gridcell').filter({ hasText: reason });
    expect(await cell.getAttribute('title')).toBe(reason);
    const statusButton = row.getByRole('button', { name: /^Status of order/ });
    const describedBy = await statusButton.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    const described = await page.locator(`[id="${describedBy}"]`).textContent();
    expect(described).toBe(reason);
    await desk.shots('layout-toasts');
    // The partly filled order stops filling (its fills would bury the next flow in alerts).
    await invoke(page, 'orders.cancelAll');
    await page.screenshot({ path: 'test-results/desk-layout-orders-reason-1280.png' });
  });

  it('positions show Chg % from the quote and the strategy of the orders that filled', async () => {
    for (const alert of await page.getByRole('button', { name: /^Dismiss:/ }).all()) await alert.click();
    await invoke(page, 'orders.place', {
      symbol: 'INFY',
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      quantity: 2,
      pricetype: 'MARKET',
    });
    await page.getByRole('tab', { name: /^Positions/ }).click();
    const table = page.getByRole('grid', { name: 'Positions' });
    const heads = await table.getByRole('columnheader').allTextContents();
    expect(heads.map((h) => h.trim())).toEqual(expect.arrayContaining(['Chg %', 'Strategy']));
    const row = table.getByRole('row').filter({ hasText: 'INFY' });
    await row.waitFor({ timeout: 15_000 });
    const cells = row.getByRole('gridcell');
    const at = heads.findIndex((h) => h.trim() === 'Chg %');
    const st = heads.findIndex((h) => h.trim() === 'Strategy');
    await expect.poll(() => cells.nth(at).textContent(), { timeout: 15_000 }).toMatch(/^[+−-]?\d+\.\d{2}%$/);
    await expect.poll(() => cells.nth(st).textContent()).toBe('OrderDesk');
    await desk.shots('layout-positions');
  });

  it('each focus tab mounts its pane (no loading line, no load error); F6 brings Depth back', async () => {
    const panel = page.locator('#focus-panel');
    for (const [tab, file] of [
      ['Chain', 'chain'],
      ['Chart', 'chart'],
      ['Journal', 'journal'],
      ['Settings', 'settings'],
    ] as const) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await expect.poll(() => panel.locator('.pane-note').count(), { timeout: 10_000 }).toBe(0);
      expect((await panel.textContent())?.trim().length).toBeGreaterThan(0);
      await page.screenshot({ path: `test-results/desk-layout-focus-${file}-1280.png` });
    }
    await page.keyboard.press('F6');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Depth' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.getByRole('region', { name: 'Market depth' }).waitFor();
  });

  it('the send button stays on screen when tall books leave the ticket column short', async () => {
    // The desk saves its own sizes 400 ms after a change: let any save from the tests before land
    // first, or it could overwrite this one.
    await page.waitForTimeout(1000);
    await invoke(page, 'settings.update', { layout: { booksHeight: 420 } });
    await expect
      .poll(
        async () =>
          (await invoke<{ layout: { booksHeight: number } }>(page, 'settings.get')).layout.booksHeight,
      )
      .toBe(420);
    await page.reload();
    await expect
      .poll(async () => (await box(page.getByRole('region', { name: 'Order ticket' }))).height, {
        timeout: 10_000,
      })
      .toBeLessThan(300);
    const column = await box(page.getByRole('region', { name: 'Order ticket' }));
    const send = page.getByRole('region', { name: 'Order ticket' }).locator('button.send');
    await send.waitFor();
    const b = await box(send);
    expect(b.y).toBeGreaterThanOrEqual(column.y);
    expect(b.y + b.height).toBeLessThanOrEqual(column.y + column.height + 0.5);
    // Docked at the very foot: no strip of the scrolled fields shows under the dock (the form's
    // bottom padding once left 8 px of the order-type buttons visible below the send button).
    const dock = await box(page.getByRole('region', { name: 'Order ticket' }).locator('.dock'));
    const form = await box(page.getByRole('form', { name: 'Order ticket' }));
    expect(
      Math.abs(dock.y + dock.height - Math.min(form.y + form.height, column.y + column.height)),
    ).toBeLessThan(1);
    // The ticket's search example is whole in its field at 1280 (it was cut mid-strike).
    const example = await page.evaluate<{ text: number; room: number }>(`(() => {
      const el = document.getElementById('ticket-search');
      const cs = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
      return {
        text: ctx.measureText(el.placeholder).width,
        room: el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
      };
    })()`);
    expect(example.text).toBeGreaterThan(50);
    expect(example.text).toBeLessThanOrEqual(example.room);
    await page.screenshot({ path: 'test-results/desk-layout-short-ticket-1280.png' });
    await invoke(page, 'settings.update', { layout: { booksHeight: 280 } });
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
