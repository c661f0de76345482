// The desk end to end: one browser-mode host (temp data dir, port 0, embedded paper gateway) and one
// Chromium page per test file, screenshots at 1280×720 and 420 px wide under test-results/, and a
// standalone paper gateway child for the flows that need a gateway they can stop and restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BridgeApi } from '../../src-main/contract/index.js';
import { ROOT, SHOTS, signalGroup, startHostAndBrowser, type WebProcess } from './web-process.js';

export { SHOTS } from './web-process.js';

// The page's global, as seen by functions page.evaluate runs in the page (this file has no DOM types).
declare const window: { bridge: BridgeApi };

export const WIDE = { width: 1280, height: 720 };
export const NARROW = { width: 420, height: 720 };

export interface Desk {
  web: WebProcess;
  browser: Browser;
  page: Page;
  dataDir: string;
  /** Console errors and page errors, for a test to assert there were none. */
  problems: string[];
  /** Every WebSocket frame the page received (a key must never be among them). */
  framesToPage: string[];
  /** Screenshots at 1280×720 and 420 px wide: test-results/desk-<name>-1280.png and -420.png. */
  shots(name: string): Promise<void>;
  /** The embedded paper gateway's URL, as profiles.list gives it. */
  paperUrl(): Promise<string>;
  stop(): Promise<void>;
}

export interface DeskOptions {
  /**
   * Leave the first start's limits step on screen. Without it the step is answered at once (Keep the
   * defaults, through settings.update) as on any later day, so every flow has the ticket's room.
   */
  firstStart?: boolean;
}

/** Starts the host and opens the desk in Chromium; resolves once it shows PAPER, connected. */
export async function openDesk(prefix: string, options: DeskOptions = {}): Promise<Desk> {
  const dataDir = tempDir(prefix);
  const [web, browser] = await startHostAndBrowser(dataDir);
  async function stop(): Promise<void> {
    await browser.close().catch(() => undefined);
    await web.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const problems: string[] = [];
  const framesToPage: string[] = [];
  let page: Page;
  try {
    const context = await browser.newContext({ viewport: WIDE });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => framesToPage.push(String(f.payload))));
    await page.goto(web.url);
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    if (!options.firstStart) {
      await invoke(page, 'settings.update', { risk: { limitsReviewed: true } });
      await page.getByTestId('first-run-limits').waitFor({ state: 'detached' });
    }
  } catch (err) {
    // A desk that never opened leaves no host or browser behind.
    await stop();
    throw err;
  }

  return {
    web,
    browser,
    page,
    dataDir,
    problems,
    framesToPage,
    async shots(name) {
      await page.screenshot({ path: join(SHOTS, `desk-${name}-1280.png`) });
      await page.setViewportSize(NARROW);
      await renderedFrames(page);
      await page.screenshot({ path: join(SHOTS, `desk-${name}-420.png`) });
      await page.setViewportSize(WIDE);
      await renderedFrames(page);
    },
    async paperUrl() {
      const r = await page.evaluate(() => window.bridge.invoke('profiles.list'));
      if (!r.ok) throw new Error(`profiles.list: ${r.error.message}`);
      const paper = r.value.profiles.find((p) => p.kind === 'paper');
      if (!paper?.baseUrl) throw new Error('the paper profile has no URL');
      return paper.baseUrl;
    },
    stop,
  };
}

/**
 * Resolves once the page has drawn two frames: a viewport change has then been laid out (media
 * queries, the desk's own resize handling) and painted.
 */
export function renderedFrames(page: Page): Promise<unknown> {
  return page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** Screenshots of the page as drawn, `<name>-1280.png` and (unless `narrow` is false) `<name>-420.png`
 *  at 420 px wide, under SHOTS; the page is back at 1280×720 after. */
export async function shotsAt(page: Page, name: string, narrow = true): Promise<void> {
  await renderedFrames(page);
  await page.screenshot({ path: join(SHOTS, `${name}-1280.png`) });
  if (!narrow) return;
  await page.setViewportSize(NARROW);
  await renderedFrames(page);
  await page.screenshot({ path: join(SHOTS, `${name}-420.png`) });
  await page.setViewportSize(WIDE);
  await renderedFrames(page);
}

export interface PaperProcess {
  child: ChildProcess;
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * `npm run paper` as a child (node + tsx, its own process group), on `port` (0: any free one);
 * `extraArgs` adds options (the test-only `--fault-place-delay-ms`).
 */
export function startPaper(
  dataDir: string,
  apiKey: string,
  port = 0,
  timeoutMs = 30_000,
  extraArgs: readonly string[] = [],
): Promise<PaperProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src-main', 'paper', 'cli.ts'),
      '--port',
      String(port),
      '--data',
      dataDir,
      '--apikey',
      apiKey,
      ...extraArgs,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const pid = child.pid;
  async function stop(): Promise<void> {
    if (pid === undefined) return;
    signalGroup(pid, 'SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`paper gateway printed no address within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^Listening on (http:\/\/[\d.]+:(\d+))/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      resolve({ child, url: m[1]!, port: Number(m[2]), stop });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`paper gateway exited before listening: ${stderr}`));
    });
  });
}

/**
 * A standalone paper gateway (key `apiKey`) and a desk beside it for `use`; afterwards both stop, the
 * gateway also when the desk fails to open or to stop (a child left behind skews later runs).
 */
export async function withPaperAndDesk<T>(
  prefix: string,
  apiKey: string,
  use: (desk: Desk, gateway: PaperProcess) => Promise<T>,
): Promise<T> {
  const paperDir = tempDir(`${prefix}-paper`);
  try {
    const gateway = await startPaper(paperDir, apiKey);
    try {
      const desk = await openDesk(prefix);
      try {
        return await use(desk, gateway);
      } finally {
        await desk.stop();
      }
    } finally {
      await gateway.stop();
    }
  } finally {
    rmSync(paperDir, { recursive: true, force: true });
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Calls a channel through the page's own bridge (to set up state a flow starts from). */
export async function invoke<T = unknown>(page: Page, channel: string, input?: unknown): Promise<T> {
  const r = await page.evaluate(
    ([c, i]) => (window.bridge.invoke as (c: string, i: unknown) => Promise<unknown>)(c as string, i),
    [channel, input] as const,
  );
  const result = r as { ok: boolean; value?: T; error?: { kind: string; message: string } };
  if (!result.ok) throw new Error(`${channel}: ${result.error?.kind} ${result.error?.message}`);
  return result.value as T;
}

/**
 * What the pressed button said as the press landed: its text (commas out) or its aria-label, read by a
 * one-shot capture listener that runs before the desk's own handlers. Live prices (depth, chain) move
 * between a read made a moment before and the press itself.
 */
export async function readAsPressed(
  page: Page,
  type: 'click' | 'keydown',
  what: 'text' | 'label',
  press: () => Promise<void>,
): Promise<string> {
  const read =
    what === 'label'
      ? "b?.getAttribute('aria-label') ?? ''"
      : "(b?.textContent ?? '').replace(/,/g, '').trim()";
  await page.evaluate(`window.addEventListener('${type}', (e) => {
    const b = e.target.closest('button');
    window.__pressedRead = ${read};
  }, { capture: true, once: true })`);
  await press();
  return page.evaluate<string>('window.__pressedRead');
}

/** The last price of an NSE symbol, on its 0.05 tick. */
export async function ltpOf(page: Page, symbol: string): Promise<number> {
  const q = await invoke<{ data: { ltp: number } }>(page, 'market.quotes', { symbol, exchange: 'NSE' });
  return q.data.ltp;
}

/** Loads `symbol` into the ticket by the desk's `/` search, typed whole, until the ticket's name is
 *  `shown`; `/` is the desk's key outside a text field, so focus leaves the field it is in first. */
export async function pickInstrument(
  page: Page,
  symbol: string,
  shown: string | RegExp = symbol,
): Promise<void> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press('/');
  // The search box takes focus once the key is handled: typed before that, the letters go nowhere.
  await expect
    .poll(() => page.evaluate('document.activeElement?.getAttribute("role") ?? ""'), { timeout: 5_000 })
    .toBe('combobox');
  await page.keyboard.type(symbol.toLowerCase());
  await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const name = page.getByRole('form', { name: 'Order ticket' }).locator('.name').first();
  const named = expect.poll(() => name.textContent(), { timeout: 10_000 });
  await (typeof shown === 'string' ? named.toBe(shown) : named.toMatch(shown));
}

/** The nearest expiry's row among search results (DD-MMM-YY expiries), worked out apart from the
 *  desk's own ranking. */
export function nearestExpiry<T extends { expiry: string }>(rows: readonly T[]): T {
  const at = (e: string) => Date.parse(e.replace(/-/g, ' '));
  const sorted = [...rows].sort((a, b) => at(a.expiry) - at(b.expiry));
  if (!sorted[0]) throw new Error('no contract found');
  return sorted[0];
}

/** A price `pct` percent away from `ltp`, on the 0.05 tick, as text with two decimals. */
export function priceAway(ltp: number, pct: number): string {
  const ticks = Math.round((ltp * (1 + pct / 100)) / 0.05);
  return (ticks * 0.05).toFixed(2);
}
