// The shared setup of the router-*.test.ts files: a whole core per test over a fresh data dir,
// with an in-memory fake gateway behind an injected fetch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock } from '../../../src-main/gateway/index.js';

/** Lets pending promise chains and I/O run (no timers: the core's clock is a ManualClock). */
export async function settle(rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

export const PAPER_URL = 'http://paper.invalid';

interface Call {
  /** The gateway's host name (one fake serves every profile). */
  host: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * Answers like the paper gateway for the few operations the router needs; `missing` holds
 * `host/operation` pairs answered with the real gateway's route-missing 404.
 */
function fakeGateway(state: { position: number; ltp: number; missing?: Set<string> }) {
  const calls: Call[] = [];
  let nextId = 100;
  const answers: Record<string, (b: Record<string, unknown>) => unknown> = {
    symbol: (b) => ({
      status: 'success',
      data: {
        symbol: b.symbol,
        brsymbol: b.symbol,
        name: 'X',
        exchange: b.exchange,
        brexchange: b.exchange,
        token: '1',
        expiry: '',
        strike: 0,
        lotsize: 1,
        instrumenttype: 'EQ',
        tick_size: 0.05,
      },
    }),
    quotes: () => ({
      status: 'success',
      data: {
        ask: state.ltp,
        bid: state.ltp,
        high: state.ltp,
        low: state.ltp,
        ltp: state.ltp,
        open: 1,
        prev_close: 1,
        volume: 1,
      },
    }),
    placeorder: () => ({ status: 'success', orderid: String(nextId++) }),
    placesmartorder: () => ({ status: 'success', orderid: String(nextId++) }),
    openposition: () => ({ status: 'success', quantity: state.position }),
    ping: () => ({ status: 'success', data: { message: 'pong', broker: 'fake' } }),
    funds: () => ({
      status: 'success',
      data: {
        availablecash: '100.00',
        collateral: '0.00',
        m2mrealized: '0.00',
        m2munrealized: '0.00',
        utiliseddebits: '0.00',
      },
    }),
  };
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const op = url.pathname.replace('/api/v1/', '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    calls.push({ host: url.hostname, path: op, body });
    const answer = state.missing?.has(`${url.hostname}/${op}`) ? undefined : answers[op];
    if (!answer)
      return new Response(JSON.stringify({ message: 'Not found', path: url.pathname }), { status: 404 });
    return new Response(JSON.stringify(answer(body)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetchFn };
}

export let dataDir: string;
export let core: Core;
export let clock: ManualClock;
export let gw: ReturnType<typeof fakeGateway>;
export const state = { position: 0, ltp: 812.35, missing: new Set<string>() };

/** A fresh core over a fresh data dir and fake gateway for each test (the exports above follow it). */
export function useRouterCore(): void {
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'router-'));
    clock = new ManualClock(1_000_000);
    state.position = 0;
    state.missing.clear();
    gw = fakeGateway(state);
    core = createCore({
      paths: { dataDir },
      logger: createMemoryLogger(),
      notifier: { notify: () => undefined },
      tray: { update: () => undefined },
      clock,
      keytar: null,
      fetch: gw.fetchFn,
      startPaperGateway: async () => ({ url: PAPER_URL, stop: async () => undefined }),
      gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 },
    });
    await core.start();
  });
  afterEach(async () => {
    await core.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

export const order = {
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 10,
  pricetype: 'LIMIT',
  price: 812.35,
};
