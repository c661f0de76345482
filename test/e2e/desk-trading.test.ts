// The desk end to end, trading by keyboard against the embedded paper gateway: `/` search, F1/F2,
// quantity, Enter (and Enter on the confirmation) place an order; the order appears in Orders, fills,
// raises its alert (toast, Alerts tab with its unread count) and moves the position. A LIMIT order
// rests below the market, is modified in its row (M) and cancelled (C), each asked first. An order the
// gateway refuses for funds shows the gateway's sentence next to the ticket and in Alerts.
// Screenshots at 1280×720 and 420 px wide under test-results/.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, PositionsView } from '../../src-main/contract/index.js';
import { invoke, openDesk, renderedFrames, type Desk } from '../support/desk-harness.js';
import { PLACED_LINE } from '../support/ticket-lines.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-trading');
  page = desk.page;
  // Room for an order the gateway itself refuses for funds (the desk's own value limit is lower).
  await invoke(page, 'settings.update', {
    risk: { maxValuePerOrder: 1e11, maxQuantityPerOrder: 10_000_000 },
  });
});

afterAll(async () => {
  await desk?.stop();
});

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });
const tab = (name: string): Locator => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const table = (name: string): Locator => page.getByRole('grid', { name });
const dialog = (): Locator => page.getByRole('alertdialog');

/** `/`, the symbol, Enter: the ticket holds the instrument. */
async function pick(symbol: string): Promise<void> {
  // Focus on the page itself, not in a field: `/` is the desk's key there.
  await page.locator('body').press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type(symbol.toLowerCase());
  await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await expect.poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 }).toBe(symbol);
}

/** F1/F2, the quantity typed, the order type chosen, then Enter and Enter on the confirmation. */
async function send(
  key: 'F1' | 'F2',
  quantity: string,
  type: 'Market' | 'Limit',
  price?: string,
): Promise<void> {
  await page.keyboard.press(key);
  const qty = page.getByLabel('Qty', { exact: true });
  await qty.fill(quantity);
  await ticket().getByRole('radio', { name: type, exact: true }).check();
  if (price !== undefined) await page.getByLabel('Price', { exact: true }).fill(price);
  await qty.focus();
  await page.keyboard.press('Enter');
  const confirmBox = page.getByRole('group', { name: 'Confirm the order' });
  await confirmBox.waitFor({ timeout: 10_000 });
  // Real time: the confirmation ignores an Enter within CONFIRM_ARM_MS (300 ms) of opening.
  await page.waitForTimeout(350);
  await page.keyboard.press('Enter');
  await confirmBox.waitFor({ state: 'detached', timeout: 10_000 });
}

let lastPlaced = '';
/** The order id the ticket reports it placed: a new one, never the last order's still on show. */
async function placedId(): Promise<string> {
  const placed = ticket().getByText(PLACED_LINE);
  let id = '';
  await expect
    .poll(
      async () => {
        const text = (await placed.count()) > 0 ? await placed.textContent() : '';
        id = /order (\S+)/.exec(text ?? '')?.[1] ?? '';
        return id !== '' && id !== lastPlaced;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  lastPlaced = id;
  return id;
}

const row = (book: string, key: string): Locator => table(book).locator(`[data-row-key="${key}"]`);

describe('trading by keyboard in Chromium', { timeout: 60_000 }, () => {
  it('search, ticket, place by keyboard: the order appears, fills, alerts, and the position moves', async () => {
    await pick('INFY');
    await send('F1', '7', 'Market');
    const orderid = await placedId();
    await tab('Orders').click();
    await expect.poll(() => row('Orders', orderid).textContent(), { timeout: 15_000 }).toContain('complete');
    expect(await row('Orders', orderid).textContent()).toMatch(/BUY.*INFY.*7\/7/);
    // The fill's toast, and the Alerts tab counting it unread.
    const toast = page.getByTestId('alert').filter({ hasText: 'INFY' });
    await toast.first().waitFor({ timeout: 10_000 });
    expect(await toast.first().textContent()).toMatch(/BUY 7 INFY @ ₹[\d,]+\.\d{2} filled/);
    await expect.poll(() => tab('Alerts').textContent()).toMatch(/Alerts\s*\d+/);
    await tab('Positions').click();
    const position = table('Positions').getByRole('row').filter({ hasText: 'INFY' });
    await expect.poll(() => position.textContent(), { timeout: 15_000 }).toContain('+7');
    await desk.shots('placed-filled-position');
    await tab('Alerts').click();
    const alert = page.getByTestId('alert-row').filter({ hasText: orderid });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toContain('Filled');
    // Shown, the list counts as read.
    await expect.poll(() => tab('Alerts').textContent()).toBe('Alerts');
    const positions = await invoke<PositionsView>(page, 'books.positions');
    expect(positions.positions.find((p) => p.symbol === 'INFY' && p.product === 'CNC')?.quantity).toBe(7);
  });

  it('a LIMIT order rests below the market, is modified in its row, then cancelled, each asked first', async () => {
    await pick('SBIN');
    // Three percent under the last price: inside the desk's price band, far from a fill.
    const ltpText = (await ticket().getByLabel('Last price').textContent())?.replace(/[^\d.]/g, '') ?? '';
    const ltp = Number(ltpText);
    expect(ltp).toBeGreaterThan(0);
    const price = (Math.round((ltp * 0.97) / 0.05) * 0.05).toFixed(2);
    await send('F1', '3', 'Limit', price);
    const orderid = await placedId();
    await tab('Orders').click();
    const r = row('Orders', orderid);
    await expect.poll(() => r.textContent(), { timeout: 15_000 }).toContain('open');

    // M on the row: quantity and price become fields in the row; Enter asks, yes modifies.
    await r.click();
    await page.keyboard.press('m');
    const newQty = page.getByRole('textbox', { name: 'New quantity' });
    await newQty.waitFor();
    await newQty.fill('5');
    const newPrice = (Math.round((ltp * 0.96) / 0.05) * 0.05).toFixed(2);
    await page.getByRole('textbox', { name: 'New price' }).fill(newPrice);
    await desk.shots('modify-in-row');
    await newQty.press('Enter');
    await dialog().waitFor({ timeout: 10_000 });
    expect(await dialog().textContent()).toContain('Modify order?');
    await dialog().getByRole('button', { name: 'Modify order' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => r.textContent(), { timeout: 15_000 }).toContain('0/5');
    const modified = (await invoke<OrdersView>(page, 'books.orders')).orders.find(
      (o) => o.orderid === orderid,
    );
    expect(modified).toMatchObject({ quantity: 5, price: Number(newPrice), status: 'open' });

    // C on the row: asked, then cancelled.
    await r.click();
    await page.keyboard.press('c');
    await dialog().waitFor({ timeout: 10_000 });
    expect(await dialog().textContent()).toContain('Cancel order?');
    await dialog().getByRole('button', { name: 'Cancel order' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => r.textContent(), { timeout: 15_000 }).toContain('cancelled');
    await desk.shots('limit-cancelled');
  });

  it('an order the gateway refuses for funds: its sentence next to the ticket and in Alerts', async () => {
    await pick('SBIN');
    await send('F1', '50000', 'Market');
    const refusal = ticket().getByRole('alert');
    await expect.poll(() => refusal.textContent(), { timeout: 10_000 }).toContain('Insufficient funds');
    expect(await refusal.textContent()).toMatch(/^\s*Refused by the gateway: Insufficient funds/);
    await tab('Alerts').click();
    // One entry: the desk's refusal, or the core's rejection of the same order that replaces it (over
    // the gateway's WebSocket feed the rejection can arrive before the refusal's answer).
    const alert = page
      .getByTestId('alert-row')
      .filter({ hasText: /BUY 50,000 SBIN( NSE)? (refused|rejected)/ });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toMatch(/refused|rejected/i);
    expect(await alert.textContent()).toContain('Insufficient funds');
    await desk.shots('refused-funds');
    // As upstream, the gateway keeps the refused order in its book as rejected, with the same reason.
    const book = await invoke<OrdersView>(page, 'books.orders');
    const kept = book.orders.filter((o) => o.quantity === 50_000);
    expect(kept.map((o) => [o.status, o.filledQuantity])).toEqual([['rejected', 0]]);
    expect(kept[0]?.rejectionReason).toContain('Insufficient funds');
  });

  it('pause all: a fill while paused raises no alert; resumed, the next one does', async () => {
    await tab('Alerts').click();
    await page.getByRole('button', { name: 'Pause all alerts' }).click();
    await page.getByTestId('alerts-paused').waitFor();
    expect(await page.getByTestId('unread').textContent()).toContain('paused');
    const before = await page.getByTestId('alert-row').count();
    await pick('RELIANCE');
    await send('F1', '1', 'Market');
    const paused = await placedId();
    await expect
      .poll(
        async () =>
          (await invoke<OrdersView>(page, 'books.orders')).orders.find((o) => o.orderid === paused)?.status,
        {
          timeout: 15_000,
        },
      )
      .toBe('complete');
    // The watcher's poll that saw the fill raised any alert in the same turn as its orders.filled;
    // a bridge answer after that event comes after any alert frame, and two frames draw it.
    await expect
      .poll(() => desk.framesToPage.some((f) => f.includes('"orders.filled"') && f.includes(paused)), {
        timeout: 15_000,
      })
      .toBe(true);
    await invoke(page, 'settings.get');
    await renderedFrames(page);
    expect(desk.framesToPage.filter((f) => f.includes('"alerts.raised"') && f.includes(paused))).toEqual([]);
    expect(await page.getByTestId('alert-row').filter({ hasText: paused }).count()).toBe(0);
    expect(await page.getByTestId('alert-row').count()).toBe(before);
    await page.getByRole('button', { name: 'Resume alerts' }).click();
    await page.getByTestId('alerts-paused').waitFor({ state: 'detached' });
    await send('F1', '2', 'Market');
    const resumed = await placedId();
    await expect
      .poll(() => page.getByTestId('alert-row').filter({ hasText: resumed }).count(), { timeout: 15_000 })
      .toBe(1);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
