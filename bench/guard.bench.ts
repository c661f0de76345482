// The account guard's figures against the embedded paper gateway (issue 26's targets):
// - breach → first cancel sent: p99 < 300 ms, from the feed tick that crossed the daily loss lock
//   (handed to the guard as the core's market.ltp listener does) to the flatten engine's first
//   `cancelorder` leaving for the gateway (the guard judges the tick, locks, saves, starts the engine,
//   which reads the order book afresh and cancels the working orders one by one). Each round is a new
//   account (its own key) with one losing position and one resting order.
// - MTM tracking of 50 open positions on a live feed: the guard's share of one core (< 2 %), as the
//   time spent in its tick handler over the wall time, 50 symbols ticking 10 times a second each.
// `npx tsx bench/run.ts guard`; BENCH_GUARD sets the rounds (default 40).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GuardRules, type PositionView } from '../src-main/contract/index.js';
import { startFlatten } from '../src-main/core/close-all/flatten-account.js';
import { createSliceLimit } from '../src-main/core/close-all/slice-limit.js';
import { createGuardService, createGuardStore } from '../src-main/core/guard/index.js';
import type { Session } from '../src-main/core/router/session.js';
import { createGatewayClient, systemClock } from '../src-main/gateway/index.js';
import { startEngineGateway, tickRound } from '../test/support/paper-gateway.js';

const ROUNDS = Number(process.env.BENCH_GUARD ?? 40);
const WARM_UP = 3;
const TARGET_MS = 300;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const quantile = (s: number[], q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
function line(label: string, xs: number[], target: number): string {
  const s = [...xs].sort((a, b) => a - b);
  const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(s, q)) as [number, number, number];
  const f = (x: number) => `${x.toFixed(2)} ms`;
  return `${label} p50 ${f(p50)}  p95 ${f(p95)}  p99 ${f(p99)}  max ${f(s.at(-1) ?? NaN)}  (${p99 < target ? 'within' : 'OVER'} ${target} ms)`;
}

function guardFor(dir: string, rules: GuardRules, session: Session | undefined, onCancel?: () => void) {
  return createGuardService({
    rules: () => rules,
    session: () => session,
    store: createGuardStore(dir),
    clock: systemClock,
    emit: () => undefined,
    logger: quiet,
    alerts: { notice: () => null },
    journal: { recordIntent: () => ({ id: 'j', time: 0 }), recordOutcome: () => ({}) as never },
    watchPrices: () => undefined,
    ...(session
      ? {
          startFlatten: (s: Session, progress: (p: never) => void) =>
            startFlatten({
              books: s.client,
              place: async (o) => {
                const r = await s.client.placeorder({
                  ...o,
                  strategy: 'bench',
                  price: 0,
                  trigger_price: 0,
                  disclosed_quantity: 0,
                } as never);
                return r.ok
                  ? { ok: true, value: { orderid: r.value.orderid } }
                  : { ok: false, error: { kind: 'risk', message: r.error.message } };
              },
              cancel: async (o) => {
                onCancel?.();
                const r = await s.client.cancelorder({ orderid: o.orderid, strategy: 'bench' } as never);
                return r.ok
                  ? { ok: true, value: r.value }
                  : { ok: false, error: { kind: 'risk', message: r.error.message } };
              },
              sliceLimit: createSliceLimit(s.client),
              now: () => Date.now(),
              sleep: (ms) => sleep(ms),
              progress,
            }),
        }
      : {}),
  });
}

const view = (symbol: string, quantity: number, averagePrice: number, ltp: number): PositionView => ({
  symbol,
  exchange: 'NSE',
  product: 'MIS',
  quantity,
  averagePrice,
  ltp,
  mtm: 0,
});

export async function run(): Promise<void> {
  const gw = await startEngineGateway();
  const dir = mkdtempSync(join(tmpdir(), 'guard-bench-'));
  const latencies: number[] = [];
  try {
    const rules = GuardRules.parse({ enabled: true, dailyLoss: 100, action: 'flatten' });
    for (let n = 0; n < ROUNDS + WARM_UP; n++) {
      const key = gw.newKey();
      const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => key });
      const inst = gw.instrument('NSE', 'SBIN');
      const ltp = gw.gateway.market.lastPrice(inst);
      await client.placeorder({
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 10,
        pricetype: 'MARKET',
        product: 'MIS',
        strategy: 'bench',
        price: 0,
        trigger_price: 0,
        disclosed_quantity: 0,
      } as never);
      await client.placeorder({
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price: tickRound(inst, ltp * 0.97),
        product: 'MIS',
        strategy: 'bench',
        trigger_price: 0,
        disclosed_quantity: 0,
      } as never);
      const profile = { id: `bench${n}` } as Session['profile'];
      const session = { profile, client } as unknown as Session;
      let crossed = 0;
      let first = 0;
      const guard = guardFor(join(dir, String(n)), rules, session, () => {
        if (!first) first = performance.now();
      });
      guard.onFunds(profile.id, '0.00');
      guard.onOrders(profile.id, []);
      guard.onPositions(profile.id, [view('SBIN', 10, ltp, ltp)]);
      // The tick that crosses the ₹100 loss lock: 10 shares ₹20 down.
      crossed = performance.now();
      guard.onPrice(profile.id, 'SBIN', 'NSE', ltp - 20);
      for (let i = 0; !first && i < 500; i++) await sleep(2);
      if (n >= WARM_UP) latencies.push(first - crossed);
      guard.stopFlatten(profile.id);
      guard.stop();
      await sleep(20);
    }
    console.log(line(`breach → first cancel sent (${ROUNDS} rounds)`, latencies, TARGET_MS));

    // MTM tracking: 50 open positions, each symbol ticking 10 times a second, for 5 s.
    const symbols = Array.from({ length: 50 }, (_, i) => `SYM${i}`);
    const tracker = guardFor(
      join(dir, 'mtm'),
      GuardRules.parse({ enabled: true, dailyLoss: 1e9, maxDrawdown: 1e9, maxLossPerPosition: 1e9 }),
      undefined,
    );
    tracker.onFunds('mtm', '0.00');
    tracker.onOrders('mtm', []);
    tracker.onPositions(
      'mtm',
      symbols.map((s, i) => view(s, i % 2 ? 10 : -10, 100 + i, 100 + i)),
    );
    let busy = 0;
    let ticks = 0;
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    for (let ms = 0; ms < 5000; ms += 100) {
      for (const [i, s] of symbols.entries()) {
        const t = performance.now();
        tracker.onPrice('mtm', s, 'NSE', 100 + i + ((ms / 100 + i) % 7) * 0.05 - 0.15);
        busy += performance.now() - t;
        ticks++;
      }
      await sleep(100);
    }
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    tracker.stop();
    const share = (busy / wall) * 100;
    console.log(
      `MTM tracking of 50 positions: ${ticks} ticks in ${(wall / 1000).toFixed(1)} s, ${((busy * 1000) / ticks).toFixed(1)} µs a tick, ${share.toFixed(2)} % of one core (${share < 2 ? 'within' : 'OVER'} 2 %; process ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(2)} % with the bench loop)`,
    );
  } finally {
    await gw.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
