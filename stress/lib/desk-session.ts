// A desk session for the stress suites: the embedded paper gateway and a core wired to it, as the
// app composes them, sharing one ManualClock so hours of trading pass in seconds. Every request the
// core sends is counted (in flight, start times on the clock, 429 answers) and every event and
// notification recorded, so the suites can state their invariants from outside the code under test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Clock } from '../../src-main/contract/clock.js';
import type { EventName } from '../../src-main/contract/index.js';
import { createCore, type Core, type CorePorts } from '../../src-main/core/index.js';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import { ManualClock, settle } from '../../src-main/gateway/clock.js';
import { limiterClassOfPath, type LimiterClass } from '../../src-main/gateway/limiter-classes.js';
import { engineExtension } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import { startPaperGateway, type PaperGateway } from '../../src-main/paper/gateway.js';
import type { FromThread, PaperThreadData, Quotes, ToThreadBody } from './paper-thread.js';
import { PublishingClock } from './shared-clock.js';
import { STRESS_SYMBOLS } from './ticket-actions.js';

/** 2026-11-20 09:15 IST, a Friday: the market opens. */
export const SESSION_OPEN_MS = Date.parse('2026-11-20T09:15:00+05:30');

/** An order event, kept small: a session holds thousands and the heap figure must be the core's. */
export interface Recorded {
  name: EventName;
  orderid: string;
  at: number;
}

/** What the ticket actions read of the market: an NSE symbol's tick size and last price. */
export interface MarketView {
  tickSize(symbol: string): number;
  lastPrice(symbol: string): number;
}

/** A desk session whichever way its paper gateway runs. */
export interface DeskSessionBase {
  clock: Clock & { advance(ms: number): Promise<void> };
  core: Core;
  market: MarketView;
  /** The core's paper account key (for the suites' own checks against the gateway). */
  apiKey: () => string;
  events: Recorded[];
  notifications: { kind: string; orderid?: string }[];
  /** The requests the core started, and the most in any 1 s of the clock, per limiter class. */
  requests: RateMeter;
  status429: number;
  inFlight: () => number;
  /** Lets every request the core has started finish (real loopback I/O), and what follows from it. */
  drain(): Promise<void>;
  /** Moves the clock `ms` forward in `stepMs` steps, draining I/O after each. */
  run(ms: number, stepMs: number, each?: () => Promise<void> | void): Promise<void>;
  /** POST /api/v1/<path> to the gateway with the core's key, outside the core (a check, not a load). */
  gatewayApi(path: string): Promise<unknown>;
  stop(): Promise<void>;
}

/** The paper gateway in this process: the suites reach into its engine and books. */
export interface DeskSession extends DeskSessionBase {
  clock: ManualClock;
  gateway: PaperGateway;
  engine: PaperTradingEngine;
}

/** Real time a loopback request may take before the session calls it stuck (not a hang). */
const DRAIN_LIMIT_MS = 15_000;

export interface DeskSessionOptions {
  startMs?: number;
  /** The desk's window is open (the watcher's visible pace). */
  visible?: boolean;
  ports?: Partial<CorePorts>;
  /**
   * STRESS_PLANT=core-keeps-answers: the core's fetch keeps every answer's body, as a cache that
   * never forgets would (shows the soak's heap bound catching growth on the core's side).
   */
  keepAnswers?: boolean;
}

/** Risk settings for stress runs: no soft daily count or loss stop, a 10 % price band. */
export const STRESS_RISK = {
  maxQuantityPerOrder: 100_000,
  maxValuePerOrder: 1e10,
  priceBandPercent: 10,
  dailyOrderCount: 0,
  dailyLossLimit: 0,
};

interface PaperEnd {
  url: string;
  feedUrl: string;
  addKey(key: string): Promise<void>;
  /** Called after the clock moves a step: the thread's own timers catch up. */
  step?(): Promise<void>;
  stop(): Promise<void>;
}

/** The core wired to a paper gateway at `paper`, as the app composes them, with the recorders. */
async function wireCore(
  clock: DeskSessionBase['clock'],
  dataDir: string,
  paper: PaperEnd,
  market: MarketView,
  o: DeskSessionOptions,
): Promise<DeskSessionBase> {
  let key = '';
  const events: Recorded[] = [];
  const notifications: DeskSessionBase['notifications'] = [];
  const meter = rateMeter();
  const kept: string[] = [];
  const flying = new Map<Promise<unknown>, string>();
  let status429 = 0;
  const core = createCore({
    paths: { dataDir },
    logger: createMemoryLogger(),
    notifier: {
      notify: (n) => notifications.push({ kind: n.kind, ...(n.orderid ? { orderid: n.orderid } : {}) }),
    },
    tray: { update: () => undefined },
    clock,
    keytar: null,
    visible: o.visible ?? true,
    fetch: (input, init) => {
      const path = new URL(String(input)).pathname;
      meter.add(clock.now(), path);
      const p = fetch(input, init).then((res) => {
        if (res.status === 429) status429 += 1;
        if (o.keepAnswers)
          void res
            .clone()
            .text()
            .then((body) => kept.push(body));
        return res;
      });
      const tracked = p.finally(() => flying.delete(tracked));
      flying.set(tracked, path);
      return p;
    },
    startPaperGateway: async ({ apiKey }) => {
      key = apiKey;
      await paper.addKey(apiKey);
      return { url: paper.url, feedUrl: paper.feedUrl, stop: async () => undefined };
    },
    ...o.ports,
  });
  // Order events only (books.* snapshots are whole books: keeping them would be the harness's leak).
  core.events.onAny((name, payload) => {
    const orderid = (payload as { order?: { orderid?: unknown } } | undefined)?.order?.orderid;
    if (name.startsWith('orders.') && typeof orderid === 'string')
      events.push({ name, orderid, at: clock.now() });
  });
  await core.start();
  const updated = await core.router.invoke('settings.update', { risk: STRESS_RISK });
  if (!updated.ok) throw new Error(`stress risk settings refused: ${JSON.stringify(updated.error)}`);

  const drain = async () => {
    // A finished request starts the next step of its chain (orderbook → positions → funds) within a
    // few turns; quiet means nothing in flight across a settle.
    for (let quiet = 0; quiet < 2;) {
      if (flying.size > 0) {
        quiet = 0;
        // Cleared once answered: a 15 s wall-clock timer per step would hold hundreds of closures
        // (the soak takes several steps a real second) and show up in the heap figure.
        let timer: NodeJS.Timeout | undefined;
        const stuck = new Promise<'stuck'>((r) => (timer = setTimeout(() => r('stuck'), DRAIN_LIMIT_MS)));
        const answered = await Promise.race([Promise.allSettled([...flying.keys()]), stuck]);
        clearTimeout(timer);
        if (answered === 'stuck') {
          const message = `requests unanswered after ${DRAIN_LIMIT_MS} ms: ${[...flying.values()].join(', ')}`;
          process.stderr.write(`${message}\n`);
          throw new Error(message);
        }
      } else quiet += 1;
      await settle(3);
    }
  };
  return {
    clock,
    core,
    market,
    apiKey: () => key,
    events,
    notifications,
    requests: meter,
    get status429() {
      return status429;
    },
    inFlight: () => flying.size,
    drain,
    async run(ms, stepMs, each) {
      for (let t = 0; t < ms; t += stepMs) {
        await clock.advance(stepMs);
        await paper.step?.();
        await drain();
        await each?.();
      }
    },
    async gatewayApi(path) {
      const res = await fetch(`${paper.url}/api/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apikey: key }),
      });
      return res.json();
    },
    async stop() {
      // A poll waiting for the rate budget waits on this clock: keep it moving until the core is down.
      let down = false;
      const stopping = core.stop().finally(() => (down = true));
      for (let i = 0; !down && i < 10_000; i++) await clock.advance(100);
      await stopping;
      await paper.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startDeskSession(o: DeskSessionOptions = {}): Promise<DeskSession> {
  const clock = new ManualClock(o.startMs ?? SESSION_OPEN_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'stress-desk-'));
  let engine: PaperTradingEngine | undefined;
  // The gateway's own rate limits stay at their defaults (10/s per bucket), as a real one would.
  const gateway = await startPaperGateway({
    dataDir: join(dataDir, 'paper'),
    clock,
    seed: 11,
    logger: false,
    extensions: [engineExtension({ onEngine: (e) => (engine = e) })],
  });
  if (!engine) throw new Error('the paper engine was not built');
  const instrument = (symbol: string) => {
    const i = gateway.master.get('NSE', symbol);
    if (!i) throw new Error(`the paper master has no NSE:${symbol}`);
    return i;
  };
  const market: MarketView = {
    tickSize: (symbol) => instrument(symbol).tickSize,
    lastPrice: (symbol) => gateway.market.lastPrice(instrument(symbol)),
  };
  const paper: PaperEnd = {
    url: gateway.url,
    feedUrl: gateway.feedUrl,
    addKey: async (key) => void gateway.keys.add(key),
    stop: () => gateway.stop(),
  };
  const base = await wireCore(clock, dataDir, paper, market, o);
  return Object.assign(base, { clock, gateway, engine });
}

export interface ThreadedSessionOptions extends DeskSessionOptions {
  /** The engine's matching period on the session's clock. */
  engineTickMs: number;
}

/**
 * A desk session whose paper gateway runs in a worker thread: its own V8 isolate, so this thread's
 * heap is the core's (and the harness's records), not the gateway's books. The matching runs there
 * on the shared clock; the suite reaches the gateway only through its API.
 */
export async function startThreadedDeskSession(o: ThreadedSessionOptions): Promise<DeskSessionBase> {
  const time = new SharedArrayBuffer(8);
  const clock = new PublishingClock(new Float64Array(time), o.startMs ?? SESSION_OPEN_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'stress-desk-'));
  const data: PaperThreadData = {
    dataDir: join(dataDir, 'paper'),
    time,
    symbols: STRESS_SYMBOLS,
    engineTickMs: o.engineTickMs,
  };
  // tsx registers itself in the thread too, so the thread runs the same TypeScript sources.
  const entry = new URL('./paper-thread.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: data },
  );
  let quotes: Quotes = {};
  let seq = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  const ready = new Promise<{ url: string; feedUrl: string }>((resolve, reject) => {
    worker.on('message', (m: FromThread) => {
      if (m.kind === 'ready') {
        quotes = m.quotes;
        resolve(m);
      } else if (m.kind === 'done') {
        quotes = m.quotes;
        waiting.get(m.id)?.resolve();
        waiting.delete(m.id);
      } else {
        const e = new Error(`paper thread: ${m.message}`);
        if (m.id === undefined) reject(e);
        else waiting.get(m.id)?.reject(e);
        waiting.delete(m.id ?? -1);
      }
    });
    worker.on('error', reject);
  });
  const ask = (m: ToThreadBody) =>
    new Promise<void>((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...m, id });
    });
  const { url, feedUrl } = await ready;
  const quote = (symbol: string) => {
    const q = quotes[symbol];
    if (!q) throw new Error(`the paper master has no NSE:${symbol}`);
    return q;
  };
  const market: MarketView = {
    tickSize: (symbol) => quote(symbol).tickSize,
    lastPrice: (symbol) => quote(symbol).ltp,
  };
  const paper: PaperEnd = {
    url,
    feedUrl,
    addKey: (key) => ask({ kind: 'addKey', key }),
    step: () => ask({ kind: 'step' }),
    async stop() {
      await ask({ kind: 'stop' });
      await worker.terminate();
    },
  };
  return wireCore(clock, dataDir, paper, market, o);
}

/**
 * Request starts counted as they happen, with the most in any 1 s: in all, and per limiter class
 * (the gateway limits each class on its own). Only the last second is kept (heap flat).
 */
export interface RateMeter {
  count: number;
  /** Requests per path (a few dozen paths at most). */
  byPath: Map<string, number>;
  peakPerSecond: number;
  peakPerSecondOf: Record<LimiterClass, number>;
  add(at: number, path: string): void;
}

function rateMeter(windowMs = 1000): RateMeter {
  const recent: number[] = [];
  const recentOf: Record<LimiterClass, number[]> = { order: [], smart: [], api: [] };
  /** Adds `at` to `times` and returns how many fall within the window ending at `at`. */
  const within = (times: number[], at: number) => {
    times.push(at);
    while (at - times[0]! >= windowMs) times.shift();
    return times.length;
  };
  const m: RateMeter = {
    count: 0,
    byPath: new Map(),
    peakPerSecond: 0,
    peakPerSecondOf: { order: 0, smart: 0, api: 0 },
    add(at, path) {
      m.count += 1;
      m.byPath.set(path, (m.byPath.get(path) ?? 0) + 1);
      const limiterClass = limiterClassOfPath(path);
      m.peakPerSecond = Math.max(m.peakPerSecond, within(recent, at));
      const n = within(recentOf[limiterClass], at);
      m.peakPerSecondOf[limiterClass] = Math.max(m.peakPerSecondOf[limiterClass], n);
    },
  };
  return m;
}
