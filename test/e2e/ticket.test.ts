// The ticket by keyboard in Chromium, through browser mode against the embedded paper gateway:
// `/` focuses the search, `sbin` and Enter pick it, F1, a quantity and Enter (then Enter on the
// confirmation) place it, and the gateway's order book holds it exactly once, however many more
// Enters follow. The depth follows the ticket's instrument and a click on a price fills it. Shots
// of ticket, depth and watchlist at 1280×720 and 420 px wide go to test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView } from '../../src-main/contract/index.js';
import { join } from 'node:path';
import { invoke, openDesk, readAsPressed, SHOTS, type Desk } from '../support/desk-harness.js';
import { ORDER_LINE } from '../support/ticket-lines.js';

// The page's global, as seen by functions evaluate runs in the page (this file has no DOM types).
declare const document: { activeElement: unknown };

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk('ticket-e2e');
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

async function sbinOrders(): Promise<OrdersView['orders']> {
  const view = await invoke<OrdersView>(desk.page, 'books.orders');
  return view.orders.filter((o) => o.symbol === 'SBIN' && o.exchange === 'NSE');
}

describe('the ticket by keyboard', () => {
  it('/ sbin ⏎, F1, quantity, ⏎ and ⏎ to confirm: one order in the book; more Enters send nothing', async () => {
    const { page } = desk;
    // Focus on the page, not in a field: `/` is the desk's key.
    await page.locator('body').click({ position: { x: 640, y: 5 } });
    await page.keyboard.press('/');
    const search = page.getByRole('combobox', { name: 'Instrument search' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await expect.poll(() => ticket.locator('.name').first().textContent(), { timeout: 10_000 }).toBe('SBIN');
    await page.keyboard.press('F1');
    const qty = page.getByLabel('Qty', { exact: true });
    await expect.poll(() => qty.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('10');
    // The LIMIT price starts at the first LTP the ticket's quote brings.
    await expect
      .poll(() => page.getByLabel('Price', { exact: true }).inputValue(), { timeout: 15_000 })
      .toMatch(/^\d+\.\d{2}$/);
    const send = ticket.getByRole('button', { name: /^Buy 10 SBIN @ [\d,]+\.\d{2}/ });
    await send.waitFor();
    expect(await sbinOrders()).toHaveLength(0);

    await page.keyboard.press('Enter');
    const confirmBox = page.getByRole('group', { name: 'Confirm the order' });
    await confirmBox.waitFor();
    // One shot only: a resize to 420 px re-mounts the ticket, and the question would go with it.
    await page.screenshot({ path: join(SHOTS, 'desk-ticket-confirm-1280.png') });
    // Real time: the desk ignores an Enter within CONFIRM_ARM_MS (300 ms) of the question opening.
    await page.waitForTimeout(350);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => ticket.getByText(new RegExp(`^${ORDER_LINE} `)).count(), { timeout: 10_000 })
      .toBe(1);
    // A hurried second and third Enter send nothing: the same press as the answer (said), or at most
    // the next order's question, which an Enter this soon does not answer.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const question = page.getByRole('group', { name: 'Confirm the order' });
    await expect
      .poll(
        async () => (await ticket.getByText(/extra press was ignored/).count()) + (await question.count()),
      )
      .toBeGreaterThan(0);
    // Real time: a second order would reach the gateway's book within this; nothing says "none sent".
    await page.waitForTimeout(500);
    const orders = await sbinOrders();
    expect(orders).toHaveLength(1);
    if ((await question.count()) > 0) await page.keyboard.press('Escape');
    expect(orders[0]).toMatchObject({ action: 'BUY', quantity: 10, pricetype: 'LIMIT', product: 'CNC' });
  });

  it('at 1280×720 the ticket fits its column whole: the question leaves the order in sight, and the answer pushes nothing off', async () => {
    const { page } = desk;
    const form = page.getByRole('form', { name: 'Order ticket' });
    const box = async (name: string) => {
      const b = await form.getByRole('group', { name, exact: true }).boundingBox();
      if (!b) throw new Error(`${name} is not on screen`);
      return b;
    };
    const scroll = () =>
      form.evaluate((f) => ({ height: f.scrollHeight, room: f.clientHeight, top: f.scrollTop }));
    // Whether Enter asks first is on show, with no disclosure to open.
    const prefs = page.getByRole('group', { name: 'Confirm before sending' });
    expect(await prefs.getByRole('checkbox', { name: 'New order' }).isVisible()).toBe(true);
    expect(await prefs.getByRole('checkbox', { name: 'New order' }).isChecked()).toBe(true);

    const qty = page.getByLabel('Qty', { exact: true });
    await qty.fill('2');
    await qty.press('Enter');
    const question = page.getByRole('group', { name: 'Confirm the order' });
    await question.waitFor();
    // The question stands where the send button was: one order, one button to press.
    expect(await form.locator('button.send').count()).toBe(0);
    // The side, the order type and the product stay whole above it (it once covered them).
    const ask = await question.boundingBox();
    const formBox = await form.boundingBox();
    for (const name of ['Side', 'Order type', 'Product']) {
      const b = await box(name);
      expect(b.y, name).toBeGreaterThanOrEqual(formBox!.y);
      expect(b.y + b.height, name).toBeLessThanOrEqual(ask!.y);
    }
    await page.screenshot({ path: join(SHOTS, 'desk-ticket-confirm-fields-1280.png') });
    // Real time: the desk ignores an Enter within CONFIRM_ARM_MS (300 ms) of the question opening.
    await page.waitForTimeout(350);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => form.getByText(new RegExp(`^${ORDER_LINE} `)).count(), { timeout: 10_000 })
      .toBe(1);
    await form.locator('button.send').waitFor();
    // The answer and the confirmation switches fit under the send button: no scroll, BUY/SELL whole.
    const fit = await scroll();
    expect(fit.height).toBeLessThanOrEqual(fit.room);
    expect(fit.top).toBe(0);
    const side = await box('Side');
    expect(side.y).toBeGreaterThanOrEqual(formBox!.y);
    expect(await prefs.isVisible()).toBe(true);
    // A MARKET order's estimate stays on one line, so the ticket still fits; on the paper profile the
    // margin is the paper leverage estimate, labelled so.
    await form.getByRole('radio', { name: 'Market', exact: true }).check();
    const estimate = form.getByRole('group', { name: 'Order value and margin estimate' });
    await expect.poll(() => estimate.textContent()).toMatch(/Margin ≈ ₹[\d,]+\.\d{2}\s*\(paper leverage\)/);
    await page.screenshot({ path: join(SHOTS, 'desk-ticket-market-estimate-1280.png') });
    const market = await scroll();
    expect(market.height).toBeLessThanOrEqual(market.room);
    await form.getByRole('radio', { name: 'Limit', exact: true }).check();
  });

  it('with the new-order confirmation off, a double Enter still places exactly one order', async () => {
    const { page } = desk;
    await page.getByRole('checkbox', { name: 'New order' }).uncheck();
    await expect
      .poll(
        async () => (await invoke<{ confirmations: { place: boolean } }>(page, 'settings.get')).confirmations,
      )
      .toMatchObject({ place: false });
    const before = (await sbinOrders()).length;
    await page.getByLabel('Qty', { exact: true }).fill('3');
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page
          .getByRole('form', { name: 'Order ticket' })
          .getByText(new RegExp(`^${ORDER_LINE} `))
          .count(),
      )
      .toBe(1);
    // Real time: a second order would reach the gateway's book within this; nothing says "none sent".
    await page.waitForTimeout(500);
    const after = await sbinOrders();
    expect(after).toHaveLength(before + 1);
    expect(after.filter((o) => o.quantity === 3)).toHaveLength(1);
  });

  it('the depth follows the ticket and a price click fills the ticket price without sending', async () => {
    const { page } = desk;
    const depth = page.getByLabel('Market depth');
    const ask = depth.getByRole('button', { name: /^Ask [\d,]+\.\d{2}: fill the ticket's price$/ }).first();
    await ask.waitFor({ timeout: 15_000 });
    await page.getByRole('radio', { name: 'Market', exact: true }).check();
    const before = (await sbinOrders()).length;
    // The book moves while the test runs: the clicked level's label is read as the click lands.
    const label = await readAsPressed(page, 'click', 'label', () => ask.click());
    const price = /^Ask ([\d,]+\.\d{2})/.exec(label)?.[1]?.replace(/,/g, '');
    expect(price).toMatch(/^\d+\.\d{2}$/);
    expect(await page.getByRole('radio', { name: 'Limit', exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('Price', { exact: true }).inputValue()).toBe(price);
    // Real time: an order sent by the click would reach the gateway's book within this.
    await page.waitForTimeout(500);
    expect(await sbinOrders()).toHaveLength(before);
  });

  it('shows ticket, depth and watchlist with live figures at 1280×720 and 420 px', async () => {
    const { page } = desk;
    const list = page.getByRole('tabpanel', { name: '1' });
    // The default list, kept live: every row gets a price.
    await expect
      .poll(async () => (await list.locator('td.ltp').allTextContents()).every((t) => /\d/.test(t)), {
        timeout: 20_000,
      })
      .toBe(true);
    await page.getByLabel('Market depth').getByRole('table').waitFor();
    await desk.shots('ticket-depth-watchlist');
    expect(desk.problems).toEqual([]);
  });

  it('the F&O picker: NIFTY, NFO, options, nearest expiry, a strike, CE: the ticket gets the listed contract', async () => {
    const { page } = desk;
    await page.getByRole('button', { name: 'F&O' }).click();
    const picker = page.getByRole('group', { name: 'Futures and options picker' });
    await picker.getByLabel('Underlying').fill('nifty');
    await picker.getByLabel('Underlying').press('Enter');
    await expect.poll(() => picker.getByLabel('Strike').inputValue(), { timeout: 15_000 }).toMatch(/^\d+$/);
    await page.screenshot({ path: join(SHOTS, 'desk-ticket-fno-picker-1280.png') });
    const use = picker.getByRole('button', { name: /^Use NIFTY \d\d [A-Z]{3} \d+ CE$/ });
    const name = ((await use.textContent()) ?? '').trim().replace(/^Use /, '');
    await use.click();
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await expect.poll(() => ticket.locator('.name').first().textContent(), { timeout: 10_000 }).toBe(name);
    // Lot, tick and freeze of the contract, from market.symbol.
    await expect.poll(() => ticket.locator('.meta').first().textContent()).toMatch(/lot 65 · freeze 1,800/);
    expect(await page.getByRole('button', { name: /^Buy 65 NIFTY \d\d [A-Z]{3} \d+ CE @/ }).count()).toBe(1);
  });

  it('depth at 10 updates/s: every update rendered, each in well under a frame', async () => {
    const { page } = desk;
    // Test-only instrumentation: the page bridge is frozen, so its `on` is wrapped as it is defined,
    // letting the test feed market.depth events at a set rate through the desk's own listeners.
    await page.context().addInitScript(`(() => {
      const define = Object.defineProperty;
      Object.defineProperty = function (obj, prop, desc) {
        if (obj === window && prop === 'bridge' && desc && desc.value) {
          const real = desc.value;
          const depth = new Set();
          const on = (event, cb) => {
            const off = real.on(event, cb);
            if (event !== 'market.depth') return off;
            depth.add(cb);
            return () => { depth.delete(cb); off(); };
          };
          window.__emitDepth = (payload) => { for (const cb of depth) cb(payload); };
          desc = { ...desc, value: Object.freeze({ invoke: real.invoke, on }) };
        }
        return define.call(this, obj, prop, desc);
      };
    })()`);
    await page.reload();
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    await page.keyboard.press('/');
    await page.keyboard.type('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const depth = page.getByLabel('Market depth');
    await depth.getByRole('table').waitFor({ timeout: 15_000 });
    const result = (await page.evaluate(`(async () => {
      const N = 100, PERIOD = 100;
      const macrotask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
      let longTasks = 0;
      const obs = new PerformanceObserver((l) => (longTasks += l.getEntries().length));
      obs.observe({ type: 'longtask', buffered: false });
      const costs = [];
      const start = performance.now();
      let ltp = 0;
      for (let i = 0; i < N; i++) {
        const mid = 900 + (i % 20) * 0.05;
        const level = (k, side) => ({ price: Math.round((mid + side * (k + 1) * 0.05) * 100) / 100, quantity: 50 + ((i * 7 + k * 13) % 400) });
        ltp = Math.round(mid * 100) / 100;
        const t0 = performance.now();
        window.__emitDepth({
          profileId: 'paper', time: Date.now(), symbol: 'SBIN', exchange: 'NSE', ltp, change: ltp - 900,
          changePercent: 0.1, open: 900, high: 910, low: 890, prevClose: 900, volume: 100000 + i, oi: 0,
          bids: [0, 1, 2, 3, 4].map((k) => level(k, -1)), asks: [0, 1, 2, 3, 4].map((k) => level(k, 1)),
          totalBuyQty: 10000 + i, totalSellQty: 9000 + i, ltq: i, seq: 1e12 + i,
        });
        await macrotask();
        costs.push(performance.now() - t0);
        const next = start + (i + 1) * PERIOD;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
      obs.disconnect();
      costs.sort((a, b) => a - b);
      return {
        median: costs[N / 2], p99: costs[Math.floor(N * 0.99)], max: costs[N - 1], longTasks,
        seconds: (performance.now() - start) / 1000,
        shown: document.querySelector('[aria-label="Market depth"] .ltp').textContent.trim(),
        expected: ltp.toFixed(2),
      };
    })()`)) as {
      median: number;
      p99: number;
      max: number;
      longTasks: number;
      seconds: number;
      shown: string;
      expected: string;
    };
    console.log(
      `depth at 10/s for ${result.seconds.toFixed(1)} s: update to DOM median ${result.median.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(2)} ms, long tasks ${result.longTasks}`,
    );
    expect(result.shown).toBe(result.expected);
    // One frame is 16.7 ms: the typical update must leave most of it free.
    expect(result.median).toBeLessThan(8);
  }, 60_000);
});
