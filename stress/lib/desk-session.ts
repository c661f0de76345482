// A desk session for the stress suites: the embedded paper gateway and a core wired to it, as the
// app composes them, sharing one ManualClock so hours of trading pass in seconds. Every request the
// core sends is counted (in flight, start times on the clock, 429 answers) and every event and
// notification recorded, so the suites can state their invariants from outside the code under test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventName } from '../../src-main/contract/index.js';
import { createCore, type Core, type CorePorts } from '../../src-main/core/index.js';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import { ManualClock, settle } from '../../src-main/gateway/clock.js';
import { engineExtension } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import { startPaperGateway, type PaperGateway } from '../../src-main/paper/gateway.js';

/** 2026-11-20 09:15 IST, a Friday: the market opens. */
export const SESSION_OPEN_MS = Date.parse('2026-11-20T09:15:00+05:30');

/** An order event, kept small: a session holds thousands and the heap figure must be the core's. */
export interface Recorded {
  name: EventName;
  orderid: string;
  at: number;
}

export interface DeskSession {
  clock: ManualClock;
  core: Core;
  gateway: PaperGateway;
  engine: PaperTradingEngine;
  /** The core's paper account key (for the suites' own checks against the gateway). */
  apiKey: () => string;
  events: Recorded[];
  notifications: { kind: string; orderid?: string }[];
  /** Clock time of every request the core started, and its path. */
  requests: { at: number; path: string }[];
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

/** Real time a loopback request may take before the session calls it stuck (not a hang). */
const DRAIN_LIMIT_MS = 15_000;

export interface DeskSessionOptions {
  startMs?: number;
  /** The desk's window is open (the watcher's visible pace). */
  visible?: boolean;
  ports?: Partial<CorePorts>;
}

/** Risk settings for stress runs: no soft daily count or loss stop, a 10 % price band. */
export const STRESS_RISK = {
  maxQuantityPerOrder: 100_000,
  maxValuePerOrder: 1e10,
  priceBandPercent: 10,
  dailyOrderCount: 0,
  dailyLossLimit: 0,
};

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
  let key = '';
  const events: Recorded[] = [];
  const notifications: DeskSession['notifications'] = [];
  const requests: DeskSession['requests'] = [];
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
      requests.push({ at: clock.now(), path });
      const p = fetch(input, init).then((res) => {
        if (res.status === 429) status429 += 1;
        return res;
      });
      const tracked = p.finally(() => flying.delete(tracked));
      flying.set(tracked, path);
      return p;
    },
    startPaperGateway: async ({ apiKey }) => {
      key = apiKey;
      gateway.keys.add(apiKey);
      return { url: gateway.url, feedUrl: gateway.feedUrl, stop: async () => undefined };
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
        const stuck = new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), DRAIN_LIMIT_MS).unref());
        if ((await Promise.race([Promise.allSettled([...flying.keys()]), stuck])) === 'stuck') {
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
    gateway,
    engine,
    apiKey: () => key,
    events,
    notifications,
    requests,
    get status429() {
      return status429;
    },
    inFlight: () => flying.size,
    drain,
    async run(ms, stepMs, each) {
      for (let t = 0; t < ms; t += stepMs) {
        await clock.advance(stepMs);
        await drain();
        await each?.();
      }
    },
    async gatewayApi(path) {
      const res = await fetch(`${gateway.url}/api/v1/${path}`, {
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
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The most requests started within any window of `windowMs` (clock time). */
export function peakRate(starts: readonly number[], windowMs = 1000): number {
  let peak = 0;
  for (let i = 0, j = 0; i < starts.length; i++) {
    while (starts[i]! - starts[j]! >= windowMs) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}
