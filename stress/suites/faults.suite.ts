// Faults: the core (driven through its router, as the desk drives it) trades against the embedded
// paper gateway through a loopback proxy that, at random with a fixed seed, delays answers, resets
// the connection before or after the request reached the gateway, answers 500 / 429, truncated or
// non-JSON bodies, and successes without their order id; the feed's socket is cut at random too, and
// the core is restarted once half-way. Then: no order twice (the journal's intents against the
// gateway's own book), every terminal order reported exactly once, every unknown outcome settled,
// and the core connected again within 5 s of the last fault.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { EventPayload } from '../../src-main/contract/index.js';
import { systemClock } from '../../src-main/gateway/index.js';
import type { CorePorts } from '../../src-main/core/index.js';
import { LIMITS, startCore, type Harness, type Recorded } from '../../test/support/core-harness.js';
import type { FaultMode } from '../../test/support/fault-proxy.js';
import { startCutProxy } from '../../test/support/tcp-cut-proxy.js';
import { startStressPaper } from '../lib/paper.js';
import { plantedSeenStore } from '../lib/plant.js';
import { createRng, type Rng } from '../lib/rng.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

const OPERATIONS = Number(process.env.STRESS_FAULT_OPS ?? 1000);
/** Share of HTTP requests that meet a fault while the faults are on. */
const FAULT_RATE = 0.25;
const RECOVERY_LIMIT_MS = 5000;
/** The closing outage: long enough for the core's polls to fail several times in a row. */
const OUTAGE_MS = 8000;
const SYMBOLS: readonly string[] = ['SBIN', 'ITC', 'INFY', 'TCS', 'KOTAKBANK'];
const TERMINAL_EVENTS = {
  'orders.filled': 'complete',
  'orders.cancelled': 'cancelled',
  'orders.rejected': 'rejected',
} as const;

type Op = 'place' | 'modify' | 'cancel' | 'read' | 'fill' | 'cutFeed';
const OP_WEIGHTS: Record<Op, number> = { place: 40, modify: 12, cancel: 12, read: 20, fill: 10, cutFeed: 6 };

type FaultKind =
  'delay' | 'reset_before' | 'reset_after' | 'error500' | 'rate_limit' | 'html' | 'truncated' | 'no_orderid';

function randomFault(rng: Rng, path: string): { kind: FaultKind; mode: FaultMode } {
  const mutating = /placeorder|modifyorder|cancelorder/.test(path);
  const kind = rng.weighted<FaultKind>({
    delay: 20,
    reset_before: 12,
    reset_after: 12,
    error500: 14,
    rate_limit: 6,
    html: 12,
    truncated: 12,
    no_orderid: mutating ? 12 : 0,
  });
  switch (kind) {
    case 'delay':
      return { kind, mode: { kind: 'delay', ms: rng.int(10, 150) } };
    case 'reset_before':
      return { kind, mode: { kind: 'drop', forward: false } };
    case 'reset_after':
      return { kind, mode: { kind: 'drop', forward: true } };
    case 'rate_limit':
      return { kind, mode: { kind: 'rate_limit', retryAfter: 0.2 } };
    case 'html':
      return { kind, mode: { kind: 'garbage', style: 'html' } };
    case 'truncated':
      return { kind, mode: { kind: 'garbage', style: 'truncated' } };
    case 'no_orderid':
      return { kind, mode: { kind: 'strip', fields: ['orderid'] } };
    default:
      return { kind, mode: { kind: 'error500' } };
  }
}

interface BookRow {
  orderid: string;
  symbol: string;
  quantity: string | number;
  order_status: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await sleep(25);
  }
  return cond();
}

export const suite: StressSuite = {
  name: 'faults',
  description: `${OPERATIONS} router operations through a fault-injecting proxy (REST and feed), one core restart`,
  async run(ctx: SuiteContext) {
    // Two streams: the operations replay exactly from the seed; which request meets which fault also
    // depends on when the core's own polls fall, so that part varies a little from run to run.
    const rng = createRng(ctx.seed);
    const faultRng = createRng(ctx.seed ^ 0x5bd1e995);
    const paper = await startStressPaper();
    const relay = await startCutProxy(Number(new URL(paper.gw.url).port));
    const dataDir = join(ctx.tmpDir, 'core');
    mkdirSync(dataDir, { recursive: true });
    const ports: Partial<CorePorts> = {
      // Real time: recovery is measured in wall-clock seconds, polling runs at its real pace.
      clock: systemClock,
      visible: true,
      feedRetryBaseMs: 100,
      patience: { polls: 2, ms: 500 },
      startPaperGateway: async ({ apiKey }) => {
        paper.gw.gateway.keys.add(apiKey);
        return {
          url: paper.proxy.url,
          feedUrl: `ws://127.0.0.1:${relay.port}/ws`,
          stop: async () => undefined,
        };
      },
      ...(ctx.plant === 'forget-seen' ? { openSeenStore: plantedSeenStore } : {}),
    };

    const events: Recorded[] = [];
    let connection: { state: string; at: number } = { state: 'connected', at: Date.now() };
    const attach = (h: Harness) =>
      h.core.events.onAny((name, payload) => {
        events.push({ name, payload });
        if (name === 'session.connection')
          connection = { state: (payload as EventPayload<'session.connection'>).state, at: Date.now() };
      });

    let h = await startCore(paper, { dataDir, ports });
    attach(h);
    const keychain = h.keychain;
    try {
      // No price band: it needs a fresh quote per symbol, which is not what this suite is about.
      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, priceBandPercent: 0 } });
      await h.core.pollNow();
      const key = await keychain.keytar.getPassword('OrderDesk', 'paper');
      if (!key) throw new Error('the core made no paper key');

      const base = new Map(SYMBOLS.map((s) => [s, paper.ltp(paper.inst('NSE', s))]));
      const faults = new Map<FaultKind, number>();
      let faultsOn = true;
      let outageRequests = 0;
      let lastFaultEnds = 0;
      paper.proxy.decide((path) => {
        if (!faultsOn || !faultRng.chance(FAULT_RATE)) return { kind: 'pass' };
        const f = randomFault(faultRng, path);
        faults.set(f.kind, (faults.get(f.kind) ?? 0) + 1);
        lastFaultEnds = Math.max(lastFaultEnds, Date.now() + (f.mode.kind === 'delay' ? f.mode.ms : 0));
        return f.mode;
      });

      const open: { orderid: string; symbol: string; quantity: number }[] = [];
      const outcomes = new Map<string, number>();
      const said = new Map<string, string>();
      const count = (k: string, detail?: string) => {
        outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
        if (detail && !said.has(k)) said.set(k, detail);
      };
      let feedCuts = 0;
      const started = Date.now();

      for (let n = 0; n < OPERATIONS; n++) {
        if (n === OPERATIONS / 2) {
          // A core restart in the middle of it all (same data dir and keychain): what it reported
          // before must not be reported again, nor anything missed.
          await h.stop();
          h = await startCore(paper, { dataDir, keychain, ports });
          attach(h);
        }
        const op = rng.weighted(OP_WEIGHTS);
        const router = h.core.router;
        if (op === 'place') {
          const symbol = rng.pick(SYMBOLS);
          const i = paper.inst('NSE', symbol);
          // A unique quantity per order: two book rows with one quantity are one order sent twice.
          const quantity = n + 1;
          const price = paper.onTick(i, (base.get(symbol) ?? 0) * (0.95 + rng.int(0, 20) / 1000));
          const r = await router.invoke('orders.place', {
            exchange: 'NSE',
            symbol,
            action: 'BUY',
            quantity,
            pricetype: 'LIMIT',
            price,
            product: 'MIS',
          });
          count(r.ok ? 'place ok' : `place ${r.error.kind}`, r.ok ? undefined : r.error.message);
          if (r.ok) open.push({ orderid: r.value.orderid, symbol, quantity });
        } else if ((op === 'modify' || op === 'cancel') && open.length) {
          const o = rng.pick(open);
          const i = paper.inst('NSE', o.symbol);
          const r =
            op === 'cancel'
              ? await router.invoke('orders.cancel', { orderid: o.orderid })
              : await router.invoke('orders.modify', {
                  orderid: o.orderid,
                  exchange: 'NSE',
                  symbol: o.symbol,
                  action: 'BUY',
                  quantity: o.quantity,
                  pricetype: 'LIMIT',
                  price: paper.onTick(i, (base.get(o.symbol) ?? 0) * (0.95 + rng.int(0, 20) / 1000)),
                  trigger_price: 0,
                  disclosed_quantity: 0,
                  product: 'MIS',
                });
          count(r.ok ? `${op} ok` : `${op} ${r.error.kind}`, r.ok ? undefined : r.error.message);
        } else if (op === 'read') {
          const which = rng.pick(['books.orders', 'books.positions', 'books.funds', 'poll'] as const);
          if (which === 'poll') await h.core.pollNow();
          else {
            const r = await router.invoke(which, undefined);
            count(r.ok ? 'read ok' : `read ${r.error.kind}`);
          }
        } else if (op === 'fill') {
          // The market dips under some resting buys of one symbol, the engine fills them, and it returns.
          const symbol = rng.pick(SYMBOLS);
          const i = paper.inst('NSE', symbol);
          paper.gw.gateway.market.setPrice(
            i,
            paper.onTick(i, (base.get(symbol) ?? 0) * (0.95 + rng.int(0, 20) / 1000)),
          );
          paper.gw.clock.advance(1000);
          paper.engine().tick();
          paper.gw.gateway.market.setPrice(i, base.get(symbol) ?? 0);
        } else if (op === 'cutFeed') {
          relay.cut();
          feedCuts++;
          lastFaultEnds = Math.max(lastFaultEnds, Date.now());
        }
      }
      const opsMs = Date.now() - started;
      // Last, an outage: the gateway unreachable (every connection reset, the feed refused) for
      // OUTAGE_MS while the core keeps polling on its own, as a network that drops for a while.
      paper.proxy.decide(() => {
        outageRequests++;
        return { kind: 'drop', forward: false };
      });
      relay.block();
      relay.cut();
      await sleep(OUTAGE_MS);
      relay.unblock();
      faultsOn = false;
      paper.proxy.decide(undefined);
      lastFaultEnds = Date.now();
      for (const [k, m] of said) ctx.note(`first ${k}: ${m}`);

      // Recovery: from the end of the last fault to the core saying "connected" on its own polling
      // (a failure the last fault caused is reported within moments, hence the short wait first).
      await sleep(300);
      const disconnectedAtEnd = connection.state !== 'connected';
      const recovered = await waitFor(() => connection.state === 'connected', RECOVERY_LIMIT_MS + 5000);
      const recoveryMs = recovered ? Math.max(0, connection.at - lastFaultEnds) : Infinity;

      // Settle: polls until every unknown outcome has been reconciled (bounded).
      const unknownIds = () =>
        new Set(
          events
            .filter((e) => e.name === 'orders.unknown')
            .map((e) => (e.payload as EventPayload<'orders.unknown'>).journalId),
        );
      const reconciledIds = () =>
        new Set(
          events
            .filter((e) => e.name === 'orders.reconciled')
            .map((e) => (e.payload as EventPayload<'orders.reconciled'>).journalId),
        );
      await waitFor(async () => {
        await h.core.pollNow();
        const done = reconciledIds();
        return [...unknownIds()].every((id) => done.has(id));
      }, 15_000);
      await h.core.pollNow();
      await sleep(200);

      // The gateway's own book, read directly (not through the proxy).
      const res = await paper.gw.api('orderbook', key);
      const rows = ((res.body.data as { orders?: BookRow[] } | undefined)?.orders ?? []) as BookRow[];
      const journal = await h.core.router.invoke('journal.query', { operation: 'placeorder', limit: 10_000 });
      if (!journal.ok) throw new Error(`journal.query: ${JSON.stringify(journal.error)}`);
      const intents = journal.value;
      const intentQty = new Map<number, number>();
      for (const e of intents) {
        const q = Number((e.request as { quantity?: unknown }).quantity);
        intentQty.set(q, (intentQty.get(q) ?? 0) + 1);
      }
      const bookQty = new Map<number, number>();
      for (const r of rows) bookQty.set(Number(r.quantity), (bookQty.get(Number(r.quantity)) ?? 0) + 1);
      const duplicates = [...bookQty.values()].reduce((s, c) => s + (c - 1), 0);
      const withoutIntent = [...bookQty.keys()].filter((q) => !intentQty.has(q));
      const sentTwice = [...intentQty.values()].filter((c) => c > 1).length;

      // Terminal events against the book: exactly one per order that ended, in the state it ended in.
      const delivered = new Map<string, number>();
      let wrongState = 0;
      for (const e of events) {
        const want = TERMINAL_EVENTS[e.name as keyof typeof TERMINAL_EVENTS];
        if (!want) continue;
        const { orderid } = (e.payload as EventPayload<'orders.filled'>).order;
        delivered.set(orderid, (delivered.get(orderid) ?? 0) + 1);
        const row = rows.find((r) => r.orderid === orderid);
        if (row?.order_status !== want) wrongState++;
      }
      const terminal = rows.filter((r) => ['complete', 'cancelled', 'rejected'].includes(r.order_status));
      const missing = terminal.filter((r) => !delivered.has(r.orderid)).map((r) => r.orderid);
      const repeatedEvents = [...delivered.values()].reduce((s, c) => s + (c - 1), 0);

      const unknown = unknownIds();
      const done = reconciledIds();
      const unsettled = [...unknown].filter((id) => !done.has(id));
      const journalUnsettled = intents.filter((e) => e.outcome === 'unknown' && !e.resolution).length;

      const rateLimited = faults.get('rate_limit') ?? 0;
      ctx.figure('operations', OPERATIONS);
      ctx.figure('operations time', `${(opsMs / 1000).toFixed(1)} s`);
      ctx.figure('HTTP requests through the proxy', paper.proxy.received.length);
      ctx.figure(
        'faults injected',
        [...faults.values()].reduce((s, c) => s + c, 0),
      );
      ctx.figure('faults by kind', [...faults].map(([k, c]) => `${k} ${c}`).join(', '));
      ctx.figure('429 answers (injected)', rateLimited);
      ctx.figure('feed sockets cut', feedCuts);
      ctx.figure('closing outage', `${OUTAGE_MS / 1000} s, ${outageRequests} requests reset`);
      ctx.figure(
        'router outcomes',
        [...outcomes]
          .sort()
          .map(([k, c]) => `${k} ${c}`)
          .join(', '),
      );
      ctx.figure('orders sent (placeorder intents)', intents.length);
      ctx.figure('orders in the gateway book', rows.length);
      ctx.figure('duplicate orders', duplicates);
      ctx.figure('terminal events expected (book)', terminal.length);
      ctx.figure(
        'terminal events delivered',
        [...delivered.values()].reduce((s, c) => s + c, 0),
      );
      ctx.figure('unknown outcomes', unknown.size);
      ctx.figure('unknown outcomes reconciled', unknown.size - unsettled.length);
      ctx.figure(
        'recovery to connected',
        `${Number.isFinite(recoveryMs) ? `${recoveryMs} ms` : 'never'} (${disconnectedAtEnd ? 'disconnected' : 'connected'} 0.3 s after the faults stopped)`,
      );

      ctx.check('zero duplicate orders in the gateway book', duplicates === 0, `${duplicates} duplicate(s)`);
      ctx.check(
        'no journal intent sent as two orders',
        sentTwice === 0,
        `${sentTwice} intent quantities journalled twice`,
      );
      ctx.check(
        'every gateway order has its journal intent',
        withoutIntent.length === 0,
        `quantities ${withoutIntent.slice(0, 5).join(', ')}`,
      );
      ctx.check(
        'every ended order reported exactly once, in its state',
        missing.length === 0 && repeatedEvents === 0 && wrongState === 0,
        `${missing.length} missing, ${repeatedEvents} repeated, ${wrongState} in the wrong state`,
      );
      ctx.check(
        'every unknown outcome reconciled',
        unsettled.length === 0 && journalUnsettled === 0,
        `${unsettled.length} unsettled (journal: ${journalUnsettled})`,
      );
      ctx.check(
        `connected within ${RECOVERY_LIMIT_MS / 1000} s of the last fault`,
        recoveryMs <= RECOVERY_LIMIT_MS,
        `${recoveryMs} ms`,
      );
    } finally {
      paper.proxy.decide(undefined);
      await h.stop();
      await relay.stop();
      await paper.stop();
    }
  },
};
