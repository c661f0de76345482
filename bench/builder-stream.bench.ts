// The strategy builder in the real desk page while the chain streams at 10 updates a second (issue 27):
// Chromium, the desk's host, and a paper gateway started in this process so its market can be driven.
// - Chain tab (NIFTY), Build on, the strip's "Iron condor" template, then the Strategy tab: four legs,
//   the payoff diagram and its figures, the builder's own watch on the legs and the spot.
// - The market: the paper gateway's WebSocket feed looks for changed books every FEED_TICK_MS (the
//   standalone CLI has no option for it: 250 ms there), and its prices only move once a second of
//   their own (the price path is per second). So this bench moves the NIFTY index itself through the
//   simulator's test-only setPrice, DRIVE_HZ times a second (a seeded random walk of a few points):
//   the index and every NIFTY option follow it, the feed sends each changed book, the desk's core
//   follows the feed and hands each tick to the page as a market.quote event, as it does in use.
// - Two windows in the page: QUIET_S seconds with the market left alone (its own ticks, once a
//   second), then STREAM_S seconds driven. In each: the builder updates applied (changes of the
//   "Strategy figures" table's text, which the payoff's recompute rewrites: P&L at the spot, net
//   premium), frames (requestAnimationFrame gaps), long tasks (PerformanceObserver 'longtask') and
//   how many of them held a builder update, and the renderer's main-thread time (CDP
//   Performance.getMetrics TaskDuration and ScriptDuration, before and after).
// - BENCH_TRACE=1 adds a third window, streaming again under a Chromium trace, that says what each
//   long task on the renderer's main thread held (its thread CPU time against its wall time: a task
//   much longer than its CPU time waited for a core; garbage collection, script, layout, paint).
// `npx tsx bench/run.ts builder-stream`; BENCH_STREAM_S sets the driven window (default 10 s).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { invoke, openDesk, tempDir, type Desk } from '../test/support/desk-harness.js';
import { startPaperGateway, type PaperGateway } from '../src-main/paper/gateway.js';

const KEY = 'b'.repeat(16) + '0123456789abcdef'.repeat(3);
const STREAM_S = Number(process.env.BENCH_STREAM_S ?? 10);
const QUIET_S = 5;
/** Moves of the index a second. */
const DRIVE_HZ = 10;
/** The feed's look for changed books: twice per move, so each move goes out once and soon. */
const FEED_TICK_MS = 50;
const FRAME_MS = 1000 / 60;
const TRACE = process.env.BENCH_TRACE === '1';
const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'disabled-by-default-v8.gc',
];
/** Trace events counted inside a long task (they nest: FunctionCall holds the GC it triggered). */
const TRACE_KINDS: Record<string, string> = {
  MajorGC: 'major GC',
  MinorGC: 'minor GC',
  'V8.GC_MARK_COMPACTOR': 'major GC',
  'V8.GC_SCAVENGER': 'minor GC',
  'V8.GC_MC_BACKGROUND_MARKING': 'GC marking',
  FunctionCall: 'script',
  EvaluateScript: 'script',
  'v8.compile': 'compile',
  'V8.CompileCode': 'compile',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  Paint: 'paint',
  PrePaint: 'paint',
  Commit: 'commit',
  FireAnimationFrame: 'animation frame',
};

function stats(xs: readonly number[]): { median: number; p99: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
  return { median: at(50), p99: at(99), max: s.at(-1) ?? Number.NaN };
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the page's probe gathered over one window (times on the page's clock, ms). */
interface Window {
  ms: number;
  /** requestAnimationFrame timestamps. */
  frames: number[];
  /** [start, duration] of each long task. */
  longTasks: [number, number][];
  /** When the figures table's text changed (a builder update on screen). */
  updates: number[];
  /** Mutation batches anywhere in the Strategy pane (legs' prices, spot, figures). */
  paneBatches: number;
}

/**
 * The page's probe, as a string: functions page.evaluate runs must not be named (tsx's keepNames
 * wraps them in a helper the page does not have), and this one has several.
 */
const PROBE_START = `(() => {
  const figs = document.querySelector('table[aria-label="Strategy figures"]');
  const pane = document.querySelector('.strategy-pane');
  if (!figs || !pane) throw new Error('no Strategy pane with its figures on the page');
  const b = { t0: performance.now(), frames: [], longTasks: [], updates: [], paneBatches: 0, stop: false };
  let last = figs.textContent;
  b.mo = new MutationObserver(() => {
    b.paneBatches++;
    const t = figs.textContent;
    if (t !== last) { last = t; b.updates.push(performance.now()); }
  });
  b.mo.observe(pane, { subtree: true, childList: true, characterData: true, attributes: false });
  b.po = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longTasks.push([e.startTime, e.duration]);
  });
  b.po.observe({ type: 'longtask' });
  const loop = (t) => { if (b.stop) return; b.frames.push(t); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  window.__builderStream = b;
})()`;

const PROBE_END = `(() => {
  const b = window.__builderStream;
  b.stop = true;
  b.mo.disconnect();
  b.po.disconnect();
  return { ms: performance.now() - b.t0, frames: b.frames, longTasks: b.longTasks, updates: b.updates,
    paneBatches: b.paneBatches };
})()`;

/** The long-task observer's own check: a 60 ms busy task in the page must be reported (ms seen). */
const LONG_TASK_CHECK = `new Promise((resolve) => {
  const seen = [];
  const po = new PerformanceObserver((list) => { for (const e of list.getEntries()) seen.push(e.duration); });
  po.observe({ type: 'longtask' });
  setTimeout(() => { const t = performance.now(); while (performance.now() - t < 60) {} }, 20);
  setTimeout(() => { po.disconnect(); resolve(seen); }, 400);
})`;

type Metrics = Record<string, number>;
async function metrics(cdp: {
  send(m: 'Performance.getMetrics'): Promise<{ metrics: { name: string; value: number }[] }>;
}): Promise<Metrics> {
  const r = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(r.metrics.map((m) => [m.name, m.value]));
}

/** market.quote events the page received since frame `from`, by EXCHANGE:SYMBOL. */
function quotesSince(desk: Desk, from: number): Map<string, number> {
  const by = new Map<string, number>();
  for (const f of desk.framesToPage.slice(from)) {
    if (!f.includes('"market.quote"')) continue;
    const frame = JSON.parse(f) as { name?: string; payload?: { symbol?: string; exchange?: string } };
    if (frame.name !== 'market.quote') continue;
    const key = `${frame.payload?.exchange}:${frame.payload?.symbol}`;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  return by;
}

/** The chain (NIFTY), Build on, the strip's Iron condor, then the Strategy tab with its figures. */
async function openBuilder(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Chain', exact: true }).click();
  const grid = page.getByRole('grid', { name: /option chain/ });
  await grid.waitFor({ timeout: 20_000 });
  await grid.locator('tbody tr.atm td.bid button').first().waitFor({ timeout: 15_000 });
  const build = page.getByRole('button', { name: 'Build', exact: true });
  await build.click();
  const strip = page.getByRole('group', { name: 'Strategy builder' });
  await strip.getByRole('combobox', { name: 'Apply a template around the money' }).selectOption({
    label: 'Iron condor',
  });
  await strip.getByText(/4 legs/).waitFor({ timeout: 10_000 });
  await page.getByRole('tab', { name: 'Strategy', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Strategy legs' }).locator('tbody tr');
  const figures = page.getByRole('table', { name: 'Strategy figures' });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const n = await rows.count();
    const text = (await figures.textContent().catch(() => '')) ?? '';
    if (n === 4 && /Max profit₹[\d,]+\.\d{2}/.test(text)) break;
    if (Date.now() > deadline) throw new Error(`the builder did not show the condor: ${n} legs, ${text}`);
    await sleep(200);
  }
}

/** Waits until the desk follows the gateway's feed (not polling); answers the state seen. */
async function feedState(page: Page): Promise<string> {
  const deadline = Date.now() + 15_000;
  let seen = 'unknown';
  while (Date.now() < deadline) {
    const s = await invoke<{ feed?: { state: string; reason?: string } }>(page, 'session.snapshot');
    seen = s.feed ? `${s.feed.state}${s.feed.reason ? ` (${s.feed.reason})` : ''}` : 'unknown';
    if (s.feed?.state === 'streaming') return seen;
    await sleep(250);
  }
  return seen;
}

/** A seeded random walk of the NIFTY index, DRIVE_HZ moves a second, each 1–5 points, mean-reverting. */
function driveIndex(gw: PaperGateway): { stop(): number } {
  const inst = gw.master.get('NSE_INDEX', 'NIFTY');
  if (!inst) throw new Error('the paper master has no NSE_INDEX NIFTY');
  const start = gw.market.lastPrice(inst);
  let price = start;
  let seed = 27;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let moves = 0;
  const timer = setInterval(() => {
    const size = 1 + rand() * 4;
    const dir = rand() < 0.5 + (start - price) / (start * 0.01) ? 1 : -1;
    price = Math.round((price + dir * size) / inst.tickSize) * inst.tickSize;
    gw.market.setPrice(inst, price);
    moves++;
  }, 1000 / DRIVE_HZ);
  return {
    stop() {
      clearInterval(timer);
      return moves;
    },
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Each long task on the renderer's main thread in a trace: wall and CPU time, and what it held. */
function explainLongTasks(trace: Buffer): string[] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const busiest = mains
    .map((m) => ({ m, n: events.filter((e) => e.pid === m.pid && e.tid === m.tid).length }))
    .sort((a, b) => b.n - a.n)[0]?.m;
  if (!busiest) return ['no renderer main thread in the trace'];
  const own = events.filter((e) => e.pid === busiest.pid && e.tid === busiest.tid && e.ph === 'X');
  const run = own.filter((e) => e.name === 'RunTask');
  /** What the events named in TRACE_KINDS add up to between two times (µs), largest first. */
  const within = (from: number, to: number) => {
    const by = new Map<string, number>();
    for (const e of own) {
      const kind = TRACE_KINDS[e.name];
      if (!kind || e.ts < from || e.ts > to) continue;
      by.set(kind, (by.get(kind) ?? 0) + (e.dur ?? 0));
    }
    return [...by]
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => `${k} ${fmt(us / 1000)}`)
      .join(', ');
  };
  const longestRun = run.reduce((m, e) => Math.max(m, e.dur ?? 0), 0);
  const whole = [
    `${run.length} tasks on the renderer main thread, longest ${fmt(longestRun / 1000)}, ` +
      `${run.filter((e) => (e.dur ?? 0) > FRAME_MS * 1000).length} over a frame (16.7 ms); ` +
      `in all: ${within(-Infinity, Infinity)}`,
  ];
  const tasks = run.filter((e) => (e.dur ?? 0) > 50_000);
  if (tasks.length === 0) return [...whole, 'no task over 50 ms'];
  return [
    ...whole,
    ...tasks.map((t) => {
      const inside = within(t.ts, t.ts + (t.dur ?? 0));
      return `task ${fmt((t.dur ?? 0) / 1000)} wall, ${t.tdur === undefined ? '?' : fmt(t.tdur / 1000)} CPU; inside: ${inside || 'nothing named'}`;
    }),
  ];
}

interface Figures {
  label: string;
  seconds: number;
  w: Window;
  task: number;
  script: number;
  layout: number;
  style: number;
  quotes: Map<string, number>;
  moves: number;
}

async function measureWindow(
  desk: Desk,
  cdp: Parameters<typeof metrics>[0],
  label: string,
  seconds: number,
  drive: (() => { stop(): number }) | undefined,
): Promise<Figures> {
  const { page } = desk;
  const from = desk.framesToPage.length;
  await page.evaluate(PROBE_START);
  const m0 = await metrics(cdp);
  const driver = drive?.();
  // Nothing of this process reaches into the page during the window.
  await sleep(seconds * 1000);
  const moves = driver?.stop() ?? 0;
  const m1 = await metrics(cdp);
  const w = (await page.evaluate(PROBE_END)) as Window;
  const d = (name: string) => ((m1[name] ?? 0) - (m0[name] ?? 0)) * 1000;
  return {
    label,
    seconds: w.ms / 1000,
    w,
    task: d('TaskDuration'),
    script: d('ScriptDuration'),
    layout: d('LayoutDuration'),
    style: d('RecalcStyleDuration'),
    quotes: quotesSince(desk, from),
    moves,
  };
}

function print(f: Figures): void {
  const { w } = f;
  const gaps = w.frames.slice(1).map((t, i) => t - w.frames[i]!);
  const g = stats(gaps);
  const over50 = gaps.filter((x) => x > 50).length;
  const dropped = gaps.filter((x) => x > FRAME_MS * 1.5).length;
  const longest = w.longTasks.reduce((m, [, d]) => Math.max(m, d), 0);
  // A long task "held" a builder update when the figures changed inside it (the mutation observer
  // runs at the end of the task that changed the DOM).
  const holding = w.longTasks.filter(([s, d]) => w.updates.some((u) => u >= s && u <= s + d + 1));
  const longestHolding = holding.reduce((m, [, d]) => Math.max(m, d), 0);
  // Frames whose interval (from the frame before) saw a builder update: updates beyond one a frame
  // were worked out and laid out but never shown on their own.
  const framesWithUpdates = new Set(
    w.updates.map((u) => {
      let i = 0;
      while (i < w.frames.length && w.frames[i]! < u) i++;
      return i;
    }),
  ).size;
  const legs = [...f.quotes].filter(([k]) => /^NFO:.*(CE|PE)$/.test(k));
  const others = [...f.quotes].filter(([k]) => k !== 'NSE_INDEX:NIFTY' && !legs.some(([l]) => l === k));
  const spot = f.quotes.get('NSE_INDEX:NIFTY') ?? 0;
  const per = (n: number) => (n / f.seconds).toFixed(1);
  const perUpdate = (ms: number) => (w.updates.length ? fmt(ms / w.updates.length) : '—');
  console.log(`${f.label}: ${f.seconds.toFixed(1)} s${f.moves ? `, ${f.moves} index moves` : ''}`);
  console.log(
    `  quotes to the page: NIFTY index ${spot} (${per(spot)}/s); option legs ${legs
      .map(([k, n]) => `${k.slice(4)} ${n}`)
      .join(', ')} (${per(legs.reduce((n, [, c]) => n + c, 0) / Math.max(1, legs.length))}/s each)` +
      (others.length ? `; others ${others.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''),
  );
  console.log(
    `  builder updates applied (figures redrawn): ${w.updates.length} (${per(w.updates.length)}/s); ` +
      `in ${framesWithUpdates} frames; Strategy pane mutation batches ${w.paneBatches}`,
  );
  console.log(
    `  frames: ${w.frames.length} (${per(w.frames.length)}/s); gap median ${fmt(g.median)}, p99 ${fmt(g.p99)}, ` +
      `worst ${fmt(g.max)}; over 25 ms ${dropped}, over 50 ms ${over50}`,
  );
  console.log(
    `  long tasks: ${w.longTasks.length}, longest ${fmt(longest)}; holding a builder update ${holding.length}` +
      (holding.length ? `, longest of those ${fmt(longestHolding)}` : '') +
      (w.longTasks.length
        ? ` (${w.longTasks
            .slice(0, 10)
            .map(([t, d]) => `${fmt(d)} at +${((t - w.frames[0]!) / 1000).toFixed(1)} s`)
            .join(', ')})`
        : ''),
  );
  console.log(
    `  renderer main thread: tasks ${fmt(f.task)} (${((f.task / (f.seconds * 1000)) * 100).toFixed(1)}% busy), ` +
      `script ${fmt(f.script)}, layout ${fmt(f.layout)}, style ${fmt(f.style)}; ` +
      `per builder update: tasks ${perUpdate(f.task)}, script ${perUpdate(f.script)}`,
  );
}

export async function run(): Promise<void> {
  const paperDir = tempDir('bench-builder-stream-paper');
  try {
    const gw = await startPaperGateway({ dataDir: paperDir, apiKey: KEY, feed: { tickMs: FEED_TICK_MS } });
    try {
      const desk = await openDesk('bench-builder-stream');
      try {
        await measure(desk, gw);
      } finally {
        await desk.stop();
      }
    } finally {
      await gw.stop();
    }
  } finally {
    rmSync(paperDir, { recursive: true, force: true });
  }
}

/**
 * A profile for this gateway with its feed named: from an http:// base URL the desk would look for
 * upstream's feed port (8765), where this gateway does not listen (bench-gateway.ts's profile polls).
 */
async function useGateway(page: Page, gw: PaperGateway): Promise<void> {
  const list = await invoke<{ profiles: { id: string; name: string }[] }>(page, 'profiles.add', {
    name: 'Bench gateway',
    baseUrl: gw.url,
    feedUrl: gw.feedUrl,
  });
  const id = list.profiles.find((p) => p.name === 'Bench gateway')!.id;
  await invoke(page, 'apiKey.set', { key: KEY, profileId: id });
  await invoke(page, 'profiles.switch', { id });
  await page
    .getByTestId('connection')
    .and(page.locator('[data-state="connected"]'))
    .waitFor({ timeout: 20_000 });
}

async function measure(desk: Desk, gw: PaperGateway): Promise<void> {
  const { page } = desk;
  await useGateway(page, gw);
  const feed = await feedState(page);
  await openBuilder(page);
  // The greeks' read and the margin's ask land after the legs; the first frames after the tab's
  // mount are the pane's own.
  await sleep(2_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const load = loadavg().map((x) => x.toFixed(2));
  console.log(
    `desk: NIFTY iron condor (4 legs) in the Strategy tab, 1280×720; feed ${feed}, paper feed tick ${FEED_TICK_MS} ms`,
  );
  console.log(`load average before: ${load.join(' ')}`);
  const quiet = await measureWindow(
    desk,
    cdp,
    `quiet (the market's own ticks, once a second)`,
    QUIET_S,
    undefined,
  );
  const streaming = await measureWindow(
    desk,
    cdp,
    `streaming (the index moved ${DRIVE_HZ}× a second)`,
    STREAM_S,
    () => driveIndex(gw),
  );
  let traced: { f: Figures; tasks: string[] } | undefined;
  if (TRACE) {
    await desk.browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const f = await measureWindow(desk, cdp, `streaming again, traced`, STREAM_S, () => driveIndex(gw));
    traced = { f, tasks: explainLongTasks(await desk.browser.stopTracing()) };
  }
  print(quiet);
  print(streaming);
  const extra = streaming.w.updates.length - (quiet.w.updates.length * streaming.seconds) / quiet.seconds;
  const extraTask = streaming.task - (quiet.task * streaming.seconds) / quiet.seconds;
  const extraScript = streaming.script - (quiet.script * streaming.seconds) / quiet.seconds;
  if (extra > 0)
    console.log(
      `  marginal cost of an update (streaming less quiet, per extra update): tasks ${fmt(extraTask / extra)}, ` +
        `script ${fmt(extraScript / extra)}`,
    );
  if (traced) {
    print(traced.f);
    for (const l of traced.tasks) console.log(`  trace: ${l}`);
  }
  const check = (await page.evaluate(LONG_TASK_CHECK)) as number[];
  console.log(
    `long-task observer check: a 60 ms busy task in the page was ${
      check.length ? `seen (${check.map(fmt).join(', ')})` : 'NOT seen: the long-task figures are void'
    }`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log('target: frames ≤ 16.7 ms at the median; no long task over 50 ms attributable to the builder');
  await cdp.detach();
  if (desk.problems.length > 0) throw new Error(`the page logged errors: ${desk.problems.join('; ')}`);
}
