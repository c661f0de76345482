// The desk's one key map and the watchlist's inline rename, in Chromium against the embedded paper
// gateway: a remap saved in settings (here through the bridge, as the Settings pane saves it) moves
// the ticket's keys at once, inside the ticket and from anywhere in the window; a preset switch
// (Kite) changes them again; a watchlist is renamed by keyboard, a duplicate name is refused with its
// reason, and the new name survives a reload. Screenshots under test-results/.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src-main/contract/index.js';
import { SHOTS, invoke, openDesk, type Desk } from '../support/desk-harness.js';

// The page's global, as functions page.evaluate runs in the page see it (this file has no DOM types).
declare const document: { activeElement: { id: string; textContent: string | null } | null };

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-keys');
  page = desk.page;
});

afterAll(async () => {
  await desk?.stop();
});

const ticket = (): Locator => page.getByRole('form', { name: 'Order ticket' });
const side = async (): Promise<string> =>
  (await ticket().getByRole('radio', { name: /BUY/ }).isChecked()) ? 'BUY' : 'SELL';
const buyCap = (): Locator => ticket().locator('label.buy kbd');
const tabs = (): Promise<string[]> =>
  page.getByRole('tablist', { name: 'Watchlists' }).getByRole('tab').allTextContents();

describe('one key map for the window', { timeout: 60_000 }, () => {
  it('F1 remapped to Shift+F9 in settings: the new chord buys in the ticket and from outside it, F1 no longer', async () => {
    await page.locator('body').press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => ticket().locator('.name').first().textContent(), { timeout: 10_000 })
      .toBe('SBIN');
    expect(await buyCap().textContent()).toBe('F1');

    await invoke(page, 'settings.update', { hotkeys: { overrides: { 'ticket.buy': ['Shift+F9'] } } });
    await expect.poll(() => buyCap().textContent(), { timeout: 5000 }).toBe('Shift+F9');

    // In the quantity field.
    const qty = page.getByLabel('Qty', { exact: true });
    await qty.focus();
    await page.keyboard.press('F2');
    expect(await side()).toBe('SELL');
    await page.keyboard.press('F1');
    expect(await side()).toBe('SELL');
    await page.keyboard.press('Shift+F9');
    expect(await side()).toBe('BUY');

    // From outside the ticket (a watchlist tab has focus): the ticket turns and takes the focus.
    await page.getByRole('tab', { name: '1', exact: true }).focus();
    await page.keyboard.press('F2');
    expect(await side()).toBe('SELL');
    await page.getByRole('tab', { name: '1', exact: true }).focus();
    await page.keyboard.press('F1');
    expect(await side()).toBe('SELL');
    await page.keyboard.press('Shift+F9');
    expect(await side()).toBe('BUY');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe(await qty.getAttribute('id'));
    await page.screenshot({ path: join(SHOTS, 'desk-keys-remapped-1280.png') });
  });

  it('the Kite preset: Shift+B buys, Shift+S sells, and the ticket shows those keys', async () => {
    await invoke(page, 'settings.update', { hotkeys: { preset: 'kite', overrides: {} } });
    await expect.poll(() => buyCap().textContent(), { timeout: 5000 }).toBe('Shift+B');
    await page.getByRole('tab', { name: '1', exact: true }).focus();
    await page.keyboard.press('Shift+S');
    expect(await side()).toBe('SELL');
    await page.getByRole('tab', { name: '1', exact: true }).focus();
    await page.keyboard.press('Shift+B');
    expect(await side()).toBe('BUY');
    // Typing a capital B in a text field stays typing.
    const search = page.getByLabel('Instrument search');
    await search.fill('');
    await search.focus();
    await page.keyboard.press('Shift+S');
    expect(await search.inputValue()).toBe('S');
    expect(await side()).toBe('BUY');
    await search.fill('');
    await invoke(page, 'settings.update', { hotkeys: { preset: 'nest', overrides: {} } });
    await expect.poll(() => buyCap().textContent(), { timeout: 5000 }).toBe('F1');
  });
});

describe('renaming a watchlist', { timeout: 60_000 }, () => {
  it('by keyboard: a duplicate name is refused with its reason, Enter saves, the name survives a reload', async () => {
    await page.getByRole('button', { name: 'Rename watchlist 1' }).focus();
    await page.keyboard.press('Enter');
    const editor = page.getByRole('textbox', { name: 'New name for watchlist 1' });
    await editor.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    const reason = page.locator('#watchlist-name-problem');
    expect(await reason.textContent()).toContain('Another watchlist (tab 2) is already called 2');
    await page.keyboard.press('Enter');
    expect(await editor.isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'desk-watchlist-rename-refused-1280.png') });

    await page.keyboard.press('Control+A');
    await page.keyboard.type('Banks');
    await page.keyboard.press('Enter');
    await expect.poll(tabs).toEqual(['Banks', '2', '3', '4', '5']);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Banks');
    await page.screenshot({ path: join(SHOTS, 'desk-watchlist-renamed-1280.png') });

    await page.reload();
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    await expect.poll(tabs, { timeout: 10_000 }).toEqual(['Banks', '2', '3', '4', '5']);
    const saved = await invoke<Settings>(page, 'settings.get');
    expect(saved.watchlists.map((l) => l.name)).toEqual(['Banks', '2', '3', '4', '5']);
    // The first start's list, kept through the rename: two indices, the near NIFTY future, six large caps.
    expect(saved.watchlists[0]?.items.length).toBe(9);

    // Esc leaves the name as it is.
    await page.getByRole('button', { name: 'Rename watchlist Banks' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Momentum');
    await page.keyboard.press('Escape');
    await expect.poll(tabs).toEqual(['Banks', '2', '3', '4', '5']);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
