// A core wired to a real embedded paper gateway (ManualClock market) through a fault proxy, with a
// fake keychain shared across restarts, a ManualClock for the core's own timers, and every port
// recorded: notifications, tray updates, log lines, events and requested URLs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core, type CorePorts } from '../../src-main/core/index.js';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import type { EventName, EventPayload } from '../../src-main/contract/index.js';
import { ManualClock } from '../../src-main/gateway/index.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import type { Instrument } from '../../src-main/paper/instruments/instrument.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startEngineGateway, tickRound, type TestGateway } from './paper-gateway.js';
import { useStarted } from './use-started.js';
import { fakeKeytar } from './secret-fakes.js';

export interface Paper {
  gw: TestGateway;
  proxy: FaultProxy;
  engine: () => PaperTradingEngine;
  inst(exchange: string, symbol: string): Instrument;
  /** Price rounded to the instrument's tick. */
  onTick(i: Instrument, price: number): number;
  ltp(i: Instrument): number;
  stop(): Promise<void>;
}

export async function startPaper(): Promise<Paper> {
  const gw = await startEngineGateway();
  const proxy = await startFaultProxy(gw.url);
  return {
    gw,
    proxy,
    engine: () => gw.engine,
    inst: (exchange, symbol) => gw.instrument(exchange, symbol),
    onTick: tickRound,
    ltp: (i) => gw.gateway.market.lastPrice(i),
    async stop() {
      await proxy.stop();
      await gw.stop();
    },
  };
}

/** A paper gateway started before the tests of the calling file and stopped after them. */
export function usePaper(): Paper {
  return useStarted(startPaper);
}

/** The risk settings the order tests run under: large orders allowed, a 10 % price band. */
export const LIMITS = {
  risk: { maxQuantityPerOrder: 100_000_000, maxValuePerOrder: 1e12, priceBandPercent: 10 },
};

/** A resting BUY LIMIT 3 % under the market, through the router. */
export async function restingBuy(paper: Paper, h: Harness, symbol: string, quantity: number) {
  const i = paper.inst('NSE', symbol);
  const limit = paper.onTick(i, paper.ltp(i) * 0.97);
  const r = await h.core.router.invoke('orders.place', {
    exchange: 'NSE',
    symbol,
    action: 'BUY',
    quantity,
    pricetype: 'LIMIT',
    price: limit,
    product: 'MIS',
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return { i, limit, orderid: r.value.orderid };
}

export interface Recorded {
  name: EventName;
  payload: unknown;
}

export interface Harness {
  core: Core;
  clock: ManualClock;
  dataDir: string;
  events: Recorded[];
  notifications: { kind: string; title: string; body: string; sticky?: boolean }[];
  trays: { state: string; tooltip: string }[];
  logger: ReturnType<typeof createMemoryLogger>;
  urls: string[];
  keychain: ReturnType<typeof fakeKeytar>;
  of<E extends EventName>(name: E): EventPayload<E>[];
  /** Runs `fn` and returns the events it produced. */
  during(fn: () => Promise<unknown>): Promise<Recorded[]>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** Reuse a data dir and keychain (a restart). */
  dataDir?: string;
  keychain?: ReturnType<typeof fakeKeytar>;
  ports?: Partial<CorePorts>;
}

/** The moment every harness core's clock (and the test gateway's market) starts: 10:00:00 IST. */
export const CORE_T0 = Date.parse('2026-11-20T10:00:00+05:30');

export async function startCore(paper: Paper, options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'core-'));
  const keychain = options.keychain ?? fakeKeytar();
  const clock = new ManualClock(CORE_T0);
  const events: Recorded[] = [];
  const notifications: Harness['notifications'] = [];
  const trays: Harness['trays'] = [];
  const urls: string[] = [];
  const logger = createMemoryLogger();
  const core = createCore({
    paths: { dataDir },
    logger,
    notifier: { notify: (n) => notifications.push({ ...n }) },
    tray: { update: (t) => trays.push(t) },
    clock,
    keytar: async () => keychain.keytar,
    fetch: (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    },
    // The embedded gateway is the shared test one, reached through the fault proxy; the core's own
    // paper key is added to its key store (each core is an account of its own).
    startPaperGateway: async ({ apiKey }) => {
      paper.gw.gateway.keys.add(apiKey);
      return { url: paper.proxy.url, stop: async () => undefined };
    },
    gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 },
    // A save dialog that always picks the suggested name in the data dir.
    chooseSavePath: async (suggestedName) => join(dataDir, suggestedName),
    ...options.ports,
  });
  core.events.onAny((name, payload) => events.push({ name, payload }));
  await core.start();
  return {
    core,
    clock,
    dataDir,
    events,
    notifications,
    trays,
    logger,
    urls,
    keychain,
    of: <E extends EventName>(name: E) =>
      events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<E>),
    async during(fn) {
      const from = events.length;
      await fn();
      return events.slice(from);
    },
    async stop() {
      await core.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A core under LIMITS for the length of `fn`, stopped after it (its data dir removed). */
export async function withCore(paper: Paper, fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await fn(h);
  } finally {
    await h.stop();
  }
}

/** Adds the profile, stores its key and switches to it, as the trader does; the switch's answer. */
export async function keyedProfile(
  h: Harness,
  profile: { id: string; name: string; baseUrl: string },
  key: string,
) {
  await h.core.router.invoke('profiles.add', profile);
  await h.core.router.invoke('apiKey.set', { profileId: profile.id, key });
  return h.core.router.invoke('profiles.switch', { id: profile.id });
}

/** A key of a gateway's length, named by `tag` so a failure says which one leaked. */
export const testKey = (tag: string) => `${tag}-${'0123456789abcdef'.repeat(3)}`;

/** Rewrites settings.json's profile `id` while no core runs (a hand edit). */
export function editProfile(dataDir: string, id: string, change: Record<string, unknown>): void {
  const path = join(dataDir, 'settings.json');
  const s = JSON.parse(readFileSync(path, 'utf8')) as { profiles: Record<string, unknown>[] };
  s.profiles = s.profiles.map((p) => (p.id === id ? { ...p, ...change } : p));
  writeFileSync(path, JSON.stringify(s));
}

/** Waits (real time, briefly) until `cond` holds. */
export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Names of order/position events only (the books.* snapshots and connection changes left out). */
export function orderEventNames(list: Recorded[]): string[] {
  return list.map((e) => e.name).filter((n) => n.startsWith('orders.') || n === 'positions.changed');
}
