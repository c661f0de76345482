// The option chain and the chart, end to end in Chromium, beside the bare gateway calls behind them in
// the same run, interleaved:
// - chain: Load in the Chain pane (NIFTY, ±20 strikes = 41) → 41 rows on screen, the ATM row marked
//   and its call priced, the loading note gone (the quotes shown; the greeks' two reads come after
//   and are not in the figure); bare: expiry, search, the index quote and one multiquotes of the 82 contracts
//   and the spot, in sequence over HTTP, as the desk asks them.
// - chart: a switch to 1m in the Chart pane (SBIN) → one day of 1-minute bars (a) handed to the chart
//   (the series' data set: the desk's own work, which the ≤ 2× target judges) and (b) painted (two
//   animation frames later: adds the browser's frame clock); bare: the same ticker GET over HTTP.
// The desk uses a standalone paper gateway as a gateway profile, so this process knows its key for the
// bare calls. `npx tsx bench/run.ts chain-chart`; BENCH_CHAIN_ROUNDS sets the rounds (default 20).
// The host times its own part of each read (ORDERDESK_HOST_TIMING), printed last.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { tempDir, withPaperAndDesk, type Desk, type PaperProcess } from '../test/support/desk-harness.js';
import { HOST_TIMING_ENV } from '../src-main/web/host-timing.js';
import { useBenchGateway } from './bench-gateway.js';

const ROUNDS = Number(process.env.BENCH_CHAIN_ROUNDS ?? 20);
const PACE_MS = 250;
/**
 * Between a chain load and the next: one load is six requests (expiry, search, spot, chain, two
 * batches of greeks) and the budget holds each for a second after its answer, as the gateway's
 * 10/s window counts them; loads ~1.1 s apart stay inside it, as a trader's do. Closer loads must
 * queue at any client that keeps the gateway's limit, which the bare calls do not.
 */
const CHAIN_PACE_MS = 500;
const KEY = 'c'.repeat(16) + '0123456789abcdef'.repeat(3);
const DAY_MS = 86_400_000;

// The page's globals, as seen by functions page.evaluate runs there (this file has no DOM types).
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  click(): void;
}
declare const document: {
  body: unknown;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): { length: number };
};
declare const performance: { now(): number };
declare function requestAnimationFrame(cb: () => void): void;
declare class MutationObserver {
  constructor(cb: () => void);
  observe(
    target: unknown,
    options: { subtree: boolean; childList: boolean; characterData: boolean; attributes: boolean },
  ): void;
  disconnect(): void;
}

function stats(xs: readonly number[]): { median: number; p99: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
  return { median: at(50), p99: at(99), min: s[0] ?? NaN, max: s.at(-1) ?? NaN };
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const line = (label: string, xs: number[]) => {
  const s = stats(xs);
  return `${label} median ${fmt(s.median)}  p99 ${fmt(s.p99)}  (min ${fmt(s.min)}, max ${fmt(s.max)})`;
};

async function setUp(desk: Desk, gateway: PaperProcess): Promise<void> {
  const { page } = desk;
  await useBenchGateway(page, gateway.url, KEY);
}

/** Load in the chain pane → 41 rows, the ATM row marked with its call's LTP; in-page time (ms). */
function deskChain(page: Page): Promise<number> {
  // No named functions inside: tsx's keepNames would wrap them in a helper the page does not have.
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const load = document.querySelector('.chain form button.load');
        if (!load) return reject(new Error('no chain pane on the page'));
        let t0 = 0;
        const obs = new MutationObserver(() => {
          const rows = document.querySelectorAll('.chain [role="grid"] tbody tr').length;
          const ltp =
            document.querySelector('.chain [role="grid"] tbody tr.atm td.ltp button')?.textContent ?? '';
          if (rows !== 41 || !/\d/.test(ltp) || document.querySelector('.chain p.note[role="status"]'))
            return;
          const done = performance.now() - t0;
          obs.disconnect();
          clearTimeout(timer);
          resolve(done);
        });
        const timer = setTimeout(() => {
          obs.disconnect();
          reject(new Error('the chain did not load within 10 s'));
        }, 10_000);
        obs.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: false,
        });
        t0 = performance.now();
        load.click();
      }),
  );
}

/** A switch's two figures (in-page ms): bars handed to the chart, then the frame after they were painted. */
interface ChartSwitch {
  /** Switch → the series' data set: the desk's own work (IPC, core, gateway, parse, setData). */
  set: number;
  /** Switch → two animation frames later: the chart's first painted frame is done (the browser's clock). */
  painted: number;
}

/**
 * A switch to `interval` in the chart pane. The pane sets the canvas's data-bars in the same update
 * that hands the bars to the chart (setData), so the attribute's change marks "set"; the library
 * draws in its next animation frame, and the second frame after is when that paint is done.
 */
function deskChart(page: Page, interval: string): Promise<ChartSwitch> {
  return page.evaluate(
    (iv) =>
      new Promise<ChartSwitch>((resolve, reject) => {
        const button = document.querySelector(`.chart button[aria-label="${iv} bars"]`);
        const canvas = document.querySelector('.chart .canvas');
        if (!button || !canvas) return reject(new Error('no chart pane on the page'));
        let t0 = 0;
        const obs = new MutationObserver(() => {
          if (canvas.getAttribute('data-interval') !== iv || Number(canvas.getAttribute('data-bars')) === 0)
            return;
          const set = performance.now() - t0;
          obs.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve({ set, painted: performance.now() - t0 })),
          );
        });
        const timer = setTimeout(() => {
          obs.disconnect();
          reject(new Error(`no ${iv} bars within 10 s`));
        }, 10_000);
        obs.observe(canvas, { subtree: false, childList: false, characterData: false, attributes: true });
        t0 = performance.now();
        button.click();
      }),
    interval,
  );
}

async function post<T>(url: string, path: string, body: object): Promise<T> {
  const res = await fetch(`${url}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: KEY, ...body }),
  });
  const answer = (await res.json()) as T & { status?: string };
  if (res.status !== 200 || answer.status !== 'success') throw new Error(`${path} answered ${res.status}`);
  return answer;
}

/** The chain's gateway calls, bare: expiry → search → index quote → multiquotes (41 strikes). */
async function bareChain(url: string): Promise<number> {
  const t0 = performance.now();
  const expiries = await post<{ data: string[] }>(url, 'expiry', {
    symbol: 'NIFTY',
    exchange: 'NFO',
    instrumenttype: 'options',
  });
  const code = expiries.data[0]!.replace(/-/g, '');
  const found = await post<{ data: { symbol: string; strike: number }[] }>(url, 'search', {
    query: `NIFTY${code}`,
    exchange: 'NFO',
  });
  const spot = await post<{ data: { ltp: number } }>(url, 'quotes', {
    symbol: 'NIFTY',
    exchange: 'NSE_INDEX',
  });
  const options = found.data.filter((r) => r.symbol.startsWith(`NIFTY${code}`) && /(CE|PE)$/.test(r.symbol));
  const strikes = [...new Set(options.map((r) => r.strike))].sort((a, b) => a - b);
  let atm = 0;
  for (let i = 1; i < strikes.length; i++)
    if (Math.abs(strikes[i]! - spot.data.ltp) < Math.abs(strikes[atm]! - spot.data.ltp)) atm = i;
  const shown = new Set(strikes.slice(Math.max(0, atm - 20), atm + 21));
  const symbols = [
    { symbol: 'NIFTY', exchange: 'NSE_INDEX' },
    ...options.filter((r) => shown.has(r.strike)).map((r) => ({ symbol: r.symbol, exchange: 'NFO' })),
  ];
  await post(url, 'multiquotes', { symbols });
  return performance.now() - t0;
}

/** One day of SBIN 1-minute bars, bare. */
async function bareChart(url: string): Promise<number> {
  const from = String(Date.now() - DAY_MS);
  const t0 = performance.now();
  const res = await fetch(`${url}/api/v1/ticker/NSE:SBIN?interval=1m&from=${from}`, {
    headers: { 'x-api-key': KEY },
  });
  const answer = (await res.json()) as { status?: string; data?: unknown[] };
  const ms = performance.now() - t0;
  if (res.status !== 200 || answer.status !== 'success') throw new Error(`ticker answered ${res.status}`);
  return ms;
}

/**
 * The host's own part of the chart's and the chain's reads (src-main/web/host-timing.ts: frame in →
 * reply handed to the socket, less the gateway exchange), median per channel, the warm-up's left out.
 */
function printHostParts(path: string): void {
  const byChannel = new Map<string, { host: number[]; gateway: number[] }>();
  for (const l of readFileSync(path, 'utf8').trim().split('\n')) {
    const [channel = '', host, gatewayMs] = l.split(' ');
    if (!channel.startsWith('market.')) continue;
    const c = byChannel.get(channel) ?? { host: [], gateway: [] };
    c.host.push(Number(host));
    c.gateway.push(Number(gatewayMs));
    byChannel.set(channel, c);
  }
  for (const [channel, c] of byChannel) {
    const n = c.host.length;
    const host = stats(c.host.slice(Math.min(3, n - 1)));
    const gw = stats(c.gateway.slice(Math.min(3, n - 1)));
    console.log(
      `      host's part of ${channel} (${n} calls): median ${fmt(host.median)}; its gateway exchange ${fmt(gw.median)}`,
    );
  }
}

export async function run(): Promise<void> {
  const timingDir = tempDir('bench-chain-timing');
  const timingFile = join(timingDir, 'host-timing.txt');
  // The host started for this bench writes its own time per call there (HOST_TIMING_ENV).
  process.env[HOST_TIMING_ENV] = timingFile;
  try {
    await measure();
    printHostParts(timingFile);
  } finally {
    delete process.env[HOST_TIMING_ENV];
    rmSync(timingDir, { recursive: true, force: true });
  }
}

async function measure(): Promise<void> {
  await withPaperAndDesk('bench-chain-chart', KEY, async (desk, gateway) => {
    await setUp(desk, gateway);
    const { page } = desk;

    // The chain at ±20 strikes.
    await page.getByRole('tab', { name: 'Chain', exact: true }).click();
    await page.getByRole('grid', { name: /option chain/ }).waitFor({ timeout: 20_000 });
    await page.getByRole('combobox', { name: 'Strikes each side of the money' }).selectOption('20');
    const chain: number[] = [];
    const chainBare: number[] = [];
    for (let i = 0; i < ROUNDS + 3; i++) {
      const d = await deskChain(page);
      await sleep(CHAIN_PACE_MS);
      const b = await bareChain(gateway.url);
      await sleep(CHAIN_PACE_MS);
      // The first rounds warm the JIT, connections and caches.
      if (i >= 3) {
        chain.push(d);
        chainBare.push(b);
      }
    }

    // The chart of the ticket's SBIN.
    await page.locator('#ticket-search').fill('sbin');
    await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Chart', exact: true }).click();
    await page
      .locator('.chart .canvas[data-interval="1m"]:not([data-bars="0"])')
      .waitFor({ timeout: 20_000 });
    const chartSet: number[] = [];
    const chartPainted: number[] = [];
    const chartBare: number[] = [];
    let bars = 0;
    for (let i = 0; i < ROUNDS + 3; i++) {
      await deskChart(page, '5m');
      await sleep(PACE_MS);
      const d = await deskChart(page, '1m');
      bars = Number(await page.locator('.chart .canvas').getAttribute('data-bars'));
      await sleep(PACE_MS);
      const b = await bareChart(gateway.url);
      await sleep(PACE_MS);
      if (i >= 3) {
        chartSet.push(d.set);
        chartPainted.push(d.painted);
        chartBare.push(b);
      }
    }
    if (desk.problems.length > 0) throw new Error(`the page logged errors: ${desk.problems.join('; ')}`);
    console.log(`rounds: ${ROUNDS} of each, interleaved with the bare calls, after 3 warm-up rounds`);
    const ratio = (d: number[], b: number[]) =>
      `desk/bare at the median ${(stats(d).median / stats(b).median).toFixed(1)}× (target ≤ 2×)`;
    console.log(line('desk  chain of 41 strikes: Load → on screen        ', chain));
    console.log(line('bare  expiry + search + quotes + multiquotes (83) ', chainBare));
    console.log(`      chain: ${ratio(chain, chainBare)}, loads ${CHAIN_PACE_MS * 2} ms apart plus the load`);
    console.log(line(`desk  chart 1m (${bars} bars): switch → bars set     `, chartSet));
    console.log(line(`desk  chart 1m (${bars} bars): switch → painted      `, chartPainted));
    console.log(line('bare  ticker 1m, one day                          ', chartBare));
    console.log(
      `      chart, bars set (the desk's work; the target's figure): ${ratio(chartSet, chartBare)}`,
    );
    console.log(
      `      chart, painted (adds the browser's frame clock, 16-33 ms at 60 Hz): ${(stats(chartPainted).median / stats(chartBare).median).toFixed(1)}× bare`,
    );
  });
}
