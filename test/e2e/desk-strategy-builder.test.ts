// The options strategy builder end to end, in Chromium against the embedded paper gateway: the chain's
// Build toggle turns a bid click into a SELL leg and an ask click into a BUY leg (nothing reaches the
// ticket or the book), the iron condor template places four legs around the money, and the Strategy
// tab shows them with the payoff diagram, its figures and the basket's margin; a strategy is sent (the
// confirm lists BUY legs first, on paper) and its legs' states come back. An axe scan of the tab.
// Screenshots at 1280×720 under test-results/strategy-builder*.png.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersView } from '../../src-main/contract/index.js';
import { SHOTS, invoke, openDesk, renderedFrames, type Desk } from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-strategy-builder');
  page = desk.page;
});

afterAll(async () => {
  await desk?.stop();
});

const focusTab = (name: string): Locator => page.getByRole('tab', { name, exact: true });
const legsTable = (): Locator => page.getByRole('table', { name: 'Strategy legs' });

/** axe (WCAG 2.x A/AA, best practice) over one part of the page: its serious and critical violations. */
async function axeProblems(selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const minor = result.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length > 0) console.log('axe strategy: minor/moderate', minor.map((v) => v.id).join(', '));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe('strategy builder', { timeout: 90_000 }, () => {
  it('Build on: a bid adds a SELL leg, an ask a BUY leg, and nothing reaches the book', async () => {
    const ordersBefore = (await invoke<OrdersView>(page, 'books.orders')).orders.length;
    await focusTab('Chain').click();
    const grid = page.getByRole('grid', { name: /option chain/ });
    await grid.waitFor({ timeout: 20_000 });
    const atm = grid.locator('tbody tr.atm');
    await expect.poll(() => atm.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => atm.locator('td.bid button .p').first().textContent(), { timeout: 15_000 })
      .toMatch(/^\d[\d,]*\.\d{2}$/);

    const build = page.getByRole('button', { name: 'Build', exact: true });
    await build.click();
    await expect(build.getAttribute('aria-pressed')).resolves.toBe('true');
    const strip = page.getByRole('group', { name: 'Strategy builder' });
    await expect(strip.textContent()).resolves.toMatch(/0 legs/);

    // The ATM call's bid: a SELL leg; the ATM put's ask: a BUY leg.
    await atm.locator('td.bid button').first().click();
    await expect.poll(() => strip.textContent()).toMatch(/1 leg\b/);
    await atm.locator('td.ask button').nth(1).click();
    await expect.poll(() => strip.textContent()).toMatch(/2 legs · net ₹[\d,]+\.\d{2} (credit|debit)/);
    await expect(page.locator('.chain .note').first().textContent()).resolves.toMatch(/Added BUY 1 lot/);
    // The same bid again: two lots of the call, still two legs.
    await atm.locator('td.bid button').first().click();
    await expect.poll(() => strip.textContent()).toMatch(/2 legs/);
    await expect(page.locator('.chain .note').first().textContent()).resolves.toMatch(/SELL .*: 2 lots/);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-chain-1280.png') });
    // The chain with Build on (the toggle, the strip) passes axe too.
    expect(await axeProblems('.chain')).toEqual([]);

    await strip.getByRole('button', { name: 'Open builder' }).click();
    await expect(focusTab('Strategy').getAttribute('aria-selected')).resolves.toBe('true');
    const rows = legsTable().locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.nth(0).locator('td').first().textContent()).resolves.toMatch(/SELL/);
    await expect(rows.nth(0).getByRole('textbox').inputValue()).resolves.toBe('2');
    await expect(rows.nth(1).locator('td').first().textContent()).resolves.toMatch(/BUY/);
    // Nothing was sent.
    expect((await invoke<OrdersView>(page, 'books.orders')).orders.length).toBe(ordersBefore);
  });

  it('the iron condor template: four legs, the payoff, its figures and the margin', async () => {
    await page.getByRole('combobox', { name: 'Apply a template around the money' }).selectOption({
      label: 'Iron condor',
    });
    const rows = legsTable().locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
    const sides = await rows.locator('td:first-child').allTextContents();
    expect(sides.map((s) => s.trim()).sort()).toEqual(['BUY', 'BUY', 'SELL', 'SELL']);
    // Premiums and IV land (quotes, then the greeks read).
    await expect
      .poll(
        async () => (await rows.locator('td:nth-child(6)').allTextContents()).every((t) => /\d/.test(t)),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    const figures = page.getByRole('table', { name: 'Strategy figures' });
    await expect.poll(() => figures.textContent(), { timeout: 15_000 }).toMatch(/Max profit₹[\d,]+\.\d{2}/);
    await expect(figures.textContent()).resolves.toMatch(/Max loss₹[\d,]+\.\d{2}/);
    await expect(figures.textContent()).resolves.toMatch(/Breakevens[\d,]+\.\d{2} · [\d,]+\.\d{2}/);
    await expect
      .poll(() => figures.textContent(), { timeout: 15_000 })
      .toMatch(/Margin₹[\d,]+\.\d{2}\s*(paper estimate|gateway)|Margin\s*unknown/);
    // The payoff canvas is drawn.
    const drawn = await page.evaluate(`(() => {
      let n = 0;
      for (const c of document.querySelectorAll('.payoff canvas')) {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0) continue;
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
      }
      return n;
    })()`);
    expect(drawn).toBeGreaterThan(1000);
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-1280.png') });
    await page.locator('#focus-panel').evaluate((el) => el.scrollTo(0, 10_000));
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-send-1280.png') });
  });

  it('the Strategy tab passes axe', async () => {
    expect(await axeProblems('#focus-panel')).toEqual([]);
  });

  it('what-ifs move the figures; Enter in the form sends nothing', async () => {
    const figures = page.getByRole('table', { name: 'Strategy figures' });
    const before = await figures.textContent();
    const iv = page.getByRole('slider', { name: /IV shift/ });
    await iv.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => figures.textContent()).not.toBe(before);
    const name = page.getByRole('textbox', { name: 'Name' });
    await name.fill('E2E condor');
    await name.press('Enter');
    await renderedFrames(page);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });

  it('sends the strategy after the confirm (BUY legs first, paper) and shows each leg', async () => {
    const probe = await invoke<unknown>(page, 'strategies.list').catch((e: unknown) => e);
    if (probe instanceof Error) {
      console.log(`strategies.list does not answer yet (${probe.message}): the send step is skipped`);
      return;
    }
    await page.getByRole('button', { name: /^Send 4 legs/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toMatch(/PAPER/);
    const buy = text.indexOf('BUY ');
    const sell = text.indexOf('SELL ');
    expect(buy).toBeGreaterThan(-1);
    expect(sell).toBeGreaterThan(buy);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-confirm-1280.png') });
    await dialog.getByRole('button', { name: /^Send 4 legs/ }).click();
    const result = page.getByRole('table', { name: 'Legs sent' });
    await result.waitFor({ timeout: 20_000 });
    await expect.poll(() => result.locator('tbody tr').count()).toBe(4);
    await expect
      .poll(async () => (await result.locator('tbody tr td:nth-child(4)').allTextContents()).join('|'), {
        timeout: 20_000,
      })
      .toMatch(/^(Sent\|){3}Sent$|Refused/);
    await page.locator('#focus-panel').evaluate((el) => el.scrollTo(0, 10_000));
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-sent-1280.png') });
  });

  it("the Strategies book's Payoff shows the sent strategy followed, read-only, and Back returns", async () => {
    const books = page.getByRole('tab', { name: /^Strategies/ });
    if ((await books.count()) === 0 || (await page.getByRole('table', { name: 'Legs sent' }).count()) === 0) {
      console.log('no Strategies book tab or nothing sent: the follow step is skipped');
      return;
    }
    await books.click();
    const payoff = page.getByRole('button', { name: 'Payoff', exact: true }).first();
    await payoff.waitFor({ timeout: 15_000 });
    await payoff.click();
    await expect(focusTab('Strategy').getAttribute('aria-selected')).resolves.toBe('true');
    await expect
      .poll(() => page.getByRole('heading', { name: /Following E2E condor/ }).count(), { timeout: 10_000 })
      .toBe(1);
    await expect.poll(() => legsTable().locator('tbody tr').count(), { timeout: 10_000 }).toBe(4);
    expect(await page.getByRole('form', { name: 'Send the strategy' }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('table', { name: 'Strategy figures' }).textContent(), { timeout: 10_000 })
      .toMatch(/Max loss₹[\d,]+\.\d{2}/);
    await page.locator('#focus-panel').evaluate((el) => el.scrollTo(0, 0));
    await renderedFrames(page);
    await page.screenshot({ path: join(SHOTS, 'strategy-builder-following-1280.png') });
    await page.getByRole('button', { name: 'Back to building' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /NIFTY builder/ }).count()).toBe(1);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
