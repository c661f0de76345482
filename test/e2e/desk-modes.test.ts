// The ticket's Smart, Split and Basket modes end to end against the embedded paper gateway: a smart
// order's preview is what the gateway does (position before, the order placed, position after at the
// target); a split of 105 by 20 places six children with the remainder last (read back from the
// gateway's order book); a pasted basket with a bad line sends its two good legs and both appear.
// Screenshots of each mode at 1280×720 and 420 px wide under test-results/.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenPositionResponse, OrderSnapshot, OrdersView } from '../../src-main/contract/index.js';
import { invoke, ltpOf, openDesk, pickInstrument, priceAway, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-modes');
  page = desk.page;
  // Enter sends at once here (the confirmation step is covered by the component tests).
  await invoke(page, 'settings.update', { confirmations: { place: false } });
});

afterAll(async () => {
  await desk?.stop();
});

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });

/** axe over the ticket as it stands: serious or critical violations (printed, and returned to fail on). */
async function ticketAxe(where: string): Promise<string[]> {
  const r = await new AxeBuilder({ page })
    .include('form[aria-label="Order ticket"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const bad = r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  if (bad.length > 0) console.log(bad.join('\n'));
  return bad;
}

const pick = (symbol: string): Promise<void> => pickInstrument(page, symbol);

async function mode(name: 'Regular' | 'Smart' | 'Split' | 'Basket'): Promise<void> {
  await ticket().getByRole('group', { name: 'Ticket mode' }).getByRole('radio', { name }).check();
}

async function marketMis(quantity: string): Promise<void> {
  await ticket().getByRole('radio', { name: 'Market', exact: true }).check();
  await ticket().getByRole('radio', { name: 'MIS', exact: true }).check();
  await page.getByLabel('Qty', { exact: true }).fill(quantity);
}

async function position(symbol: string): Promise<number> {
  const r = await invoke<OpenPositionResponse>(page, 'orders.openPosition', {
    symbol,
    exchange: 'NSE',
    product: 'MIS',
  });
  return r.quantity;
}

async function orders(): Promise<OrderSnapshot[]> {
  return (await invoke<OrdersView>(page, 'books.orders')).orders;
}

describe('ticket modes in Chromium', { timeout: 90_000 }, () => {
  it('smart: the preview is what the gateway does, and the position ends at the target', async () => {
    await pick('SBIN');
    await mode('Smart');
    await marketMis('1');
    const before = await position('SBIN');
    const target = page.getByLabel('Target position');
    await target.fill(String(before + 7));
    const preview = page.getByTestId('smart-preview');
    await expect
      .poll(() => page.getByTestId('smart-order').textContent(), { timeout: 10_000 })
      .toContain('Will send BUY 7 SBIN');
    expect(await page.getByTestId('smart-current').textContent()).toBe(before === 0 ? '0' : `+${before}`);
    const sendButton = ticket().getByRole('button', { name: /^BUY 7 SBIN → position/ });
    expect(await sendButton.getAttribute('aria-disabled')).toBe('false');
    await desk.shots('mode-smart');
    expect(await ticketAxe('mode-smart')).toEqual([]);

    await target.press('Enter');
    const check = page.getByTestId('smart-check');
    await expect
      .poll(() => check.textContent(), { timeout: 15_000 })
      .toMatch(/As previewed: BUY 7 \(order \S+\)/);
    const orderid = /order (\S+)\)/.exec((await check.textContent()) ?? '')?.[1] ?? '';
    const placed = (await orders()).find((o) => o.orderid === orderid);
    expect(placed).toMatchObject({ symbol: 'SBIN', action: 'BUY', quantity: 7, product: 'MIS' });
    await expect.poll(() => position('SBIN'), { timeout: 15_000 }).toBe(before + 7);
    // Now at the target, the same preview says no action.
    await expect
      .poll(() => page.getByTestId('smart-order').textContent(), { timeout: 15_000 })
      .toContain('No action');
    expect(await preview.textContent()).toContain(`+${before + 7}`);
  });

  it('split: 105 by 20 previews six children, remainder last, and the gateway gets exactly those', async () => {
    await pick('INFY');
    await mode('Split');
    await marketMis('105');
    const known = new Set((await orders()).map((o) => o.orderid));
    await page.getByLabel('Split size').fill('20');
    const children = page.getByTestId('split-child');
    await expect.poll(() => children.count(), { timeout: 10_000 }).toBe(6);
    const sizes = await children.evaluateAll((rows) => rows.map((r) => r.children[1]?.textContent?.trim()));
    expect(sizes).toEqual(['20', '20', '20', '20', '20', '5']);
    await desk.shots('mode-split');
    expect(await ticketAxe('mode-split')).toEqual([]);

    await page.getByLabel('Split size').press('Enter');
    const results = page.getByTestId('split-result');
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(6);
    await expect
      .poll(() => ticket().getByText('Sent: 6 of 6 children placed').count(), { timeout: 5000 })
      .toBe(1);
    // The gateway's order book: six new INFY orders, in placement order, remainder last.
    const fresh = (await orders())
      .filter((o) => !known.has(o.orderid) && o.symbol === 'INFY')
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.orderid.localeCompare(b.orderid));
    expect(fresh.map((o) => o.quantity)).toEqual([20, 20, 20, 20, 20, 5]);
    const ids = await results.evaluateAll((rows) => rows.map((r) => r.children[2]?.textContent?.trim()));
    expect(new Set(ids)).toEqual(new Set(fresh.map((o) => o.orderid)));
    await desk.shots('mode-split-results');
  });

  it('basket: pasted lines, the bad one named; both good legs are sent and appear in the book', async () => {
    await mode('Basket');
    const known = new Set((await orders()).map((o) => o.orderid));
    const paste = page.getByLabel(/One order a line/);
    await paste.fill('RELIANCE NSE BUY 2\nTCS NSX BUY 1\nSBIN NSE SELL 3');
    await ticket().getByRole('button', { name: 'Add lines' }).click();
    expect(await page.getByTestId('basket-errors').textContent()).toContain('Line 1, exchange "NSX"');
    await expect.poll(() => page.getByTestId('basket-leg').count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('basket-totals').textContent(), { timeout: 10_000 })
      .toMatch(/Value ₹[1-9][\d,]*\.\d{2}.*Margin estimate ≈ ₹[1-9]/);
    await desk.shots('mode-basket');

    await ticket()
      .getByRole('button', { name: /Send basket: 2 orders/ })
      .click();
    const results = page.getByTestId('basket-result');
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(2);
    await expect
      .poll(() => ticket().getByText('Sent: 2 of 2 legs placed').count(), { timeout: 5000 })
      .toBe(1);
    const fresh = (await orders()).filter((o) => !known.has(o.orderid));
    expect(fresh.map((o) => `${o.action} ${o.quantity} ${o.symbol}`).sort()).toEqual([
      'BUY 2 RELIANCE',
      'SELL 3 SBIN',
    ]);
    const shownIds = await results.evaluateAll((rows) => rows.map((r) => r.children[1]?.textContent?.trim()));
    expect(new Set(shownIds)).toEqual(new Set(fresh.map((o) => o.orderid)));
    await desk.shots('mode-basket-results');
  });

  it('basket: three legs, one the gateway refuses for funds: a result per leg', async () => {
    // Past the desk's own limits, so the gateway is the one to judge the large leg (the core refuses a
    // whole basket when a leg breaks a risk limit).
    await invoke(page, 'settings.update', {
      risk: { maxValuePerOrder: 1e11, maxQuantityPerOrder: 10_000_000 },
    });
    await mode('Basket');
    // A basket sent before may still be listed: this one starts empty.
    while ((await page.getByTestId('basket-leg').count()) > 0)
      await ticket()
        .getByRole('button', { name: /^Remove leg 1:/ })
        .click();
    const known = new Set((await orders()).map((o) => o.orderid));
    // The paste box is open with no legs, or while it holds a line to fix.
    if (!(await page.getByLabel(/One order a line/).isVisible())) await page.getByText('Paste lines').click();
    await page.getByLabel(/One order a line/).fill('INFY NSE BUY 1\nRELIANCE NSE BUY 30000\nSBIN NSE BUY 2');
    // Delivery: ₹4 crore of RELIANCE under the freeze quantity, beyond the paper account's cash.
    await page.getByLabel('Product for pasted lines').selectOption('CNC');
    await ticket().getByRole('button', { name: 'Add lines' }).click();
    await expect.poll(() => page.getByTestId('basket-leg').count()).toBe(3);
    await ticket()
      .getByRole('button', { name: /Send basket: 3 orders/ })
      .click();
    // The paper leverage estimate is past the account's cash: said in words, and sent only from the
    // confirmation it brings (even with new-order confirmations off).
    const ask = ticket().getByRole('group', { name: 'Confirm the order' });
    await ask.waitFor();
    expect(await ask.textContent()).toMatch(
      /This basket needs about ₹[\d,]+\.\d{2} of margin; ₹[\d,]+\.\d{2} is available/,
    );
    // Real time: the desk ignores a confirmation within CONFIRM_ARM_MS (300 ms) of the question opening.
    await page.waitForTimeout(350);
    await ask.getByRole('button', { name: /Confirm/ }).click();
    const results = page.getByTestId('basket-result');
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(3);
    const rows = await results.evaluateAll((rs) =>
      rs.map((r) =>
        Array.from(r.children, (c: { textContent: string | null }) =>
          (c.textContent ?? '').replace(/\s+/g, ' ').trim(),
        ),
      ),
    );
    const fresh = (await orders()).filter((o) => !known.has(o.orderid));
    const idOf = (symbol: string) =>
      fresh.find((o) => o.symbol === symbol && o.status !== 'rejected')?.orderid;
    expect(rows[0]).toEqual(['BUY 1 INFY', idOf('INFY'), expect.stringMatching(/^(placed|complete)$/)]);
    expect(rows[1]).toEqual(['BUY 30,000 RELIANCE', '—', 'not placed']);
    // The gateway's own sentence for the refused leg, on a line of its own.
    expect(await page.getByTestId('basket-result-reason').textContent()).toMatch(/Insufficient funds/);
    expect(rows[2]).toEqual(['BUY 2 SBIN', idOf('SBIN'), expect.stringMatching(/^(placed|complete)$/)]);
    expect(await ticket().getByText('Sent: 2 of 3 legs placed').count()).toBe(1);
    // Placed: the two good legs; the paper gateway keeps the refused one as a rejected order.
    expect(
      fresh
        .filter((o) => o.status !== 'rejected')
        .map((o) => `${o.action} ${o.quantity} ${o.symbol}`)
        .sort(),
    ).toEqual(['BUY 1 INFY', 'BUY 2 SBIN']);
    await desk.shots('mode-basket-bad-leg');
    expect(await ticketAxe('mode-basket-bad-leg')).toEqual([]);
  });

  it('smart: a resting smart order is counted, and the next preview warns it would overshoot', async () => {
    await pick('SBIN');
    await mode('Smart');
    await ticket().getByRole('radio', { name: 'Limit', exact: true }).check();
    await ticket().getByRole('radio', { name: 'MIS', exact: true }).check();
    const below = priceAway(await ltpOf(page, 'SBIN'), -3);
    await page.getByLabel('Price', { exact: true }).fill(below);
    const now = await position('SBIN');
    const target = page.getByLabel('Target position');
    await target.fill(String(now + 5));
    await expect
      .poll(() => page.getByTestId('smart-order').textContent(), { timeout: 10_000 })
      .toContain('Will send BUY 5 SBIN · LIMIT');
    await target.press('Enter');
    await expect
      .poll(() => page.getByTestId('smart-check').textContent(), { timeout: 15_000 })
      .toMatch(/As previewed/);
    // It rests below the market; the gateway would size the next smart order from the position alone.
    const warning = page.getByTestId('smart-warning');
    await expect.poll(() => warning.count(), { timeout: 15_000 }).toBe(1);
    expect(await warning.textContent()).toContain(
      `1 working order on SBIN (BUY 5 unfilled) would carry the position to +${now + 10}, past the target +${now + 5}`,
    );
    expect(await page.getByTestId('smart-order').textContent()).toContain('Will send BUY 5 SBIN');
    await desk.shots('mode-smart-warning');
    expect(await ticketAxe('mode-smart-warning')).toEqual([]);
    expect(desk.problems).toEqual([]);
  });
});
