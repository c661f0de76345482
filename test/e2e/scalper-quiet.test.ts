// Quiet and true when things go wrong, in Chromium through browser mode: the first start on paper
// (PAPER plain to see, no key or idle-tray noise, the list a trader expects with the near NIFTY
// future); a placed order's ticket line following the book to "Cancelled"; a switch to a gateway
// profile with no red row in its first second; that gateway stopped: one banner, rows and depth
// greyed and marked stale, no socket error on any row; back: the ticket's message gone, rows live.
// Shots (test-results/): scalper-first-start-paper, scalper-profile-switch, scalper-depth-tint,
// scalper-offline, scalper-back-online.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView, ProfilesList } from '../../src-main/contract/index.js';
import {
  SHOTS,
  invoke,
  ltpOf,
  openDesk,
  pickInstrument,
  priceAway,
  shotsAt,
  startPaper,
  tempDir,
  type Desk,
  type PaperProcess,
} from '../support/desk-harness.js';

const KEY = 'fedcba9876543210'.repeat(4);

let desk: Desk;
let paperDir: string;
let gateway: PaperProcess | undefined;

beforeAll(async () => {
  paperDir = tempDir('scalper-quiet-paper');
  desk = await openDesk('scalper-quiet');
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await desk?.stop();
  rmSync(paperDir, { recursive: true, force: true });
});

const shot = (page: Page, name: string, narrow = true) => shotsAt(page, `scalper-${name}`, narrow);

const rows = (page: Page) => page.locator('#watchlist-panel tr[data-instrument]');
const allPriced = async (page: Page) =>
  (await page.locator('#watchlist-panel td.ltp').allTextContents()).every((t: string) => /\d/.test(t));
const connection = (page: Page) => page.getByTestId('connection').getAttribute('data-state');
const ticket = (page: Page) => page.getByRole('form', { name: 'Order ticket' });

describe('first start on paper', { timeout: 60_000 }, () => {
  it('PAPER in words, no key or tray noise, and NIFTY, BANKNIFTY, the near NIFTY future, large caps', async () => {
    const { page } = desk;
    await expect.poll(() => allPriced(page), { timeout: 20_000 }).toBe(true);
    const keys = await rows(page).evaluateAll((trs: { getAttribute(n: string): string | null }[]) =>
      trs.map((tr) => tr.getAttribute('data-instrument')),
    );
    expect(keys.slice(0, 2)).toEqual(['NSE_INDEX:NIFTY', 'NSE_INDEX:BANKNIFTY']);
    expect(keys[2]).toMatch(/^NFO:NIFTY\d\d[A-Z]{3}\d\dFUT$/);
    expect(keys.slice(3)).toEqual([
      'NSE:RELIANCE',
      'NSE:HDFCBANK',
      'NSE:ICICIBANK',
      'NSE:INFY',
      'NSE:TCS',
      'NSE:SBIN',
    ]);
    expect(await page.getByTestId('mode').textContent()).toBe('PAPER');
    expect(await page.getByText('simulated money').isVisible()).toBe(true);
    expect(await page.getByTestId('key').count()).toBe(0);
    expect(await page.getByTestId('tray').count()).toBe(0);
    expect(await page.getByText(/memory only|tray: idle/).count()).toBe(0);
    await shot(page, 'first-start-paper');
    expect(desk.problems).toEqual([]);
  });
});

describe("a placed order's ticket line", { timeout: 60_000 }, () => {
  it('says Placed, then Cancelled once the book has the cancel', async () => {
    const { page } = desk;
    await invoke(page, 'settings.update', { confirmations: { place: false } });
    await pickInstrument(page, 'SBIN');
    await page.getByLabel('Qty', { exact: true }).fill('1');
    await page.getByLabel('Price', { exact: true }).fill(priceAway(await ltpOf(page, 'SBIN'), -3));
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    const line = ticket(page).getByText(/· order \S+$/);
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toMatch(/^(Placed|Open) · order /);
    const orderid = ((await line.textContent()) ?? '').replace(/^.* · order /, '').trim();
    const book = await invoke<OrdersView>(page, 'books.orders');
    expect(book.orders.find((o) => o.orderid === orderid)?.status).toBe('open');
    await invoke(page, 'orders.cancel', { orderid });
    await expect
      .poll(() => ticket(page).getByText(`Cancelled · order ${orderid}`).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await ticket(page).getByText(`Placed · order ${orderid}`).count()).toBe(0);
  });
});

describe('offline and back', { timeout: 180_000 }, () => {
  it('a switch shows no red row in its first second; the depth tints a cell, not a column', async () => {
    const { page } = desk;
    gateway = await startPaper(paperDir, KEY);
    const added = await invoke<ProfilesList>(page, 'profiles.add', {
      name: 'Scalper gateway',
      baseUrl: gateway.url,
    });
    const id = added.profiles.find((p) => p.name === 'Scalper gateway')?.id;
    expect(id).toBeDefined();
    await invoke(page, 'apiKey.set', { key: KEY, profileId: id });
    // Sample the rows every 40 ms for the first second after the switch: no red, no error line.
    const sampling = page.evaluate<string[]>(`(async () => {
      const seen = [];
      const end = performance.now() + 1000;
      while (performance.now() < end) {
        for (const el of document.querySelectorAll('#watchlist-panel tr.err, #watchlist-panel .note.bad'))
          seen.push(el.textContent);
        await new Promise((r) => setTimeout(r, 40));
      }
      return seen;
    })()`);
    await invoke(page, 'profiles.switch', { id });
    expect(await sampling).toEqual([]);
    await expect.poll(() => connection(page), { timeout: 20_000 }).toBe('connected');
    await expect.poll(() => allPriced(page), { timeout: 20_000 }).toBe(true);
    await shot(page, 'profile-switch', false);

    // The depth of the ticket's SBIN: sampled for 5 s, never a whole side tinted at once.
    await pickInstrument(page, 'SBIN');
    const ladder = page.getByLabel('Market depth').getByRole('table');
    await ladder.waitFor({ timeout: 15_000 });
    const lit = await page.evaluate<{ most: number; seen: number }>(`(async () => {
      let most = 0;
      let seen = 0;
      const end = performance.now() + 5000;
      // Tints running now (a cell keeps its class after its tint has faded).
      const count = (side) =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect && a.effect.target)
          .filter((a) => a.effect.target.matches('[aria-label="Market depth"] td.price.' + side)).length;
      while (performance.now() < end) {
        most = Math.max(most, count('buy'), count('sell'));
        seen += count('buy') + count('sell');
        await new Promise((r) => setTimeout(r, 30));
      }
      return { most, seen };
    })()`);
    // Some tint was seen (the sampler works), and never a whole side at once.
    expect(lit.seen).toBeGreaterThan(0);
    expect(lit.most).toBeLessThan(5);
    // The shot as a cell starts its tint (the class lands as the tint starts; it fades in 300 ms).
    const tinted = await page.evaluate<boolean>(`new Promise((resolve) => {
      const root = document.querySelector('[aria-label="Market depth"]');
      const obs = new MutationObserver((changes) => {
        if (changes.some((c) => /flash-/.test(c.target.getAttribute('class') || ''))) {
          obs.disconnect();
          resolve(true);
        }
      });
      obs.observe(root, { attributes: true, attributeFilter: ['class'], subtree: true });
      setTimeout(() => resolve(false), 15000);
    })`);
    expect(tinted).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'scalper-depth-tint-1280.png') });
  });

  it('the gateway stopped: one banner, rows and depth stale, no socket error; a press says why', async () => {
    const { page } = desk;
    await gateway?.stop();
    await expect.poll(() => connection(page), { timeout: 40_000 }).toBe('disconnected');
    await expect.poll(() => page.getByTestId('banner-offline').count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => page.locator('#watchlist-panel tr[data-stale]').count(), { timeout: 10_000 })
      .toBe(await rows(page).count());
    await expect.poll(() => page.getByTestId('depth-stale').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('watchlist-stale').textContent()).toMatch(
      /Stale · prices as of \d\d:\d\d:\d\d IST/,
    );
    // Let the watches be refused (and asked again) a while: still nothing raw on any row.
    await page.waitForTimeout(3000);
    const listText = (await page.locator('#watchlist-panel').textContent()) ?? '';
    expect(listText).not.toMatch(/ECONNREFUSED|connect |cannot reach/);
    expect(await page.locator('#watchlist-panel tr.err').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Market depth' }).textContent()).not.toMatch(
      /ECONNREFUSED/,
    );
    // Full names, not cut.
    expect(await rows(page).first().locator('.name').textContent()).toBe('NIFTY');
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    await expect
      .poll(() => ticket(page).getByText('Gateway unreachable: not sending until it is back').count())
      .toBeGreaterThan(0);
    await shot(page, 'offline');
  });

  it('back: the ticket message is gone, the send button live, the rows and depth live again', async () => {
    const { page } = desk;
    await page.getByLabel('Qty', { exact: true }).press('Enter');
    gateway = await startPaper(paperDir, KEY, gateway?.port ?? 0);
    await expect.poll(() => connection(page), { timeout: 40_000 }).toBe('connected');
    await expect
      .poll(() => page.locator('#watchlist-panel tr[data-stale]').count(), { timeout: 20_000 })
      .toBe(0);
    await expect.poll(() => page.getByTestId('depth-stale').count(), { timeout: 20_000 }).toBe(0);
    await page.getByLabel('Market depth').getByRole('table').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('banner-offline').count()).toBe(0);
    expect(
      await ticket(page)
        .getByText(/Gateway unreachable/)
        .count(),
    ).toBe(0);
    const send = ticket(page).locator('button.send');
    expect(await send.getAttribute('aria-disabled')).toBe('false');
    await shot(page, 'back-online', false);
    expect(desk.problems.filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load/.test(p))).toEqual([]);
  });
});
