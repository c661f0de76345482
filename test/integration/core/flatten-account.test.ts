// The account guard's flatten (core/close-all/flatten-account.ts) against the real paper gateway, its
// orders sent through a core's own order channels (journalled) and through the fault proxy; every
// verdict is checked against the gateway's books read afterwards, never the flatten's own word.
import { describe, expect, it } from 'vitest';
import {
  startFlatten,
  type FlattenDeps,
  type FlattenProgress,
} from '../../../src-main/core/close-all/index.js';
import { createGatewayClient, type GatewayClient } from '../../../src-main/gateway/index.js';
import { engineExtension } from '../../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import { LIMITS, startCore, type Harness, type Paper } from '../../support/core-harness.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { audit, flattenDeps, seedAccount, type SeedPlan } from '../../support/flatten-account.js';
import { startTestGateway, tickRound } from '../../support/paper-gateway.js';
import { useStarted } from '../../support/use-started.js';

const NEAR = 'BANKNIFTY23NOV26FUT';
const NEXT = 'BANKNIFTY29DEC26FUT';

/** A paper gateway with capital enough for the futures positions, behind the fault proxy. */
async function startPaper(): Promise<Paper> {
  let engine: PaperTradingEngine | undefined;
  const gw = await startTestGateway({
    extensions: [engineExtension({ capital: 1e10, onEngine: (e) => (engine = e) })],
  });
  if (!engine) throw new Error('no engine');
  const proxy = await startFaultProxy(gw.url);
  const withEngine = { ...gw, engine };
  return {
    gw: withEngine,
    proxy,
    engine: () => withEngine.engine,
    inst: (exchange, symbol) => gw.instrument(exchange, symbol),
    onTick: tickRound,
    ltp: (i) => gw.gateway.market.lastPrice(i),
    async stop() {
      await proxy.stop();
      await gw.stop();
    },
  };
}

const paper = useStarted(startPaper);

/** The gateway's clock one second on: its simulated book refreshes, resting MARKET parts fill. */
function nextSecond(): void {
  paper.gw.clock.advance(1000);
  paper.engine().tick();
}

interface Account {
  h: Harness;
  /** Reads through the proxy (the flatten's); `direct`: straight to the gateway (seeding, audits). */
  reads: GatewayClient;
  direct: GatewayClient;
}

async function withAccount(fn: (a: Account) => Promise<void>): Promise<void> {
  paper.proxy.reset();
  paper.proxy.decide(undefined);
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
    if (!key) throw new Error('the core made no paper key');
    const reads = createGatewayClient({ baseUrl: paper.proxy.url, getApiKey: () => key, rateLimit: 0 });
    const direct = createGatewayClient({ baseUrl: paper.gw.url, getApiKey: () => key, rateLimit: 0 });
    await fn({ h, reads, direct });
  } finally {
    paper.proxy.decide(undefined);
    await h.stop();
  }
}

function run(a: Account, more: Partial<FlattenDeps> = {}) {
  const progress: FlattenProgress[] = [];
  const flatten = startFlatten({
    ...flattenDeps(a.h, a.reads),
    now: () => Date.now(),
    // Real time, briefly; the gateway's clock a second on at each wait.
    sleep: async (ms) => {
      nextSecond();
      await new Promise((r) => setTimeout(r, Math.min(ms, 50)));
    },
    progress: (p) => progress.push(p),
    resquareMs: 200,
    verifyWaitMs: 50,
    ...more,
  });
  return { flatten, progress };
}

const plan = (p: Partial<SeedPlan>): SeedPlan => ({
  equities: 0,
  futures: [],
  limits: 0,
  stops: 0,
  between: nextSecond,
  ...p,
});

describe('flatten the account (startFlatten)', () => {
  it('closes a position above the freeze quantity in slices of at most the freeze, read from the book', async () => {
    await withAccount(async (a) => {
      // The gateway refuses one order above the freeze quantity (600 for BANKNIFTY).
      const refused = await a.direct.placeorder({
        strategy: 'probe',
        exchange: 'NFO',
        symbol: NEAR,
        action: 'BUY',
        quantity: 630,
        pricetype: 'MARKET',
        product: 'NRML',
      } as never);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.message).toContain('exceeds the freeze quantity 600');

      const seeded = await seedAccount(a.direct, plan({ futures: [NEAR] }));
      const { flatten } = run(a);
      const outcome = await flatten.done;
      expect(outcome.state).toBe('flat');

      const after = await audit(a.direct, seeded);
      expect(after.open).toEqual([]);
      expect(after.working).toEqual([]);
      const exits = [...after.exits]
        .sort((x, y) => y.quantity - x.quantity)
        .map((o) => [o.action, o.quantity, o.pricetype, o.product, o.order_status]);
      expect(exits).toEqual([
        ['SELL', 600, 'MARKET', 'NRML', 'complete'],
        ['SELL', 30, 'MARKET', 'NRML', 'complete'],
      ]);
      expect(after.duplicates).toEqual([]);
    });
  });

  it('cancels trigger-pending orders one by one, never with the gateway cancel-all', async () => {
    await withAccount(async (a) => {
      const seeded = await seedAccount(a.direct, plan({ limits: 2, stops: 3 }));
      const before = await audit(a.direct, seeded);
      expect(before.working.filter((o) => o.order_status === 'trigger pending')).toHaveLength(3);

      const outcome = await run(a).flatten.done;
      expect(outcome.state).toBe('flat');
      const book = (await a.direct.orderbook()) as {
        ok: true;
        value: { data: { orders: { orderid: string; order_status: string }[] } };
      };
      const status = new Map(book.value.data.orders.map((o) => [o.orderid, o.order_status]));
      expect(seeded.working.map((id) => status.get(id))).toEqual(Array(5).fill('cancelled'));
      expect(paper.proxy.forwardedTo('/api/v1/cancelorder')).toBe(5);
      expect(paper.proxy.forwardedTo('/api/v1/cancelallorder')).toBe(0);
      // Each cancel journalled like any other.
      const journal = await a.h.core.router.invoke('journal.query', { operation: 'cancelorder' });
      if (!journal.ok) throw new Error(journal.error.message);
      expect(journal.value.map((e) => (e.request as { orderid: string }).orderid).sort()).toEqual(
        [...seeded.working].sort(),
      );
    });
  });

  it('flattens 20 positions (two above freeze) and 30 working orders (10 trigger pending): 0 left', async () => {
    await withAccount(async (a) => {
      const seeded = await seedAccount(
        a.direct,
        plan({ equities: 18, futures: [NEAR, NEXT], limits: 20, stops: 10 }),
      );
      const before = await audit(a.direct, seeded);
      expect([before.open.length, before.working.length]).toEqual([20, 30]);
      expect(before.working.filter((o) => o.order_status === 'trigger pending')).toHaveLength(10);

      const t0 = performance.now();
      const { flatten, progress } = run(a);
      const outcome = await flatten.done;
      const ms = performance.now() - t0;
      const after = await audit(a.direct, seeded);
      console.log(
        `flatten: ${outcome.state} in ${ms.toFixed(0)} ms, ${outcome.rounds} round(s); ` +
          `${after.exits.length} exits, ${paper.proxy.forwardedTo('/api/v1/cancelorder')} cancels; ` +
          `left: ${after.open.length} open, ${after.working.length} working`,
      );
      expect(outcome.state).toBe('flat');
      expect(after.open.length + after.working.length).toBe(0);
      expect(after.duplicates).toEqual([]);
      // 18 equities in one order each, the two futures in 600 + 30.
      expect(after.exits).toHaveLength(22);
      for (const k of [`NFO|${NEAR}|NRML`, `NFO|${NEXT}|NRML`]) expect(after.largest.get(k)).toBe(600);
      expect(progress.at(-1)).toMatchObject({ state: 'flat', rounds: outcome.rounds });
      expect(progress.some((p) => p.text.includes('cancelling'))).toBe(true);
    });
  });

  it('ends "stopped" when stop() is called while it cannot get flat', async () => {
    await withAccount(async (a) => {
      const seeded = await seedAccount(a.direct, plan({ limits: 1 }));
      // Every cancel refused: the order stays working round after round.
      paper.proxy.decide((path) =>
        path === '/api/v1/cancelorder' ? { kind: 'error500' } : { kind: 'pass' },
      );
      const { flatten, progress } = run(a, {
        progress: (p) => {
          progress.push(p);
          if (p.rounds >= 3) flatten.stop();
        },
      });
      const outcome = await flatten.done;
      expect(outcome.state).toBe('stopped');
      expect(outcome.rounds).toBe(3);
      expect(outcome.text).toMatch(/^Stopped after 3 rounds/);
      expect(progress.at(-1)?.state).toBe('stopped');
      expect(paper.proxy.receivedFor('/api/v1/cancelorder')).toBeGreaterThanOrEqual(2);
      const after = await audit(a.direct, seeded);
      expect(after.working.map((o) => o.orderid)).toEqual(seeded.working);
    });
  });

  it('never sends a duplicate exit when an exit answer is dropped after it reached the gateway', async () => {
    await withAccount(async (a) => {
      const seeded = await seedAccount(a.direct, plan({ futures: [NEAR] }));
      // The first exit (SELL 600) reaches the gateway; its answer never comes back.
      paper.proxy.enqueue({ kind: 'drop' }, '/api/v1/placeorder');
      const outcome = await run(a).flatten.done;
      expect(outcome.state).toBe('flat');
      // The lost exit is counted against the position until the book shows it: nothing is sent again.
      const after = await audit(a.direct, seeded);
      expect(after.open).toEqual([]);
      expect(after.duplicates).toEqual([]);
      // Every exit that reached the gateway is one in its book, none twice: 600 + 30.
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(after.exits.length);
      expect(after.exits.map((o) => o.quantity).sort((x, y) => x - y)).toEqual([30, 600]);
      const journal = await a.h.core.router.invoke('journal.query', { operation: 'placeorder' });
      if (!journal.ok) throw new Error(journal.error.message);
      expect(journal.value.filter((e) => e.outcome === 'unknown')).toHaveLength(1);
    });
  });
});
