// GTT orders end to end in Chromium against the embedded paper gateway: a single GTT placed from the
// ticket's GTT mode, seen in the GTT tab, modified there (the gateway's book shows the change) and
// cancelled (the gateway's book shows it cancelled); an OCO placed too. Screenshots of the mode and
// the tab at 1280×720 and 420 px wide under test-results/.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GttBookView } from '../../src-main/contract/index.js';
import { invoke, ltpOf, openDesk, pickInstrument, priceAway, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-gtt');
  page = desk.page;
  // Enter places at once; modify and cancel still ask (the confirmation is part of the flow).
  await invoke(page, 'settings.update', { confirmations: { place: false, modify: true, cancel: true } });
});

afterAll(async () => {
  await desk?.stop();
});

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });

const pick = (symbol: string): Promise<void> => pickInstrument(page, symbol);

/** `what` is shown whole inside the ticket column's box (the column as it is scrolled now). */
async function expectInColumn(what: Locator): Promise<void> {
  const column = await ticket().boundingBox();
  const box = await what.boundingBox();
  if (!column || !box) throw new Error('the ticket column or the element is not shown');
  expect(box.y).toBeGreaterThanOrEqual(column.y);
  expect(box.y + box.height).toBeLessThanOrEqual(column.y + column.height);
}

const sendButton = (): Locator => ticket().getByRole('button', { name: /^GTT (BUY|SELL) / });
/** How far the ticket column scrolls (0: all of it in sight). */
const overflow = (): Promise<number> => ticket().evaluate((f) => f.scrollHeight - f.clientHeight);

async function book(): Promise<GttBookView['gtts']> {
  return (await invoke<GttBookView>(page, 'gtt.book', { status: 'all' })).gtts;
}

describe('GTT orders in Chromium', { timeout: 90_000 }, () => {
  it('places a GTT from the ticket, shows it in the GTT tab, modifies it and cancels it', async () => {
    await pick('SBIN');
    await ticket().getByRole('group', { name: 'Ticket mode' }).getByRole('radio', { name: 'GTT' }).check();
    await page.getByLabel('Qty', { exact: true }).fill('25');
    const ltp = await ltpOf(page, 'SBIN');
    const trigger = priceAway(ltp, -3);
    await page.getByLabel('Trigger', { exact: true }).fill(trigger);
    await page.getByLabel('Limit price').fill(priceAway(ltp, -2.9));
    await expect.poll(() => page.getByTestId('gtt-summary').textContent()).toContain('trigger');
    await expectInColumn(sendButton());
    expect(await overflow()).toBeLessThanOrEqual(0);
    await desk.shots('gtt-mode');
    await page.getByLabel('Limit price').press('Enter');
    await expect
      .poll(
        () =>
          ticket()
            .getByText(/GTT placed: GTT-\d{6}-[0-9a-f]{8}/)
            .count(),
        { timeout: 10_000 },
      )
      .toBe(1);
    const [placed] = await book();
    expect(placed).toMatchObject({ symbol: 'SBIN', status: 'active', trigger_type: 'single' });
    expect(placed?.trigger_prices).toEqual([Number(trigger)]);
    const id = placed?.trigger_id ?? '';

    // An OCO too, so the tab shows both kinds.
    await ticket().getByRole('group', { name: 'GTT type' }).getByText('OCO', { exact: true }).click();
    await page.getByLabel('SL trigger').fill(priceAway(ltp, -5));
    await page.getByLabel('SL limit').fill(priceAway(ltp, -5.2));
    await page.getByLabel('Target trigger').fill(priceAway(ltp, 5));
    await page.getByLabel('Target limit').fill(priceAway(ltp, 5.2));
    // The OCO ticket fits its column at 1280×720: the send button whole, nothing scrolled away.
    await expectInColumn(sendButton());
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByLabel('Target limit').press('Enter');
    await expect.poll(async () => (await book()).length, { timeout: 10_000 }).toBe(2);
    const placedLine = ticket().getByText(/GTT placed: GTT-/);
    await expectInColumn(placedLine);

    await page.getByRole('tab', { name: /^GTT/ }).click();
    const table = page.getByRole('grid', { name: 'GTT orders' });
    await expect.poll(() => table.locator('[data-row-key]').count(), { timeout: 10_000 }).toBe(2);
    const row = table.locator(`[data-row-key="${id}"]`);
    expect(await row.locator('.book-side').textContent()).toBe('BUY');
    // The OCO ticket fits its column at 1280×720 beside the open tab: the send button whole and
    // inside the column's box, nothing of the ticket scrolled away.
    // Beside the open tab too: the button and what the send did, in the column's box.
    await expectInColumn(sendButton());
    await expectInColumn(placedLine);
    await desk.shots('gtt-tab');

    // Modify: the trigger moves a little further away, the quantity doubles.
    await row.getByRole('button', { name: `Modify GTT ${id}` }).click();
    const form = page.getByRole('form', { name: `Modify GTT ${id}` });
    const newTrigger = priceAway(ltp, -4);
    await form.getByLabel('Qty').fill('50');
    await form.getByLabel('Trigger').fill(newTrigger);
    await desk.shots('gtt-modify');
    await form.getByLabel('Trigger').press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Modify GTT' }).click();
    await expect
      .poll(async () => (await book()).find((g) => g.trigger_id === id)?.trigger_prices, { timeout: 10_000 })
      .toEqual([Number(newTrigger)]);
    expect((await book()).find((g) => g.trigger_id === id)?.legs[0]?.quantity).toBe(50);

    // Cancel: asks first, then the gateway's book shows it cancelled and the tab drops it.
    await row.getByRole('button', { name: `Cancel GTT ${id}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel GTT' }).click();
    await expect
      .poll(async () => (await book()).find((g) => g.trigger_id === id)?.status, { timeout: 10_000 })
      .toBe('cancelled');
    await expect.poll(() => table.locator('[data-row-key]').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('group', { name: 'Show GTTs' }).getByRole('button', { name: 'All' }).click();
    await expect.poll(() => table.locator('[data-row-key]').count(), { timeout: 10_000 }).toBe(2);
    await desk.shots('gtt-tab-all');
    expect(desk.problems).toEqual([]);
  });
});
