// An unknown outcome end to end: a live profile on a standalone paper gateway started with the
// test-only `--fault-place-delay-ms`, so the gateway places the order at once but answers only after
// the core's 15 s mutation timeout. The desk says the outcome is unknown and shows "reconciling" in the
// ticket, the orders book and Alerts, still after a reload of the page, then the settled state once
// the core reads the book; the gateway's order book holds exactly one order (nothing was resent).
// Screenshots at 1280×720 and 420 px wide under test-results/.
import { rmSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoke,
  openDesk,
  startPaper,
  tempDir,
  type Desk,
  type PaperProcess,
} from '../support/desk-harness.js';

const KEY = 'fedcba9876543210'.repeat(4);
/** Longer than the core's 15 s mutation timeout: the answer never arrives in time. */
const HOLD_MS = 20_000;
/** The watcher's polls, slowed so the reconciling state lasts long enough to reload the page in it. */
const POLL_MS = 6000;
const QTY = 3;

let desk: Desk;
let page: Page;
let gateway: PaperProcess;
let paperDir: string;

beforeAll(async () => {
  desk = await openDesk('desk-unknown');
  page = desk.page;
  paperDir = tempDir('desk-unknown-paper');
  gateway = await startPaper(paperDir, KEY, 0, 30_000, ['--fault-place-delay-ms', String(HOLD_MS)]);
  const list = await invoke<{ profiles: { id: string; name: string }[] }>(page, 'profiles.add', {
    name: 'Slow gateway',
    baseUrl: gateway.url,
  });
  const id = list.profiles.find((p) => p.name === 'Slow gateway')!.id;
  await invoke(page, 'apiKey.set', { profileId: id, key: KEY });
  await invoke(page, 'settings.update', {
    confirmations: { place: false },
    polling: { visibleMs: POLL_MS, openOrdersMs: POLL_MS },
  });
  await invoke(page, 'profiles.switch', { id });
  await page
    .getByTestId('mode')
    // A paper gateway run on its own reports analyze mode: SANDBOX, not LIVE.
    .filter({ hasText: /^SANDBOX$/ })
    .waitFor({ timeout: 15_000 });
  await connected();
}, 90_000);

afterAll(async () => {
  await desk?.stop();
  await gateway?.stop();
  if (paperDir) rmSync(paperDir, { recursive: true, force: true });
});

const connected = () =>
  page.getByTestId('connection').and(page.locator('[data-state="connected"]')).waitFor({ timeout: 30_000 });
const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });
const tab = (name: string): Locator => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const floating = (): Locator =>
  page
    .getByRole('tabpanel')
    .getByRole('status')
    .filter({
      hasText: /reconciling\.*\s*Order placement: outcome unknown — reconciling from the order book/,
    });
const alertRow = (): Locator => page.getByTestId('alert-row').filter({ hasText: 'Order placement' });

/** The gateway's own order book for the account (straight HTTP, not through the desk). */
async function gatewayOrders(): Promise<{ orderid: string; symbol: string; quantity: number }[]> {
  const r = await fetch(`${gateway.url}/api/v1/orderbook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: KEY }),
  });
  const body = (await r.json()) as {
    data: { orders: { orderid: string; symbol: string; quantity: number }[] };
  };
  return body.data.orders;
}

describe('an order whose answer never comes', { timeout: 120_000 }, () => {
  it('shows reconciling (also after a reload), then how it settled; the gateway holds one order', async () => {
    expect(await gatewayOrders()).toEqual([]);
    await page.locator('body').press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 })
      .toBe('SBIN');
    await page.keyboard.press('F1');
    const qty = page.getByLabel('Qty', { exact: true });
    await qty.fill(String(QTY));
    await ticket().getByRole('radio', { name: 'Market', exact: true }).check();
    await qty.focus();
    const sentAt = Date.now();
    await page.keyboard.press('Enter');

    // The gateway has the order at once; the desk is still waiting for its answer.
    await expect.poll(async () => (await gatewayOrders()).length, { timeout: 5000 }).toBe(1);
    await expect
      .poll(() =>
        ticket()
          .getByRole('button', { name: /^Sending/ })
          .count(),
      )
      .toBe(1);

    // Past the core's timeout: unknown, reconciling in the ticket, the orders book and Alerts.
    const unknown = ticket().getByText(
      /^Sent, no answer from the gateway: outcome unknown — reconciling from the order book$/,
    );
    await unknown.waitFor({ timeout: 25_000 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(14_000);
    await tab('Orders').click();
    await floating().waitFor({ timeout: 3000 });
    await desk.shots('unknown-reconciling');

    // A reload while it is pending: the snapshot brings the reconciling marker back at once.
    await page.reload();
    await connected();
    await tab('Orders').click();
    await floating().waitFor({ timeout: 3000 });
    await tab('Alerts').click();
    expect(await alertRow().textContent()).toContain('outcome unknown, reconciling');

    // The core reads the book and settles it: took effect, the order in the book, nothing resent.
    await expect
      .poll(() => alertRow().textContent(), { timeout: 4 * POLL_MS + 10_000 })
      .toContain('Order placement: took effect');
    const orders = await gatewayOrders();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ symbol: 'SBIN', quantity: QTY });
    expect(await alertRow().textContent()).toContain(orders[0]!.orderid);
    await tab('Orders').click();
    expect(await floating().count()).toBe(0);
    const row = page.getByRole('grid', { name: 'Orders' }).locator(`[data-row-key="${orders[0]!.orderid}"]`);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/BUY.*SBIN/);
    await tab('Alerts').click();
    await desk.shots('unknown-settled');
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
