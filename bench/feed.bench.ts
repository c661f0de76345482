// The WebSocket feed (`npx tsx bench/run.ts feed`):
// 1. Fill → alert latency: a resting LIMIT is filled in the paper engine (price moved through it,
//    matching run) and the time until the core emits `orders.filled` is taken, over the feed's
//    order_update and over polling alone at the default intervals (open orders: 1 s). Median and
//    p99 of BENCH_FILLS fills each (default 30). Target: feed p99 < 250 ms.
// 2. The feed's CPU: 50 NSE symbols in Depth mode at 10 updates/s each (the market clock runs 10×
//    so every 100 ms is a new simulated second and a new book), for BENCH_FEED_MS (default 10 s),
//    against the same gateway with nobody subscribed. The reading client runs in this process too
//    (it only counts frames), so the figure is an upper bound for the server's share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createCore, type Core } from '../src-main/core/index.js';
import { createMemoryLogger } from '../src-main/core/secrets/index.js';
import { generateApiKey } from '../src-main/paper/auth/key-store.js';
import { engineExtension } from '../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../src-main/paper/engine/trading-engine.js';
import { startPaperGateway, type PaperGateway } from '../src-main/paper/gateway.js';
import type { Clock } from '../src-main/contract/clock.js';

const FILLS = Number(process.env.BENCH_FILLS ?? 30);
const FEED_MS = Number(process.env.BENCH_FEED_MS ?? 10_000);

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function withGateway<T>(
  clock: Clock | undefined,
  fn: (gw: PaperGateway, engine: PaperTradingEngine) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feed-bench-'));
  let engine: PaperTradingEngine | undefined;
  const gw = await startPaperGateway({
    dataDir,
    apiKey: generateApiKey(),
    ...(clock ? { clock } : {}),
    rateLimits: { api: 10_000, order: 10_000, smart: 10_000, ticker: 10_000, expiry: 10_000 },
    extensions: [engineExtension({ capital: 1e10, onEngine: (e) => (engine = e) })],
    // Faster than a simulated second at the CPU run's 10× clock, so no book is skipped.
    feed: { tickMs: 50 },
  });
  try {
    if (!engine) throw new Error('no engine');
    return await fn(gw, engine);
  } finally {
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Fill → `orders.filled` latencies (ms) of a core on this gateway, with or without its feed. */
async function fillLatencies(
  gw: PaperGateway,
  engine: PaperTradingEngine,
  useFeed: boolean,
): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feed-bench-core-'));
  const logger = createMemoryLogger();
  const core: Core = createCore({
    paths: { dataDir },
    logger,
    notifier: { notify: () => undefined },
    tray: { update: () => undefined },
    keytar: null,
    // The desk on screen: polling at its default visible pace (1 s while orders are open).
    visible: true,
    startPaperGateway: async ({ apiKey }) => {
      gw.keys.add(apiKey);
      return { url: gw.url, ...(useFeed ? { feedUrl: gw.feedUrl } : {}), stop: async () => undefined };
    },
  });
  let filledAt: ((t: number) => void) | undefined;
  let accepted: ((id: string) => void) | undefined;
  core.events.on('orders.filled', () => filledAt?.(performance.now()));
  core.events.on('orders.accepted', (e) => accepted?.(e.order.orderid));
  await core.start();
  try {
    await core.router.invoke('settings.update', {
      risk: {
        maxQuantityPerOrder: 1_000_000,
        maxValuePerOrder: 1e12,
        priceBandPercent: 10,
        duplicateWindowMs: 0,
      },
    });
    await core.pollNow();
    if (useFeed) {
      const end = Date.now() + 5000;
      while (!logger.entries.some((e) => e.message === 'gateway feed live')) {
        if (Date.now() > end) throw new Error('the feed did not go live');
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const inst = gw.master.get('NSE', 'SBIN');
    if (!inst) throw new Error('no SBIN');
    const out: number[] = [];
    for (let n = 0; n < FILLS; n++) {
      const ltp = gw.market.lastPrice(inst);
      const limit = Number((Math.round((ltp * 0.97) / inst.tickSize) * inst.tickSize).toFixed(2));
      const open = new Promise<string>((resolve) => (accepted = resolve));
      const r = await core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price: limit,
        product: 'MIS',
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      // The core knows the order is open; the fill comes at a random phase of its polling.
      await open;
      await new Promise((res) => setTimeout(res, Math.random() * 1000));
      const seen = new Promise<number>((resolve) => (filledAt = resolve));
      const t0 = performance.now();
      gw.market.setPrice(inst, Number((limit * 0.99).toFixed(2)));
      engine.tick();
      const t1 = await seen;
      filledAt = undefined;
      out.push(t1 - t0);
      gw.market.setPrice(inst, ltp);
    }
    return out.sort((a, b) => a - b);
  } finally {
    await core.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function feedCpu(): Promise<void> {
  const start = Date.now();
  // Ten simulated seconds per real second: a new book for every symbol every 100 ms.
  const fast: Clock = {
    now: () => start + (Date.now() - start) * 10,
    setTimer(fn, delay) {
      const t = setTimeout(fn, delay);
      return () => clearTimeout(t);
    },
  };
  await withGateway(fast, async (gw) => {
    const symbols = gw.master.all
      .filter((i) => i.exchange === 'NSE' && i.kind === 'EQ')
      .slice(0, 50)
      .map((i) => ({ symbol: i.symbol, exchange: i.exchange }));
    const idleFrom = process.cpuUsage();
    await new Promise((r) => setTimeout(r, FEED_MS));
    const idle = process.cpuUsage(idleFrom);

    const ws = new WebSocket(gw.feedUrl);
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    let frames = 0;
    let bytes = 0;
    ws.on('message', (data: Buffer) => {
      frames++;
      bytes += data.length;
    });
    ws.send(JSON.stringify({ action: 'authenticate', api_key: gw.apiKey }));
    ws.send(JSON.stringify({ action: 'subscribe', symbols, mode: 'Depth' }));
    await new Promise((r) => setTimeout(r, 500));
    const f0 = frames;
    const b0 = bytes;
    const from = process.cpuUsage();
    const wall0 = performance.now();
    await new Promise((r) => setTimeout(r, FEED_MS));
    const used = process.cpuUsage(from);
    const wall = performance.now() - wall0;
    ws.close();
    const cpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
    const rate = ((frames - f0) / wall) * 1000;
    console.log(
      `feed CPU, ${symbols.length} symbols × Depth at 10 updates/s: ${((cpu(used) / wall) * 100).toFixed(1)}% of one core ` +
        `(idle gateway: ${((cpu(idle) / FEED_MS) * 100).toFixed(1)}%), ${rate.toFixed(0)} ticks/s received ` +
        `(${(rate / symbols.length).toFixed(1)} per symbol), ${((((bytes - b0) / wall) * 1000) / 1024).toFixed(0)} KiB/s, ` +
        `${gw.feed.stats().dropped} dropped`,
    );
  });
}

export async function run(): Promise<void> {
  await withGateway(undefined, async (gw, engine) => {
    const feed = await fillLatencies(gw, engine, true);
    const poll = await fillLatencies(gw, engine, false);
    console.log(
      `fill → alert over the feed: median ${ms(percentile(feed, 50))}, p99 ${ms(percentile(feed, 99))} ` +
        `(${feed.length} fills; target p99 < 250 ms)`,
    );
    console.log(
      `fill → alert by polling (default intervals): median ${ms(percentile(poll, 50))}, p99 ${ms(percentile(poll, 99))} ` +
        `(${poll.length} fills)`,
    );
  });
  await feedCpu();
}
