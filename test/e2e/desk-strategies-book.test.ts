// The Strategies book end to end (issue 27), in Chromium against the embedded paper gateway: an iron
// condor sent through the core (`strategies.send` on the page's bridge) shows in the Strategies tab
// with its state and P&L, opens to its four legs, takes a stop typed in the row (L), rolls a short
// leg to a neighbouring strike through the roll dialog's preview (close at ~touch, open at ~touch,
// the net), groups the Positions pane by strategy (its legs under its header, Other positions
// after) and exits as one basket after a confirm that lists the orders. axe scans the Strategies
// tab and the grouped positions. Screenshots at 1280×720: test-results/strategies-book*.png and
// test-results/positions-by-strategy*.png.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategiesView, StrategyView, SearchResponse } from '../../src-main/contract/index.js';
import { SHOTS, invoke, openDesk, renderedFrames, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;
let condor: StrategyView;

const NAME = 'E2E condor';
const PARTIAL = 'E2E partial';
let chain: Awaited<ReturnType<typeof niftyOptions>>;

beforeAll(async () => {
  desk = await openDesk('desk-strategies-book');
  page = desk.page;
});

afterAll(async () => {
  await desk?.stop();
});

const tab = (name: string): Locator => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const book = (): Locator => page.getByRole('treegrid', { name: 'Strategies' });
const strategyRow = (): Locator => book().locator('[data-testid="strategy-row"]', { hasText: NAME });

/** axe (WCAG 2.x A/AA, best practice) over one part of the page: its serious and critical violations. */
async function axeProblems(selector: string, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const minor = result.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length > 0)
    console.log(`axe ${where}: minor/moderate`, minor.map((v) => `${v.id} ${v.nodes[0]?.target}`).join(', '));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

async function strategy(): Promise<StrategyView | undefined> {
  const v = await invoke<StrategiesView>(page, 'strategies.list');
  return v.strategies.find((s) => s.name === NAME);
}

/** NIFTY's options of the nearest expiry on NFO, by strike, and the at-the-money strike. */
async function niftyOptions(): Promise<{ at: (steps: number, kind: 'CE' | 'PE') => string; lot: number }> {
  const spot = (
    await invoke<{ data: { ltp: number } }>(page, 'market.quotes', { symbol: 'NIFTY', exchange: 'NSE_INDEX' })
  ).data.ltp;
  const expiries = await invoke<{ data: string[] }>(page, 'market.expiry', {
    symbol: 'NIFTY',
    exchange: 'NFO',
    instrumenttype: 'options',
  });
  const nearest = [...expiries.data].sort(
    (a, b) => Date.parse(a.replace(/-/g, ' ')) - Date.parse(b.replace(/-/g, ' ')),
  )[0]!;
  const code = nearest.replace(/-/g, '').toUpperCase();
  const found = await invoke<SearchResponse>(page, 'market.search', {
    query: `NIFTY${code}`,
    exchange: 'NFO',
  });
  const options = found.data.filter((r) => r.symbol.startsWith(`NIFTY${code}`) && /(CE|PE)$/.test(r.symbol));
  const strikes = [...new Set(options.map((r) => r.strike))].sort((a, b) => a - b);
  const atm = strikes.reduce((best, s) => (Math.abs(s - spot) < Math.abs(best - spot) ? s : best));
  return {
    lot: options[0]!.lotsize,
    at(steps, kind) {
      const strike = strikes[strikes.indexOf(atm) + steps]!;
      return options.find((r) => r.strike === strike && r.symbol.endsWith(kind))!.symbol;
    },
  };
}

describe('the Strategies book', { timeout: 120_000 }, () => {
  it('shows a sent strategy with its state and P&L, and opens to its legs', async () => {
    chain = await niftyOptions();
    const leg = (symbol: string, action: 'BUY' | 'SELL') => ({
      symbol,
      exchange: 'NFO',
      action,
      quantity: chain.lot,
      lotSize: chain.lot,
    });
    condor = await invoke<StrategyView>(page, 'strategies.send', {
      name: NAME,
      product: 'NRML',
      legs: [
        leg(chain.at(-2, 'PE'), 'SELL'),
        leg(chain.at(-4, 'PE'), 'BUY'),
        leg(chain.at(2, 'CE'), 'SELL'),
        leg(chain.at(4, 'CE'), 'BUY'),
      ],
    });
    // A position outside any strategy, for Other positions.
    await invoke(page, 'orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      quantity: 5,
      pricetype: 'MARKET',
    });
    await expect.poll(async () => (await strategy())?.state, { timeout: 30_000 }).toBe('open');
    await expect
      .poll(async () => (await strategy())?.legs.every((l) => l.open !== 0), { timeout: 30_000 })
      .toBe(true);

    await tab('Strategies').click();
    await strategyRow().waitFor({ timeout: 15_000 });
    await expect(tab('Strategies').textContent()).resolves.toMatch(/Strategies\s*1/);
    const row = strategyRow();
    await expect(row.textContent()).resolves.toMatch(/open/);
    await expect(row.textContent()).resolves.toMatch(/NIFTY/);
    await expect
      .poll(() => row.getByTestId('strategy-pnl').textContent(), { timeout: 15_000 })
      .toMatch(/^[+-]?₹[\d,]+\.\d{2}$/);

    // → opens the legs: sides in words, lots, open quantities.
    await row.focus();
    await page.keyboard.press('ArrowRight');
    const legs = book().getByTestId('strategy-leg');
    await expect.poll(() => legs.count()).toBe(4);
    const texts = await legs.allTextContents();
    expect(texts.filter((t) => /^\s*SELL/.test(t))).toHaveLength(2);
    expect(texts.filter((t) => /^\s*BUY/.test(t))).toHaveLength(2);
    expect(texts.every((t) => /1 lot \(/.test(t))).toBe(true);
    await expect(row.getAttribute('aria-expanded')).resolves.toBe('true');
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-1280.png') });
  });

  it('takes a stop typed in the row (L, Enter) and says so', async () => {
    await strategyRow().focus();
    await page.keyboard.press('l');
    const box = page.getByRole('textbox', { name: new RegExp(`Stop loss of ${NAME}`) });
    await box.waitFor();
    // Not rupees: the reason shows, nothing is sent.
    await box.fill('12.345');
    await box.press('Enter');
    await expect.poll(() => page.locator('#strategy-edit-issue').textContent()).toMatch(/at most 2 decimals/);
    await box.fill('5000');
    await box.press('Enter');
    await expect.poll(async () => (await strategy())?.stop, { timeout: 10_000 }).toBe(5000);
    await expect
      .poll(() => strategyRow().getByTestId('strategy-stop').textContent(), { timeout: 10_000 })
      .toMatch(/−₹5,000\.00/);
    await expect
      .poll(() => page.getByTestId('strategies-notice').textContent())
      .toMatch(/Stop of E2E condor set/);
    // Focus is back on the row.
    await expect
      .poll(() => page.evaluate('document.activeElement?.dataset?.testid ?? ""'))
      .toBe('strategy-row');
  });

  it('renames in the row (N) and shows the payoff in the Strategy tab (P)', async () => {
    await strategyRow().focus();
    await page.keyboard.press('n');
    const box = page.getByRole('textbox', { name: `New name of ${NAME}` });
    await box.fill('E2E condor renamed');
    await box.press('Enter');
    await expect
      .poll(async () => (await invoke<StrategiesView>(page, 'strategies.list')).strategies[0]?.name)
      .toBe('E2E condor renamed');
    const renamed = book().locator('[data-testid="strategy-row"]', { hasText: 'E2E condor renamed' });
    await renamed.waitFor();
    await renamed.focus();
    await page.keyboard.press('n');
    const again = page.getByRole('textbox', { name: 'New name of E2E condor renamed' });
    await again.fill(NAME);
    await again.press('Enter');
    await expect.poll(async () => (await strategy())?.name).toBe(NAME);

    await strategyRow().focus();
    await page.keyboard.press('p');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Strategy', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
  });

  it('rolls a short leg to a neighbouring strike after the preview', async () => {
    const before = (await strategy())!;
    const index = before.legs.findIndex((l) => l.action === 'SELL' && l.symbol.endsWith('CE'));
    const old = before.legs[index]!.symbol;
    const legRow = book().getByTestId('strategy-leg').nth(index);
    await legRow.focus();
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: /^Roll / });
    await dialog.waitFor();
    const preview = dialog.getByTestId('roll-preview');
    await expect
      .poll(() => preview.textContent(), { timeout: 15_000 })
      .toMatch(/close NIFTY .* at ~[\d,]+\.\d{2}/);
    const text = (await preview.textContent()) ?? '';
    expect(text).toMatch(/BUY\s*close/);
    expect(text).toMatch(/SELL\s*open NIFTY .* at ~[\d,]+\.\d{2}/);
    expect(text).toMatch(/Net (credit|debit) ₹[\d,]+\.\d{2}/);
    // The strikes offered are this expiry's calls around the leg's.
    const strikes = await dialog.getByRole('radio').count();
    expect(strikes).toBeGreaterThan(2);
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-roll-1280.png') });
    expect(await axeProblems('[role="dialog"]', 'roll dialog')).toEqual([]);
    // The nearest strike away from the money is offered first: up, for a call.
    const chosen = dialog.getByRole('radio', { checked: true });
    const strikeOf = (sym: string) => Number(sym.slice(-7, -2));
    expect(strikeOf((await chosen.getAttribute('value')) ?? '')).toBeGreaterThan(strikeOf(old));
    await dialog.getByRole('button', { name: 'Roll leg' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await expect
      .poll(
        async () => {
          const s = await strategy();
          return s
            ? s.legs.length === 5 &&
                s.legs.some(
                  (l) =>
                    l.symbol !== old &&
                    l.open < 0 &&
                    l.symbol.endsWith('CE') &&
                    !before.legs.some((b) => b.symbol === l.symbol),
                )
            : false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect.poll(() => book().getByTestId('strategy-leg').count()).toBe(5);
    await expect(book().getByTestId('strategy-leg').nth(index).textContent()).resolves.toMatch(/rolled out/);
  });

  it('passes axe on the Strategies tab', async () => {
    expect(await axeProblems('#panel-strategies', 'strategies tab')).toEqual([]);
  });

  it('groups the positions by strategy, then Other positions', async () => {
    await tab('Positions').click();
    const grid = page.getByRole('grid', { name: 'Positions' });
    await grid.waitFor();
    const toggle = page.getByRole('button', { name: 'Group: strategy' });
    await toggle.click();
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    const head = grid.locator('.row.group-head.group', { hasText: NAME });
    await head.waitFor({ timeout: 15_000 });
    await expect(head.getByTestId('group-pnl').textContent()).resolves.toMatch(/^[+-]?₹[\d,]+\.\d{2}$/);
    await expect(head.textContent()).resolves.toMatch(/−₹5,000\.00/);
    await expect(head.textContent()).resolves.toMatch(/4 legs/);
    const other = grid.locator('.row.group-head.other');
    await other.waitFor({ timeout: 15_000 });
    // Rows: the header, its four open legs, Other positions, SBIN.
    const keys = await grid
      .locator('[data-row-key]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-row-key')));
    const at = keys.indexOf('other');
    expect(keys[0]).toBe(`strategy:${condor.id}`);
    expect(keys.slice(1, at).every((k) => k?.startsWith(`strategy:${condor.id}:NFO:`))).toBe(true);
    expect(at).toBe(5);
    expect(keys.slice(at + 1)).toContain('NSE:SBIN:MIS');
    // T on the header sets the strategy's target there (rupees of its P&L).
    await head.focus();
    await page.keyboard.press('t');
    const target = page.getByRole('textbox', { name: new RegExp(`Target profit of ${NAME}`) });
    await target.fill('8000');
    await target.press('Enter');
    await expect.poll(async () => (await strategy())?.target, { timeout: 10_000 }).toBe(8000);
    await expect.poll(() => head.textContent(), { timeout: 10_000 }).toMatch(/\+₹8,000\.00/);
    // G on a row ungroups and groups again.
    await grid.locator('[data-row-key="NSE:SBIN:MIS"]').focus();
    await page.keyboard.press('g');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
    await page.keyboard.press('g');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    // The top of the list in the shot: the strategy's header first.
    await page.keyboard.press('Home');
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'positions-by-strategy-1280.png') });
    expect(await axeProblems('#panel-positions', 'grouped positions')).toEqual([]);
  });

  it('exits the strategy as one basket after a confirm that lists the orders', async () => {
    await tab('Strategies').click();
    // Opened before the Positions tab, still open: its legs stay in view.
    await expect(strategyRow().getAttribute('aria-expanded')).resolves.toBe('true');
    await strategyRow().focus();
    await page.keyboard.press('e');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toMatch(/Exit E2E condor\?/);
    expect(text).toMatch(/One basket, 4 orders/);
    expect(text.match(/(Buy|Sell) [\d,]+ NIFTY .*? at MARKET/g)?.length).toBe(4);
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-exit-1280.png') });
    await dialog.getByRole('button', { name: 'Exit strategy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await strategy())?.state, { timeout: 30_000 }).toBe('closed');
    const row = strategyRow();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/closed/);
    await expect(row.textContent()).resolves.toMatch(/exited at \d{2}:\d{2}:\d{2}/);
    await expect(row.getByRole('button', { name: 'Remove' }).count()).resolves.toBe(1);
    await expect
      .poll(() => page.getByTestId('strategies-notice').textContent(), { timeout: 15_000 })
      .toMatch(/Exit of E2E condor sent: 4 orders/);
    console.log(`closed strategy P&L: ${(await strategy())?.pnl} (realised ${(await strategy())?.realised})`);
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-closed-1280.png') });
  });

  it('a partial strategy: Send remaining and Unwind sent legs, each asked first, never by itself', async () => {
    // One order of at most a lot: the two-lot wing is refused by the risk gate, the rest wait.
    await invoke(page, 'settings.update', { risk: { maxQuantityPerOrder: chain.lot } });
    const leg = (symbol: string, action: 'BUY' | 'SELL', lots = 1) => ({
      symbol,
      exchange: 'NFO',
      action,
      quantity: chain.lot * lots,
      lotSize: chain.lot,
    });
    await invoke(page, 'strategies.send', {
      name: PARTIAL,
      product: 'MIS',
      legs: [
        leg(chain.at(-2, 'PE'), 'SELL'),
        leg(chain.at(-4, 'PE'), 'BUY'),
        leg(chain.at(2, 'CE'), 'SELL'),
        leg(chain.at(4, 'CE'), 'BUY', 2),
      ],
    });
    await invoke(page, 'settings.update', { risk: { maxQuantityPerOrder: 10_000 } });
    const byName = async () =>
      (await invoke<StrategiesView>(page, 'strategies.list')).strategies.find((x) => x.name === PARTIAL);
    await expect.poll(async () => (await byName())?.state, { timeout: 20_000 }).toBe('partial');
    await expect
      .poll(async () => (await byName())?.legs.some((l) => l.open !== 0), { timeout: 20_000 })
      .toBe(true);

    const row = book().locator('[data-testid="strategy-row"]', { hasText: PARTIAL });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.textContent()).resolves.toMatch(/partial/);
    await expect(row.textContent()).resolves.toMatch(/refused/);
    await expect(row.getByRole('button', { name: 'Send remaining' }).count()).resolves.toBe(1);
    await expect(row.getByRole('button', { name: 'Unwind sent legs' }).count()).resolves.toBe(1);
    await row.focus();
    await page.keyboard.press('ArrowRight');
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-partial-1280.png') });

    // R asks; Escape sends nothing.
    await row.focus();
    await page.keyboard.press('r');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const asked = (await dialog.textContent()) ?? '';
    expect(asked).toMatch(/Send the remaining legs of E2E partial\?/);
    expect(asked.match(/(Buy|Sell) [\d,]+ NIFTY .*? at MARKET/g)?.length).toBe(3);
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategies-book-resume-1280.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await byName())?.legs.filter((l) => l.state === 'waiting' || l.state === 'refused')).toHaveLength(
      3,
    );

    // E on a partial one unwinds the sent legs; the unsent ones are said to stay unsent.
    await row.focus();
    await page.keyboard.press('e');
    await dialog.waitFor();
    const unwind = (await dialog.textContent()) ?? '';
    expect(unwind).toMatch(/Unwind the sent legs of E2E partial\?/);
    expect(unwind).toMatch(/not sent stay unsent/);
    await dialog.getByRole('button', { name: 'Unwind sent legs' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await byName())?.state, { timeout: 30_000 }).toBe('closed');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/unwound at \d{2}:\d{2}:\d{2}/);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
