// The right contract first, in Chromium through browser mode against the embedded paper gateway:
// `/`, `nifty fut`, Enter loads the NEAREST NIFTY future (the expected one worked out from the
// gateway's own search answer, by date), the same for BANKNIFTY at 420 px; the option chain shows IV
// and delta per leg with every default column in view at 1280×720 (no sideways scroll; columns the
// pane has no room for are dropped and counted), and its column chooser, reached by keyboard, adds
// gamma and is remembered. Shots: test-results/scalper-search-fut-*.png, scalper-chain-greeks-*.png
// (1280×720, 420 px), scalper-chain-columns-1280.png and scalper-chain-fit-narrow-1280.png.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse, Settings } from '../../src-main/contract/index.js';
import { invoke, NARROW, nearestExpiry, openDesk, SHOTS, WIDE, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('scalper-contracts');
  page = desk.page;
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

/** The underlying's nearest future, from the gateway's own answer to the query the trader types. */
async function nearestFuture(name: string): Promise<{ symbol: string; shown: string }> {
  const answer = await invoke<SearchResponse>(page, 'market.search', { query: `${name.toLowerCase()} fut` });
  const futures = answer.data.filter(
    (r) => r.name === name && r.exchange === 'NFO' && r.symbol.endsWith('FUT'),
  );
  expect(futures.length).toBeGreaterThan(1);
  const nearest = nearestExpiry(futures);
  const [d, m] = nearest.expiry.split('-');
  return { symbol: nearest.symbol, shown: `${name} ${d} ${m} FUT` };
}

const ticketName = (): Locator => page.getByRole('form', { name: 'Order ticket' }).locator('.name').first();

/** `/`, the query typed, the list open: its first row's text. */
async function searchFor(query: string): Promise<string> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press('/');
  await page.keyboard.type(query);
  const list = page.getByRole('listbox', { name: 'Matching instruments' });
  await list.waitFor({ timeout: 10_000 });
  await expect.poll(() => list.getByRole('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
  return (await list.getByRole('option').first().locator('.name').textContent()) ?? '';
}

describe('the right contract first', () => {
  it('nifty fut ⏎ loads the nearest NIFTY future; banknifty fut ⏎ at 420 px the nearest BANKNIFTY', async () => {
    const nifty = await nearestFuture('NIFTY');
    expect(await searchFor('nifty fut')).toBe(nifty.shown);
    await page.screenshot({ path: join(SHOTS, 'scalper-search-fut-1280.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => ticketName().textContent(), { timeout: 10_000 }).toBe(nifty.shown);

    await page.setViewportSize(NARROW);
    const bank = await nearestFuture('BANKNIFTY');
    expect(await searchFor('banknifty fut')).toBe(bank.shown);
    await page.screenshot({ path: join(SHOTS, 'scalper-search-fut-420.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => ticketName().textContent(), { timeout: 10_000 }).toBe(bank.shown);
    await page.setViewportSize(WIDE);
  });
});

const columnsButton = (): Locator => page.getByRole('button', { name: /^Columns/ });

/** The chain's table and pane widths, and the column heads not wholly in the pane. */
function chainView(): Promise<{ table: number; room: number; cut: string[] }> {
  return page.evaluate(`(() => {
    const s = document.querySelector('.chain .scroll');
    const box = s.getBoundingClientRect();
    const cut = Array.from(document.querySelectorAll('.chain thead tr:last-child th'))
      .filter((t) => { const r = t.getBoundingClientRect(); return r.left < box.left - 1 || r.right > box.right + 1; })
      .map((t) => t.textContent.trim());
    return { table: s.scrollWidth, room: s.clientWidth, cut };
  })()`);
}

describe('the chain with greeks', () => {
  it('shows IV and delta per leg; the Columns menu by keyboard adds gamma, and it is remembered', async () => {
    await page.getByRole('tab', { name: 'Chain', exact: true }).click();
    const grid = page.getByRole('grid', { name: /option chain/ });
    await grid.waitFor({ timeout: 20_000 });
    const heads = () => grid.locator('thead tr:last-child th').allTextContents();
    await expect
      .poll(async () => (await heads()).map((h) => h.trim()), { timeout: 10_000 })
      .toEqual([
        'OI',
        'Delta',
        'IV',
        'LTP',
        'Bid',
        'Ask',
        'Strike',
        'Bid',
        'Ask',
        'LTP',
        'IV',
        'Delta',
        'OI',
      ]);
    const atm = grid.locator('tbody tr.atm');
    const callIv = atm.locator('td.greek.iv').first();
    await expect.poll(() => callIv.textContent(), { timeout: 15_000 }).toMatch(/^\d+\.\d%$/);
    // Every default column in view at 1280×720: no sideways scroll, nothing cut at an edge, nothing
    // counted as hidden, and change % under each LTP.
    const view = await chainView();
    console.log(`chain at 1280: table ${view.table} px in ${view.room} px; cut: ${view.cut.join(', ')}`);
    expect(view.table).toBeLessThanOrEqual(view.room);
    expect(view.cut).toEqual([]);
    expect(await columnsButton().textContent()).toBe('Columns');
    await expect
      .poll(() => atm.locator('td.ltp .chg').first().textContent(), { timeout: 10_000 })
      .toMatch(/^[+-]?\d+\.\d{2}%$/);
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-greeks-1280.png') });
    const iv = Number((await callIv.textContent())?.replace('%', ''));
    // The paper NIFTY's volatility is 13 %: the ATM IV recovers it within a few points.
    expect(iv).toBeGreaterThan(5);
    expect(iv).toBeLessThan(40);
    const callDelta = Number(await atm.locator('td.greek.delta').first().textContent());
    const putDelta = Number(await atm.locator('td.greek.delta').last().textContent());
    expect(callDelta).toBeGreaterThan(0.2);
    expect(callDelta).toBeLessThan(0.8);
    expect(putDelta).toBeLessThan(-0.2);
    expect(putDelta).toBeGreaterThan(-0.8);
    // Call and put deltas of one strike are about one apart (put-call parity).
    expect(callDelta - putDelta).toBeGreaterThan(0.9);
    expect(callDelta - putDelta).toBeLessThan(1.05);

    // The chooser by keyboard: focus, Enter opens it with the focus inside, Space ticks Gamma.
    const columns = columnsButton();
    await columns.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('group', { name: 'Columns, calls and puts' });
    await menu.waitFor();
    const gamma = menu.getByRole('checkbox', { name: /Gamma/ });
    await gamma.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => gamma.isChecked()).toBe(true);
    // The defaults fill the pane: gamma has no room; the button counts it, the menu marks it.
    await expect.poll(() => columnsButton().textContent()).toBe('Columns · 1 column hidden');
    expect(await gamma.locator('..').textContent()).toMatch(/Gamma\s*no room/);
    expect((await chainView()).table).toBeLessThanOrEqual((await chainView()).room);
    // Unticking OI makes room: gamma shows on both legs.
    const oi = menu.getByRole('checkbox', { name: /Open interest/ });
    await oi.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await heads()).filter((h) => h.trim() === 'Gamma').length).toBe(2);
    expect(await columnsButton().textContent()).toBe('Columns');
    const swapped = await chainView();
    console.log(`gamma for OI: table ${swapped.table} px in ${swapped.room} px`);
    expect(swapped.table).toBeLessThanOrEqual(swapped.room);
    await expect
      .poll(() => atm.locator('td.greek.gamma').first().textContent(), { timeout: 10_000 })
      .toMatch(/^0\.\d{4}$/);
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-columns-1280.png') });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toMatch(/^Columns/);
    await expect
      .poll(async () => (await invoke<Settings>(page, 'settings.get')).layout.chainColumns, { timeout: 5000 })
      .toEqual(['chg', 'gamma', 'delta', 'iv']);

    // A wider watchlist leaves the chain less room: columns drop (gamma first, then IV) on both legs
    // alike, the Columns button counts them and its menu marks them; still no sideways scroll.
    const watchBar = page.getByRole('separator', { name: 'Resize watchlist' });
    await watchBar.focus();
    for (let i = 0; i < 16; i++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => columnsButton().textContent(), { timeout: 5000 })
      .toMatch(/^Columns · \d columns? hidden$/);
    const narrow = await chainView();
    console.log(`chain beside a wider watchlist: table ${narrow.table} px in ${narrow.room} px`);
    expect(narrow.table).toBeLessThanOrEqual(narrow.room);
    expect(narrow.cut).toEqual([]);
    const narrowHeads = (await heads()).map((h) => h.trim());
    expect(narrowHeads).not.toContain('Gamma');
    expect(narrowHeads.slice(0, narrowHeads.indexOf('Strike')).reverse()).toEqual(
      narrowHeads
        .slice(narrowHeads.indexOf('Strike') + 1)
        .map((h) => (h === 'Bid' ? 'Ask' : h === 'Ask' ? 'Bid' : h)),
    );
    await columnsButton().click();
    await expect.poll(() => menu.getByText('no room').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-fit-narrow-1280.png') });
    await page.keyboard.press('Escape');
    await watchBar.focus();
    await page.keyboard.press('Enter');

    // The narrow desk is the always-on ticket (no chain): an option taken from the chain stays in it.
    await atm.locator('td.ask button').first().click();
    await expect
      .poll(() => ticketName().textContent(), { timeout: 10_000 })
      .toMatch(/^(BANK)?NIFTY \d{2} [A-Z]{3} \d+ CE$/);
    await page.setViewportSize(NARROW);
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-greeks-420.png') });
    await page.setViewportSize(WIDE);
    expect(desk.problems).toEqual([]);
  });
});
