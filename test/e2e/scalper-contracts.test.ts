// The right contract first, in Chromium through browser mode against the embedded paper gateway:
// `/`, `nifty fut`, Enter loads the NEAREST NIFTY future (the expected one worked out from the
// gateway's own search answer, by date), the same for BANKNIFTY at 420 px; the option chain shows IV
// and delta per leg, and its column chooser, reached by keyboard, adds gamma and is remembered.
// Shots: test-results/scalper-search-fut-*.png, scalper-chain-greeks-*.png (1280×720, 420 px) and
// scalper-chain-columns-1280.png.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse, Settings } from '../../src-main/contract/index.js';
import { invoke, NARROW, openDesk, SHOTS, WIDE, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('scalper-contracts');
  page = desk.page;
}, 90_000);

afterAll(async () => {
  await desk?.stop();
});

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** `29-DEC-26` as a time, for finding the nearest (independent of the desk's own ranking code). */
const dateOf = (expiry: string): number => {
  const [d, m, y] = expiry.split('-');
  return Date.UTC(2000 + Number(y), MONTHS.indexOf(m ?? ''), Number(d));
};

/** The underlying's nearest future, from the gateway's own answer to the query the trader types. */
async function nearestFuture(name: string): Promise<{ symbol: string; shown: string }> {
  const answer = await invoke<SearchResponse>(page, 'market.search', { query: `${name.toLowerCase()} fut` });
  const futures = answer.data.filter(
    (r) => r.name === name && r.exchange === 'NFO' && r.symbol.endsWith('FUT'),
  );
  expect(futures.length).toBeGreaterThan(1);
  const nearest = [...futures].sort((a, b) => dateOf(a.expiry) - dateOf(b.expiry))[0]!;
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
        'Chg %',
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
        'Chg %',
        'OI',
      ]);
    const atm = grid.locator('tbody tr.atm');
    const callIv = atm.locator('td.greek.iv').first();
    await expect.poll(() => callIv.textContent(), { timeout: 15_000 }).toMatch(/^\d+\.\d%$/);
    // Wider than the pane at 1280×720, the mirrored table is scrolled to its centre: the strike, both
    // legs' prices, IV and delta are in view; OI and change at the edges are a scroll away.
    const view = await page.evaluate<{ table: number; room: number; hidden: string[] }>(`(() => {
      const s = document.querySelector('.chain .scroll');
      const box = s.getBoundingClientRect();
      const hidden = Array.from(document.querySelectorAll('.chain thead tr:last-child th'))
        .filter((t) => { const r = t.getBoundingClientRect(); return r.left < box.left - 1 || r.right > box.right + 1; })
        .map((t) => t.textContent.trim());
      return { table: s.scrollWidth, room: s.clientWidth, hidden };
    })()`);
    console.log(
      `chain at 1280: table ${view.table} px in ${view.room} px; not fully in view: ${view.hidden.join(', ')}`,
    );
    for (const head of ['Strike', 'LTP', 'Bid', 'Ask', 'IV', 'Delta'])
      expect(view.hidden).not.toContain(head);
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
    const columns = page.getByRole('button', { name: 'Columns' });
    await columns.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('group', { name: 'Columns, calls and puts' });
    await menu.waitFor();
    const gamma = menu.getByRole('checkbox', { name: /Gamma/ });
    await gamma.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => gamma.isChecked()).toBe(true);
    await expect.poll(async () => (await heads()).filter((h) => h.trim() === 'Gamma').length).toBe(2);
    await expect
      .poll(() => atm.locator('td.greek.gamma').first().textContent(), { timeout: 10_000 })
      .toMatch(/^0\.\d{4}$/);
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-columns-1280.png') });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SHOTS, 'scalper-chain-greeks-1280.png') });
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Columns');
    await expect
      .poll(async () => (await invoke<Settings>(page, 'settings.get')).layout.chainColumns, { timeout: 5000 })
      .toEqual(['oi', 'chg', 'gamma', 'delta', 'iv']);

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
