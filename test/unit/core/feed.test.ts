// The feed's pure parts in the core: exactly-once order events when feed updates and (possibly stale)
// polls interleave, an order_update read as a book row, what market watches ask of the feed and how
// its ticks read, the slowed polling, and the profile's feedUrl.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock, fail, ok } from '../../../src-main/gateway/index.js';
import {
  Profile,
  Settings,
  type OrderRecord,
  type WsMarketData,
  type WsOrderUpdate,
} from '../../../src-main/contract/index.js';
import { depthOfTick, feedSymbols, quoteOfTick } from '../../../src-main/core/market/feed-ticks.js';
import { feedOrderRecord } from '../../../src-main/core/watcher/feed-order.js';
import {
  createWatcher,
  diffOrderBook,
  openSeenStore,
  pollInterval,
  toSnapshot,
  type SeenOrder,
  type WatcherClient,
} from '../../../src-main/core/watcher/index.js';

function row(status: OrderRecord['order_status'], filled: number, quantity = 100): OrderRecord {
  return {
    action: 'BUY',
    exchange: 'NSE',
    order_status: status,
    orderid: '7',
    price: 812.35,
    pricetype: 'LIMIT',
    product: 'MIS',
    quantity,
    symbol: 'SBIN',
    timestamp: '20-Nov-2026 10:00:00',
    trigger_price: 0,
    filled_quantity: filled,
    average_price: filled > 0 ? 812.35 : 0,
  };
}

describe('exactly once across feed and polls', () => {
  it('reports every fill quantity once and the fill once, whatever the interleaving and staleness', () => {
    fc.assert(
      fc.property(
        // Fill steps of one 100-share order, then which states each source sees, in which order.
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 0, maxLength: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { minLength: 1, maxLength: 30 }),
        (steps, script) => {
          const states: OrderRecord[] = [row('open', 0)];
          let filled = 0;
          for (const s of steps) {
            filled = Math.min(99, filled + s);
            states.push(row('open', filled));
          }
          states.push(row('complete', 100));
          // The feed tells each state in order (some lost); a poll may answer any state up to the
          // newest one made so far (a stale read); the last poll reads the final state.
          let made = 0;
          const deliveries: OrderRecord[] = [];
          for (const [fromFeed, n] of script) {
            made = Math.min(states.length - 1, made + (n % 2));
            if (fromFeed) deliveries.push(states[made]!);
            else deliveries.push(states[n % (made + 1)]!);
          }
          deliveries.push(states[states.length - 1]!);
          let seen = new Map<string, SeenOrder>();
          const events: { type: string; qty: number }[] = [];
          for (const d of deliveries) {
            const diff = diffOrderBook(seen, [d]);
            seen = new Map([...seen, ...diff.updates]);
            for (const c of diff.changes)
              events.push({ type: c.type, qty: 'lastFillQuantity' in c ? c.lastFillQuantity : 0 });
          }
          expect(events.filter((e) => e.type === 'orders.filled')).toHaveLength(1);
          expect(events.filter((e) => e.type === 'orders.accepted')).toHaveLength(1);
          const told = events.reduce((sum, e) => sum + e.qty, 0);
          expect(told).toBe(100);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ignores a stale row without storing it (a poll older than the feed)', () => {
    const seen = new Map<string, SeenOrder>([
      ['7', { status: 'complete', filled: 100, quantity: 100, price: 812.35, triggerPrice: 0 }],
    ]);
    expect(diffOrderBook(seen, [row('open', 40)])).toEqual({ changes: [], updates: new Map() });
  });
});

describe('an order_update as a book row', () => {
  const update: WsOrderUpdate = {
    type: 'order_update',
    orderid: '7',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 100,
    price: 812.35,
    trigger_price: 0,
    pricetype: 'LIMIT',
    product: 'MIS',
    order_status: 'complete',
    filled_quantity: 100,
    pending_quantity: 0,
    average_price: 812.3,
    rejection_reason: '',
  };

  it('takes its time and strategy from the order as last polled, else the arrival time in IST', () => {
    const known = toSnapshot({ ...row('open', 0), strategy: 'desk', timestamp: '20-Nov-2026 09:59:00' });
    expect(feedOrderRecord(update, known, 0)).toMatchObject({
      order_status: 'complete',
      filled_quantity: 100,
      average_price: 812.3,
      timestamp: '20-Nov-2026 09:59:00',
      strategy: 'desk',
    });
    const fresh = feedOrderRecord(update, undefined, Date.parse('2026-11-20T04:30:05Z'));
    expect(fresh.timestamp).toBe('20-Nov-2026 10:00:05');
    expect(fresh.strategy).toBeUndefined();
    expect(
      feedOrderRecord({ ...update, order_status: 'rejected', rejection_reason: 'RMS' }, known, 0),
    ).toMatchObject({ rejection_reason: 'RMS' });
  });
});

describe('market watches over the feed', () => {
  const sbin = { symbol: 'SBIN', exchange: 'NSE' as const };
  const infy = { symbol: 'INFY', exchange: 'NSE' as const };
  const tcs = { symbol: 'TCS', exchange: 'NSE' as const };

  it('asks Depth for quote and depth watches (the book has bid and ask), LTP for the rest', () => {
    const following = { ltp: [sbin, infy], quote: [sbin], depth: [tcs] };
    expect(feedSymbols((m) => following[m])).toEqual([
      { ...sbin, mode: 3 },
      { ...tcs, mode: 3 },
      { ...infy, mode: 1 },
    ]);
  });

  it('reads a Depth tick as the REST depth and a quote with the best bid and ask', () => {
    const tick: WsMarketData = {
      type: 'market_data',
      symbol: 'SBIN',
      exchange: 'NSE',
      mode: 3,
      data: {
        ltp: 812.35,
        last_quantity: 5,
        volume: 1000,
        open: 810,
        high: 815,
        low: 805,
        close: 808.1,
        oi: 0,
        total_buy_quantity: 300,
        total_sell_quantity: 200,
        depth: {
          buy: [{ price: 812.3, quantity: 10, orders: 2 }],
          sell: [{ price: 812.4, quantity: 7 }],
        },
      },
    };
    expect(depthOfTick(tick)).toEqual({
      ltp: 812.35,
      ltq: 5,
      open: 810,
      high: 815,
      low: 805,
      prev_close: 808.1,
      volume: 1000,
      oi: 0,
      totalbuyqty: 300,
      totalsellqty: 200,
      bids: [{ price: 812.3, quantity: 10 }],
      asks: [{ price: 812.4, quantity: 7 }],
    });
    expect(quoteOfTick(tick)).toMatchObject({ bid: 812.3, ask: 812.4, prev_close: 808.1, ltp: 812.35 });
    expect(quoteOfTick({ ...tick, mode: 1, data: { ltp: 812.35 } })).toBeUndefined();
  });
});

describe('polling while the feed is live, and the profile feedUrl', () => {
  it('keeps the window pace while the feed is live: open orders no longer speed polling up', () => {
    const p = { visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 };
    const s = { visible: true, busy: true, failures: 0 };
    expect(pollInterval(p, s)).toBe(1000);
    expect(pollInterval(p, { ...s, feedLive: true })).toBe(2000);
    expect(pollInterval(p, { ...s, visible: false })).toBe(1000);
    expect(pollInterval(p, { ...s, visible: false, feedLive: true })).toBe(10_000);
    expect(pollInterval(p, { ...s, busy: false, feedLive: true })).toBe(2000);
  });

  it('reads the book every 30 s in the tray while the feed is live and nothing is open', () => {
    const p = { visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 };
    const quiet = { visible: false, busy: false, failures: 0, feedLive: true };
    expect(pollInterval(p, quiet)).toBe(30_000);
    // An open order, a shown window, or no feed: the usual pace.
    expect(pollInterval(p, { ...quiet, busy: true })).toBe(10_000);
    expect(pollInterval(p, { ...quiet, visible: true })).toBe(2000);
    expect(pollInterval(p, { ...quiet, feedLive: false })).toBe(10_000);
    // A slower tray pace of the trader's own is kept; a failing gateway is retried as before.
    expect(pollInterval({ ...p, hiddenMs: 60_000 }, quiet)).toBe(60_000);
    expect(pollInterval(p, { ...quiet, failures: 3 })).toBe(30_000);
  });

  it('takes a ws(s) feedUrl without credentials or query; old settings without one still parse', () => {
    const base = { id: 'live', name: 'Live', baseUrl: 'https://algo.example.com' };
    expect(Profile.parse({ ...base, feedUrl: 'wss://algo.example.com/ws' }).feedUrl).toBe(
      'wss://algo.example.com/ws',
    );
    for (const bad of ['https://algo.example.com/ws', 'wss://algo.example.com/ws?apikey=x', 'wss://u:p@h/ws'])
      expect(Profile.safeParse({ ...base, feedUrl: bad }).success).toBe(false);
    const old = Settings.parse({ profiles: [{ ...base, kind: 'gateway' }] });
    expect(old.profiles.find((p) => p.id === 'live')?.feedUrl).toBeUndefined();
  });
});

describe('the watcher with a live feed', () => {
  it('keeps the fast pace while an unknown outcome waits (only the book settles it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-watcher-'));
    const store = openSeenStore(join(dir, 'watcher.db'));
    const statistics = {
      total_buy_orders: 0,
      total_sell_orders: 0,
      total_completed_orders: 0,
      total_open_orders: 1,
      total_rejected_orders: 0,
    };
    const client: WatcherClient = {
      orderbook: async () =>
        ok({ status: 'success' as const, data: { orders: [row('open', 0)], statistics } }),
      positionbook: async () => ok({ status: 'success' as const, data: [] }),
      funds: async () => fail({ kind: 'network', message: 'x' }),
      tradebook: async () => ok({ status: 'success' as const, data: [] }),
      multiquotes: async () => fail({ kind: 'not_offered', message: 'x' }),
      depth: async () => fail({ kind: 'not_offered', message: 'x' }),
    };
    const w = createWatcher({
      profileId: 'paper',
      client,
      clock: new ManualClock(0),
      store,
      polling: () => ({ visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 }),
      emit: () => undefined,
      logger: createMemoryLogger(),
      visible: true,
    });
    try {
      await w.pollNow();
      expect(w.interval()).toBe(1000);
      w.setFeedLive(true);
      expect(w.interval()).toBe(2000);
      w.trackUnknown('j1', { operation: 'cancelorder', orderid: '7' }, new Set(['7']));
      expect(w.interval()).toBe(1000);
    } finally {
      await w.stop();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
