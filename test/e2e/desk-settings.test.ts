// The Settings pane end to end in Chromium against the embedded paper gateway: a risk limit changed in
// the form is what the ticket's next order is refused by; the light theme applies at once (screenshots
// of both themes, an axe scan of each); a daily order count of 2 refuses the third entry while an
// exit (selling the position back) still goes out, and the pane shows where the count stands.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeApi, PositionsView } from '../../src-main/contract/index.js';
import { invoke, openDesk, renderedFrames, type Desk } from '../support/desk-harness.js';
import { ORDER_LINE, PLACED_LINE } from '../support/ticket-lines.js';

// What the page.evaluate callbacks use, as seen from this file (it has no DOM types).
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  body: unknown;
};
declare function getComputedStyle(el: unknown): { backgroundColor: string };
declare const window: { bridge: BridgeApi };

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-settings');
  page = desk.page;
  // Enter sends at once: these tests are about what the limits let out, not the confirmation step.
  await invoke(page, 'settings.update', { confirmations: { place: false } });
});

afterAll(async () => {
  await desk?.stop();
});

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });
const settings = (): Locator => page.getByTestId('settings-pane');

async function openSettings(section: 'risk' | 'appearance' | 'notifications' | 'keys' | 'profiles') {
  await page.getByRole('tab', { name: /Settings$/ }).click();
  await settings().waitFor({ timeout: 10_000 });
  await page.getByTestId(`settings-tab-${section}`).click();
}

/** `/`, the symbol, Enter: the ticket holds the instrument. */
async function pick(symbol: string): Promise<void> {
  await page.locator('body').press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type(symbol.toLowerCase());
  await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await expect.poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 }).toBe(symbol);
}

/** F1/F2, a MARKET quantity, Enter; returns the ticket's outcome line once it changes. */
/** The core's own position in `symbol` as its watcher last published it to the page (books.positions). */
function publishedPosition(symbol: string): number | undefined {
  const last = desk.framesToPage.filter((f) => f.includes('"books.positions"')).at(-1);
  if (last === undefined) return undefined;
  const event = JSON.parse(last) as { payload: { view: PositionsView } };
  return event.payload.view.positions.find((p) => p.symbol === symbol)?.quantity ?? 0;
}

async function send(key: 'F1' | 'F2', quantity: string): Promise<string> {
  await page.keyboard.press(key);
  const qty = page.getByLabel('Qty', { exact: true });
  await qty.fill(quantity);
  await ticket().getByRole('radio', { name: 'Market', exact: true }).check();
  const before = await outcome();
  await qty.focus();
  await page.keyboard.press('Enter');
  let now = '';
  try {
    await expect
      .poll(
        async () => {
          now = await outcome();
          return now !== '' && now !== before;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  } catch (err) {
    await page.screenshot({ path: 'test-results/desk-settings-send-failed.png' });
    throw new Error(`the ticket's outcome stayed "${now}" after ${key} ${quantity}`, {
      cause: err,
    });
  }
  return now;
}

async function outcome(): Promise<string> {
  const line = ticket().getByText(new RegExp(`^(${ORDER_LINE} \\S+|Refused by .*|Held back by .*)$`));
  return (await line.count()) > 0 ? ((await line.first().textContent()) ?? '') : '';
}

async function riskField(id: string, value: string): Promise<void> {
  await page.getByTestId(`risk-${id}`).fill(value);
}

async function saveRisk(): Promise<void> {
  await page.getByTestId('risk-save').click();
  await page.getByTestId('risk-saved').waitFor({ timeout: 10_000 });
}

/** Serious and critical axe violations over the whole page (the table column grips included). */
async function axeSerious(where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0)
    console.log(
      `axe ${where}:`,
      JSON.stringify(
        bad.map((v) => ({
          id: v.id,
          nodes: v.nodes
            .slice(0, 4)
            .map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? n.failureSummary ?? ''}`),
        })),
        null,
        1,
      ),
    );
  return bad.map((v) => v.id);
}

describe('settings in Chromium', { timeout: 90_000 }, () => {
  it('a risk limit changed in Settings is what the ticket refuses by; a bad value is refused beside its field', async () => {
    await openSettings('risk');
    // Not a number: the reason shows beside the field, nothing is saved.
    await riskField('maxQuantityPerOrder', 'five');
    await page.getByTestId('risk-save').click();
    await expect
      .poll(() => page.getByTestId('risk-maxQuantityPerOrder-problem').textContent())
      .toBe('Max quantity per order: "five" is not a whole number');
    // Main's own bound, named by field: at least 1.
    await riskField('maxQuantityPerOrder', '0');
    await page.getByTestId('risk-save').click();
    await expect
      .poll(() => page.getByTestId('risk-maxQuantityPerOrder-problem').textContent())
      .toBe('Max quantity per order must be at least 1');
    await riskField('maxQuantityPerOrder', '5');
    await saveRisk();
    await desk.shots('settings-risk-dark');

    await pick('INFY');
    // The ticket reads the saved limit and refuses before sending: the reason under the quantity.
    await page.keyboard.press('F1');
    await page.getByLabel('Qty', { exact: true }).fill('6');
    await ticket().getByRole('radio', { name: 'Market', exact: true }).check();
    const reason = ticket().getByText('Quantity 6 exceeds your limit of 5 per order', { exact: true });
    await reason.waitFor({ timeout: 10_000 });
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    // Real time: an order the ticket let through would reach the book within this.
    await page.waitForTimeout(500);
    expect(await outcome()).toBe('');
    expect((await invoke<{ orders: unknown[] }>(page, 'books.orders')).orders).toHaveLength(0);
    // Past the ticket (a pane, a script, the CLI), the core refuses by the same limit.
    const direct = await page.evaluate(() =>
      window.bridge.invoke('orders.place', { symbol: 'INFY', exchange: 'NSE', action: 'BUY', quantity: 6 }),
    );
    expect(direct).toMatchObject({
      ok: false,
      error: { kind: 'risk', message: 'Quantity 6 exceeds your limit of 5 per order' },
    });
    await desk.shots('settings-risk-refused');
    // Within the limit, the same ticket places.
    expect(await send('F1', '5')).toMatch(PLACED_LINE);
  });

  it('the light theme applies at once and keeps contrast (axe), then dark again', async () => {
    await openSettings('appearance');
    expect(await axeSerious('settings dark')).toEqual([]);
    await page.getByTestId('theme-light').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    // The tokens changed: the page background is the light one.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(233, 237, 242)',
    );
    await desk.shots('settings-light');
    expect(await axeSerious('settings light')).toEqual([]);
    // Every section keeps contrast in light.
    for (const section of ['risk', 'profiles', 'notifications', 'keys'] as const) {
      await page.getByTestId(`settings-tab-${section}`).click();
      expect(await axeSerious(`settings ${section} light`), section).toEqual([]);
    }
    await page.getByTestId('settings-tab-risk').click();
    await desk.shots('settings-risk-light');
    await page.getByRole('tab', { name: /^Orders/ }).click();
    await page.getByRole('tab', { name: /^Depth/ }).click();
    // The depth's bid and ask prices are in the scan and the picture (their tints are theme tokens).
    await pick('SBIN');
    await page.locator('td.buy.price button').first().waitFor({ timeout: 15_000 });
    await desk.shots('theme-light');
    expect(await axeSerious('desk light')).toEqual([]);
    // Remembered: a reload comes back light.
    await page.reload();
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    await openSettings('appearance');
    await page.getByTestId('theme-dark').check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await page.getByRole('tab', { name: /^Depth/ }).click();
    await pick('SBIN');
    await page.locator('td.buy.price button').first().waitFor({ timeout: 15_000 });
    await desk.shots('theme-dark');
  });

  it('at the daily order count the next entry is refused, an exit is still accepted', async () => {
    await openSettings('risk');
    // The count started with this run: the first test's order is in it, unless the IST day changed
    // since (it starts again at midnight IST, and CI can run across it). The limit leaves one more.
    const before = Number(await page.getByTestId('daily-orders').textContent());
    expect(before).toBeGreaterThanOrEqual(0);
    const limit = before + 1;
    await riskField('maxQuantityPerOrder', '10000');
    await riskField('dailyOrderCount', String(limit));
    await saveRisk();
    await expect.poll(() => page.getByTestId('daily-orders').textContent()).toBe(`${before} of ${limit}`);

    await pick('SBIN');
    expect(await send('F1', '2')).toMatch(PLACED_LINE);
    const over = await send('F1', '3');
    expect(over).toMatch(
      new RegExp(
        `^Refused by your risk limits: Daily order count reached: ${limit} of ${limit} orders sent today; only exits .*\\(a soft limit, held while OrderDesk runs\\)$`,
      ),
    );

    // Selling what was bought reduces the position: an exit, let out past the count.
    await expect
      .poll(
        async () => {
          const p = await invoke<PositionsView>(page, 'books.positions');
          return p.positions.find((x) => x.symbol === 'SBIN')?.quantity ?? 0;
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    // The core reads positions on its own poll: wait until it has published the fill's position.
    await expect.poll(() => publishedPosition('SBIN'), { timeout: 15_000 }).toBe(2);
    expect(await send('F2', '2')).toMatch(PLACED_LINE);

    await openSettings('risk');
    await expect.poll(() => page.getByTestId('daily-orders').textContent()).toBe(`${limit + 1} of ${limit}`);
    expect(await page.getByTestId('daily-reached').textContent()).toMatch(
      /^Daily order count reached: only exits/,
    );
    await page.getByTestId('daily-status').scrollIntoViewIfNeeded();
    await desk.shots('settings-daily-limit');
  });

  it('notification rules and keys: each section saves and shows what it saved', async () => {
    await openSettings('notifications');
    await page.getByTestId('rule-partial-sound').check();
    await expect
      .poll(() => page.getByTestId('rules-saved').textContent())
      .toBe('Saved · Partial fill: sound');
    const s = await invoke<{ alerts: { partial: string } }>(page, 'settings.get');
    expect(s.alerts.partial).toBe('sound');
    await desk.shots('settings-notifications');

    // Profiles: the active profile's strategy tag and rate limit; a rate main cannot take is named.
    await openSettings('profiles');
    // The form fills itself from the profile when it arrives: type only once it has.
    await expect.poll(() => page.getByTestId('details-strategy').inputValue()).not.toBe('');
    await page.getByTestId('details-rate').fill('500');
    await page.getByTestId('details-save').click();
    await expect
      .poll(() => page.getByTestId('details-rate-note').textContent())
      .toBe('Rate limit: 1 to 100 requests a second');
    await page.getByTestId('details-rate').fill('8');
    await page.getByTestId('details-strategy').fill('Scalper');
    await page.getByTestId('details-save').click();
    await expect
      .poll(async () => {
        const list = await invoke<{
          profiles: { id: string; strategy: string; rateLimitPerSecond: number }[];
        }>(page, 'profiles.list');
        const paper = list.profiles.find((p) => p.id === 'paper');
        return `${paper?.strategy} ${paper?.rateLimitPerSecond}`;
      })
      .toBe('Scalper 8');
    // A new rate limit reopens the profile's client: the desk is connected again shortly after.
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 15_000 });
    await desk.shots('settings-profiles');

    await openSettings('keys');
    const change = page.getByTestId('hotkey-change-ticket.buy');
    await change.click();
    await page.keyboard.press('F2');
    await expect.poll(() => page.getByTestId('hotkey-conflicts').textContent()).toMatch(/F2/);
    await desk.shots('settings-keys-conflict');
    // Nothing was saved: Buy keeps F1 (the narrow screenshot remounted the pane: open Keys again).
    await openSettings('keys');
    expect(await page.getByTestId('hotkey-keys-ticket.buy').textContent()).toBe('F1');
    expect(desk.problems).toEqual([]);
  });

  it('a key remapped in Settings works at once, and the old key no longer does', async () => {
    await openSettings('keys');
    const change = page.getByTestId('hotkey-change-ticket.buy');
    await change.click();
    await page.keyboard.press('Control+b');
    await expect
      .poll(() => page.getByTestId('hotkey-note').textContent())
      .toBe('Saved · Buy the focused instrument: Ctrl+B');
    expect(await page.getByTestId('hotkey-keys-ticket.buy').textContent()).toMatch(/^Ctrl\+B/);
    const buy = ticket().getByRole('radio', { name: /^BUY/ });
    // The ticket's own label follows the map.
    await expect.poll(() => ticket().locator('label.buy kbd').textContent()).toBe('Ctrl+B');
    await page.locator('body').press('Escape');
    await page.keyboard.press('F2');
    await expect.poll(() => buy.isChecked()).toBe(false);
    await page.locator('body').press('Escape');
    await page.keyboard.press('Control+b');
    await expect.poll(() => buy.isChecked()).toBe(true);
    await page.keyboard.press('F2');
    await expect.poll(() => buy.isChecked()).toBe(false);
    // F1 was Buy's only key before; remapped, it buys nothing.
    await page.locator('body').press('Escape');
    await page.keyboard.press('F1');
    // The key is handled as it is pressed: two drawn frames later the ticket shows what it did.
    await renderedFrames(page);
    expect(await buy.isChecked()).toBe(false);
    await desk.shots('settings-keys-remapped');
    // Reset all: F1 buys again.
    await openSettings('keys');
    await page.getByTestId('hotkey-reset-all').click();
    await expect.poll(() => page.getByTestId('hotkey-keys-ticket.buy').textContent()).toBe('F1');
  });
});
