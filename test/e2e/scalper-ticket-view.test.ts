// Nothing the trader needs is out of view, in Chromium through browser mode against the embedded
// paper gateway: a first start asks for the limits in one step; one lot of the near NIFTY future goes
// at the default limits; value, margin and reasons for a future and an option fit the ticket at
// 1280×720 without scrolling; and under a small limit the refusal stands beside the send button, in
// the viewport at both widths, and Enter says it again in a live region. Shots: scalper-*-1280/-420.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, SearchResponse } from '../../src-main/contract/index.js';
import {
  invoke,
  NARROW,
  nearestExpiry,
  openDesk,
  pickInstrument,
  renderedFrames,
  SHOTS,
  shotsAt,
  WIDE,
  type Desk,
} from '../support/desk-harness.js';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk('scalper-view', { firstStart: true });
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

const shots = (page: Page, name: string) => shotsAt(page, `scalper-${name}`);

/** The element's box lies whole inside the window. */
async function inViewport(page: Page, el: Locator): Promise<boolean> {
  const b = await el.boundingBox();
  const v = page.viewportSize();
  return !!b && !!v && b.y >= 0 && b.x >= 0 && b.y + b.height <= v.height && b.x + b.width <= v.width;
}

describe('the scalper’s ticket: nothing out of view', () => {
  it('first start asks for the limits in one step over the ticket; Keep the defaults answers it', async () => {
    const { page } = desk;
    const step = page.getByRole('region', { name: 'Your order limits' });
    await step.waitFor();
    await shots(page, 'firstrun-limits');
    expect(await step.getByLabel('Value per order').inputValue()).toBe('50,00,000');
    expect(await step.getByText('₹50,00,000.00').isVisible()).toBe(true);
    // The ticket still works below it.
    expect(await page.getByRole('form', { name: 'Order ticket' }).isVisible()).toBe(true);
    await step.getByRole('button', { name: 'Keep the defaults' }).click();
    await step.waitFor({ state: 'detached' });
    const risk = (
      await invoke<{ risk: { limitsReviewed: boolean; maxValuePerOrder: number } }>(page, 'settings.get')
    ).risk;
    expect(risk).toMatchObject({ limitsReviewed: true, maxValuePerOrder: 50_00_000 });
  });

  it('one lot of the near NIFTY future goes at the default limits; value and margin fit at 1280×720', async () => {
    const { page } = desk;
    const found = await invoke<SearchResponse>(page, 'market.search', { query: 'NIFTY', exchange: 'NFO' });
    const fut = nearestExpiry(found.data.filter((r) => r.name === 'NIFTY' && r.instrumenttype === 'FUTIDX'));
    await pickInstrument(page, fut.symbol, /^NIFTY \d+ [A-Z]{3} FUT$/);
    const form = page.getByRole('form', { name: 'Order ticket' });
    const estimate = form.getByRole('group', { name: 'Order value and margin estimate' });
    await expect.poll(() => estimate.textContent(), { timeout: 15_000 }).toMatch(/Value ₹[\d,]+\.\d{2}/);
    await expect.poll(() => estimate.textContent(), { timeout: 15_000 }).toMatch(/Margin/);
    const send = form.locator('button.send');
    await expect.poll(() => send.getAttribute('aria-disabled'), { timeout: 15_000 }).toBe('false');
    expect(await form.getByTestId('send-reasons').count()).toBe(0);
    await shots(page, 'ticket-fno-fit');
    const fit = await form.evaluate((f) => ({ height: f.scrollHeight, room: f.clientHeight }));
    expect(fit.height).toBeLessThanOrEqual(fit.room);

    await page.getByLabel('Qty', { exact: true }).press('Enter');
    const question = page.getByRole('group', { name: 'Confirm the order' });
    await question.waitFor();
    // Real time: the desk ignores an Enter within CONFIRM_ARM_MS (300 ms) of the question opening.
    await page.waitForTimeout(350);
    await page.keyboard.press('Enter');
    // The answer follows the order's state: placed, then open or complete.
    await expect
      .poll(() => form.getByText(/^(Placed|Open|Complete)\b.* · order \S+$/).count(), { timeout: 10_000 })
      .toBe(1);
    const orders = (await invoke<OrdersView>(page, 'books.orders')).orders.filter(
      (o) => o.symbol === fut.symbol,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ action: 'BUY', quantity: fut.lotsize, exchange: 'NFO' });
  });

  it('a NIFTY option’s value, margin and reasons fit the ticket at 1280×720 too', async () => {
    const { page } = desk;
    const index = await invoke<{ data: { ltp: number } }>(page, 'market.quotes', {
      symbol: 'NIFTY',
      exchange: 'NSE_INDEX',
    });
    const strike = Math.round(index.data.ltp / 100) * 100;
    const found = await invoke<SearchResponse>(page, 'market.search', {
      query: `NIFTY ${strike} CE`,
      exchange: 'NFO',
    });
    const ce = nearestExpiry(
      found.data.filter((r) => r.name === 'NIFTY' && r.strike === strike && r.symbol.endsWith('CE')),
    );
    await pickInstrument(page, ce.symbol, new RegExp(`^NIFTY .* ${strike} CE$`));
    const form = page.getByRole('form', { name: 'Order ticket' });
    const estimate = form.getByRole('group', { name: 'Order value and margin estimate' });
    await expect.poll(() => estimate.textContent(), { timeout: 15_000 }).toMatch(/Value ₹[\d,]+\.\d{2}/);
    // A SELL of an option shows its own margin words; and a reason, to see all three together.
    await page.keyboard.press('F2');
    await page.getByLabel('Qty', { exact: true }).fill(String(ce.lotsize + 1));
    await form.getByTestId('send-reasons').waitFor();
    await page.screenshot({ path: join(SHOTS, 'scalper-ticket-option-fit-1280.png') });
    const fit = await form.evaluate((f) => ({ height: f.scrollHeight, room: f.clientHeight }));
    expect(fit.height).toBeLessThanOrEqual(fit.room);
    expect(await inViewport(page, form.getByTestId('send-reasons'))).toBe(true);
    await page.getByLabel('Qty', { exact: true }).fill(String(ce.lotsize));
    await page.keyboard.press('F1');
  });

  it('under a small limit the refusal stands beside the send button in view, and Enter says it again', async () => {
    const { page } = desk;
    const found = await invoke<SearchResponse>(page, 'market.search', { query: 'NIFTY', exchange: 'NFO' });
    const fut = nearestExpiry(found.data.filter((r) => r.name === 'NIFTY' && r.instrumenttype === 'FUTIDX'));
    await pickInstrument(page, fut.symbol, /^NIFTY \d+ [A-Z]{3} FUT$/);
    await invoke(page, 'settings.update', { risk: { maxValuePerOrder: 10_00_000 } });
    const form = page.getByRole('form', { name: 'Order ticket' });
    const block = form.getByTestId('send-block');
    const reason = block.getByText(/^Order value ₹[\d,]+\.\d{2} exceeds your limit of ₹10,00,000\.00$/);
    await reason.waitFor({ timeout: 15_000 });
    const send = block.locator('button.send');
    expect(await send.getAttribute('aria-disabled')).toBe('true');

    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      await renderedFrames(page);
      await page.getByLabel('Qty', { exact: true }).focus();
      await renderedFrames(page);
      // Both whole in the window, the reason just above the button.
      expect(await inViewport(page, reason), `reason at ${viewport.width}`).toBe(true);
      expect(await inViewport(page, send), `send at ${viewport.width}`).toBe(true);
      const r = (await reason.boundingBox())!;
      const s = (await send.boundingBox())!;
      expect(s.y - (r.y + r.height)).toBeGreaterThanOrEqual(0);
      expect(s.y - (r.y + r.height)).toBeLessThan(24);
      // No page scroll was needed for either; at 1280×720 the ticket does not scroll either.
      expect(await page.evaluate('document.scrollingElement.scrollTop')).toBe(0);
      if (viewport === WIDE) {
        const fit = await form.evaluate((f) => ({ height: f.scrollHeight, room: f.clientHeight }));
        expect(fit.height).toBeLessThanOrEqual(fit.room);
      }
    }
    await page.setViewportSize(WIDE);
    await renderedFrames(page);

    const before = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    const said = block.getByRole('alert');
    await expect.poll(() => said.textContent()).toMatch(/exceeds your limit of ₹10,00,000\.00/);
    await shots(page, 'ticket-reason');
    // Real time: an order sent would be in the gateway's book within this.
    await page.waitForTimeout(500);
    expect((await invoke<OrdersView>(page, 'books.orders')).orders.length).toBe(before);
    expect(desk.problems).toEqual([]);
  });
});
