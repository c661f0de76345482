// The account guard's flatten (issue 26's target: 20 positions, two above their freeze quantity, and
// 30 working orders, 10 of them trigger pending, verified flat in < 5 s with 0 orders left), against
// the embedded paper gateway at its default rate limits (10 a second per route) and a core at the
// desk's default budget (10 order requests a second: cancels and places share one window). The
// orders go through the core's own channels (journalled); the clock starts at `startFlatten` and
// stops when both books read back flat. The gateway's clock runs in real time.
// `npx tsx bench/run.ts flatten`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFlatten } from '../src-main/core/close-all/index.js';
import { createGatewayClient, systemClock, type FetchFn } from '../src-main/gateway/index.js';
import { engineExtension } from '../src-main/paper/engine/extension.js';
import { DEFAULT_RATE_LIMIT } from '../src-main/paper/http/rate-limit.js';
import { LIMITS, startCore, type Paper } from '../test/support/core-harness.js';
import { startFaultProxy } from '../test/support/fault-proxy.js';
import { audit, flattenDeps, seedAccount } from '../test/support/flatten-account.js';
import { startTestGateway, tickRound } from '../test/support/paper-gateway.js';

const TARGET_MS = 5000;
const FUTURES = ['BANKNIFTY23NOV26FUT', 'BANKNIFTY29DEC26FUT'];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  const rate = DEFAULT_RATE_LIMIT;
  const gw = await startTestGateway({
    rateLimits: { api: rate, order: rate, smart: rate, ticker: rate, expiry: rate },
    extensions: [engineExtension({ capital: 1e10 })],
  });
  // The gateway's market and rate windows in real time: its clock is brought up to now before each
  // request is sent (so its windows never see two requests closer than the client sent them) and
  // every 20 ms between them (its market moves, resting parts fill).
  let last = Date.now();
  const sync = () => {
    const now = Date.now();
    if (now > last) gw.clock.advance(now - last);
    last = Math.max(last, now);
  };
  const pump = setInterval(sync, 20);
  const fetchSynced: FetchFn = (input, init) => {
    sync();
    return fetch(input, init);
  };
  const proxy = await startFaultProxy(gw.url);
  const paper: Paper = {
    gw: gw as Paper['gw'],
    proxy,
    engine: () => {
      throw new Error('not used');
    },
    inst: (exchange, symbol) => gw.instrument(exchange, symbol),
    onTick: tickRound,
    ltp: (i) => gw.gateway.market.lastPrice(i),
    stop: async () => undefined,
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-flatten-'));
  const h = await startCore(paper, {
    dataDir,
    ports: {
      clock: systemClock,
      // The profile's own budget (10 a second), not the tests' raised one.
      gateway: { retry: { maxRetries: 0 } },
      fetch: fetchSynced,
      startPaperGateway: async ({ apiKey }) => {
        gw.gateway.keys.add(apiKey);
        return { url: proxy.url, stop: async () => undefined };
      },
    },
  });
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
    if (!key) throw new Error('the core made no paper key');
    const direct = createGatewayClient({ baseUrl: gw.url, getApiKey: () => key, fetch: fetchSynced });
    const seeded = await seedAccount(direct, {
      equities: 18,
      futures: FUTURES,
      limits: 20,
      stops: 10,
      between: () => sleep(1000),
    });
    const before = await audit(direct, seeded);
    const pending = before.working.filter((o) => o.order_status === 'trigger pending').length;
    // The seeding's requests age out of the gateway's windows.
    await sleep(1500);

    const reads = createGatewayClient({ baseUrl: proxy.url, getApiKey: () => key, fetch: fetchSynced });
    proxy.reset();
    const t0 = performance.now();
    const flatten = startFlatten({
      ...flattenDeps(h, reads),
      cancelAll: () => h.core.router.invoke('orders.cancelAll', { strategy: 'bench' }),
      now: () => Date.now(),
      sleep,
    });
    const outcome = await flatten.done;
    const ms = performance.now() - t0;
    const after = await audit(direct, seeded);
    const left = after.open.length + after.working.length;
    const orderRequests =
      proxy.forwardedTo('/api/v1/placeorder') +
      proxy.forwardedTo('/api/v1/cancelorder') +
      proxy.forwardedTo('/api/v1/cancelallorder');
    console.log(
      `account: ${before.open.length} positions (${FUTURES.length} above their freeze quantity), ` +
        `${before.working.length} working orders (${pending} trigger pending)`,
    );
    console.log(
      `flatten: ${outcome.state} in ${(ms / 1000).toFixed(2)} s, ${outcome.rounds} round(s) ` +
        `(${ms < TARGET_MS ? 'within' : 'OVER'} ${TARGET_MS / 1000} s); left: ${left} (${after.open.length} open, ${after.working.length} working)`,
    );
    console.log(
      `requests: ${proxy.forwardedTo('/api/v1/cancelallorder')} cancel-all + ${proxy.forwardedTo('/api/v1/cancelorder')} cancels + ${proxy.forwardedTo('/api/v1/placeorder')} exits ` +
        `= ${orderRequests} order requests at ${rate} a second (floor ${(Math.ceil(orderRequests / rate) - 1).toFixed(0)} s of windows); ` +
        `reads: ${proxy.forwardedTo('/api/v1/orderbook')} order book, ${proxy.forwardedTo('/api/v1/positionbook')} positions, ` +
        `${proxy.forwardedTo('/api/v1/symbol')} symbol, ${proxy.forwardedTo('/api/v1/quotes')} quotes (risk checks)`,
    );
    const above = after.exits.filter((o) => o.exchange === 'NFO' && o.quantity > 600).length;
    const slices = after.exits.filter((o) => o.exchange === 'NFO').map((o) => o.quantity);
    console.log(
      `futures exits: ${slices.join(', ')} (freeze 600; ${above} above it); duplicate exits: ${after.duplicates.length}`,
    );
  } finally {
    clearInterval(pump);
    await h.stop();
    await proxy.stop();
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
