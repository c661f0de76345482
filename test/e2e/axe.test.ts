// An accessibility scan (axe-core, WCAG 2.x A/AA rules) of every pane of the desk in Chromium, with
// orders, a position and alerts in the books so rows and their controls are scanned too: each books
// tab, the Profiles and API keys dialog, a confirmation dialog, the offline banner and the narrow
// 420 px desk. No serious or critical violation is allowed; lesser ones are printed.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NARROW,
  WIDE,
  invoke,
  ltpOf,
  openDesk,
  priceAway,
  renderedFrames,
  type Desk,
} from '../support/desk-harness.js';

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-axe');
  page = desk.page;
  const ltp = await ltpOf(page, 'SBIN');
  await invoke(page, 'orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 2,
    pricetype: 'MARKET',
    product: 'MIS',
  });
  await invoke(page, 'orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 1,
    pricetype: 'LIMIT',
    price: priceAway(ltp, -3),
    product: 'MIS',
  });
  // Rows in the books before the first scan (the header row, then the two orders).
  await page.getByRole('grid', { name: 'Orders' }).getByRole('row').nth(2).waitFor({ timeout: 15_000 });
});

afterAll(async () => {
  await desk?.stop();
});

interface Found {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Scans the page as it stands; returns the serious and critical violations (prints the rest). */
async function scan(where: string): Promise<Found[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const found = result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  const minor = found.filter((f) => f.impact !== 'serious' && f.impact !== 'critical');
  if (minor.length > 0) console.log(`axe ${where}: minor/moderate`, JSON.stringify(minor));
  const bad = found.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  if (bad.length > 0) console.log(`axe ${where}: SERIOUS`, JSON.stringify(bad, null, 1));
  return bad;
}

const TABS = ['Orders', 'Trades', 'Positions', 'Holdings', 'Funds', 'Alerts'];

describe('axe: no serious or critical violation', { timeout: 60_000 }, () => {
  for (const name of TABS)
    it(`the desk with the ${name} tab`, async () => {
      await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
      const panel = page.locator(`#panel-${name.toLowerCase()}`);
      await panel.waitFor();
      // Holdings and Funds read on demand: scan once the answer has landed.
      await expect.poll(() => panel.textContent()).not.toMatch(/Reading|Loading/);
      expect(await scan(`tab ${name}`)).toEqual([]);
    });

  it('the Profiles and API keys dialog (first run)', async () => {
    await page.getByTestId('profile').click();
    await page.getByRole('dialog', { name: 'Profiles and API keys' }).waitFor();
    const found = await scan('profiles dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  it('a confirmation dialog (cancel all)', async () => {
    await page.getByRole('tab', { name: /^Orders/ }).click();
    await page.keyboard.press('Control+Shift+X');
    await page.getByRole('alertdialog').waitFor();
    const found = await scan('confirm dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  it('the narrow 420 px desk', async () => {
    await page.setViewportSize(NARROW);
    await renderedFrames(page);
    const found = await scan('narrow');
    await page.setViewportSize(WIDE);
    expect(found).toEqual([]);
  });

  it('live mode with the key banner (a gateway profile without a key)', async () => {
    const list = await invoke<{ profiles: { id: string; name: string }[] }>(page, 'profiles.add', {
      name: 'Axe live',
      baseUrl: await desk.paperUrl(),
    });
    const live = list.profiles.find((p) => p.name === 'Axe live');
    await invoke(page, 'profiles.switch', { id: live!.id });
    await page.getByTestId('banner-key').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('mode').textContent()).toBe('LIVE');
    const found = await scan('live, key banner');
    await invoke(page, 'profiles.switch', { id: 'paper' });
    await page.getByTestId('banner-key').waitFor({ state: 'detached', timeout: 15_000 });
    expect(found).toEqual([]);
  });

  it('the page logged no error', () => {
    expect(desk.problems).toEqual([]);
  });
});
