// The watcher's pure parts: order and position diffs, reconciliation, poll intervals; and the
// watcher itself over a scripted client (baseline, exactly once, outage, restart from the store).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRecord, OrderSnapshot } from '../../../src-main/contract/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import {
  createWatcher,
  diffOrderBook,
  diffPositions,
  openSeenStore,
  orderChanges,
  pollInterval,
  reconcile,
  toSnapshot,
  type PendingUnknown,
  type UnknownIntent,
  type WatcherClient,
} from '../../../src-main/core/watcher/index.js';
import { createLtpSource } from '../../../src-main/core/watcher/ltp-source.js';
import { ManualClock, fail, ok } from '../../../src-main/gateway/index.js';

function row(over: Partial<OrderRecord> = {}): OrderRecord {
  return {
    action: 'BUY',
    exchange: 'NSE',
    order_status: 'open',
    orderid: '1',
    price: 812.35,
    pricetype: 'LIMIT',
    product: 'MIS',
    quantity: 1500,
    symbol: 'SBIN',
    timestamp: '20-Nov-2026 10:00:00',
    trigger_price: 0,
    filled_quantity: 0,
    average_price: 0,
    ...over,
  };
}
const snap = (over: Partial<OrderRecord> = {}): OrderSnapshot => toSnapshot(row(over));
const types = (changes: { type: string }[]) => changes.map((c) => c.type);

describe('orderChanges', () => {
  it('reports each step of an order once', () => {
    expect(types(orderChanges(undefined, snap()))).toEqual(['orders.accepted']);
    const seen = { status: 'open', filled: 0, quantity: 1500, price: 812.35, triggerPrice: 0 };
    expect(types(orderChanges(seen, snap({ filled_quantity: 500 })))).toEqual(['orders.partial']);
    expect(orderChanges(seen, snap({ order_status: 'complete', filled_quantity: 1500 }))).toMatchObject([
      { type: 'orders.filled', lastFillQuantity: 1500 },
    ]);
    expect(types(orderChanges(seen, snap({ order_status: 'cancelled', filled_quantity: 200 })))).toEqual([
      'orders.partial',
      'orders.cancelled',
    ]);
    expect(types(orderChanges(seen, snap({ price: 810 })))).toEqual(['orders.modified']);
    expect(types(orderChanges(seen, snap({ order_status: 'rejected', rejection_reason: 'RMS' })))).toEqual([
      'orders.rejected',
    ]);
  });

  it('reports a new order that is already done without a partial', () => {
    expect(types(orderChanges(undefined, snap({ order_status: 'complete', filled_quantity: 1500 })))).toEqual(
      ['orders.accepted', 'orders.filled'],
    );
    expect(
      orderChanges(undefined, snap({ order_status: 'rejected', rejection_reason: 'funds' })),
    ).toMatchObject([{ type: 'orders.rejected', reason: 'funds' }]);
  });

  it('reads complete rows without filled_quantity as fully filled', () => {
    const r = row({ order_status: 'complete' });
    delete r.filled_quantity;
    expect(toSnapshot(r).filledQuantity).toBe(1500);
  });

  it('never reports an order twice however its states are polled (property)', () => {
    // A random monotone life of one order, sampled at random polls: fills add up, one terminal event.
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 8 }),
        fc.boolean(),
        (steps, cancel) => {
          let filled = 0;
          const states: OrderRecord[] = [row()];
          for (const s of steps) {
            filled = Math.min(1500, filled + s);
            states.push(
              row({ filled_quantity: filled, order_status: filled === 1500 ? 'complete' : 'open' }),
            );
            if (filled === 1500) break;
          }
          if (filled < 1500 && cancel)
            states.push(row({ filled_quantity: filled, order_status: 'cancelled' }));
          let seen = diffOrderBook(undefined, []).updates;
          const all: { type: string; lastFillQuantity?: number }[] = [];
          for (const s of [...states, ...states.slice(-1)]) {
            const d = diffOrderBook(seen, [s]);
            all.push(...d.changes);
            seen = new Map([...seen, ...d.updates]);
          }
          const fills = all.filter((c) => c.type === 'orders.partial' || c.type === 'orders.filled');
          expect(fills.reduce((n, c) => n + (c.lastFillQuantity ?? 0), 0)).toBe(filled);
          expect(all.filter((c) => c.type === 'orders.accepted')).toHaveLength(1);
          expect(all.filter((c) => c.type === 'orders.filled').length).toBe(filled === 1500 ? 1 : 0);
          expect(all.filter((c) => c.type === 'orders.cancelled').length).toBe(
            filled < 1500 && cancel ? 1 : 0,
          );
        },
      ),
    );
  });
});

describe('diffOrderBook', () => {
  it('takes the first book as the baseline without events', () => {
    const d = diffOrderBook(undefined, [row({ order_status: 'complete', filled_quantity: 1500 })]);
    expect(d.changes).toEqual([]);
    expect(d.updates.get('1')).toMatchObject({ status: 'complete', filled: 1500 });
  });
});

describe('diffPositions', () => {
  it('reports quantity changes, a closed position as flat, and MTM from the ltp', () => {
    const view = { symbol: 'SBIN', exchange: 'NSE', product: 'MIS', averagePrice: 800, ltp: 810, mtm: 100 };
    expect(diffPositions(undefined, [{ ...view, quantity: 10 }]).changes).toEqual([]);
    const seen = new Map([
      ['NSE:SBIN:MIS', 10],
      ['NSE:TCS:MIS', 5],
    ]);
    const d = diffPositions(seen, [{ ...view, quantity: 15 }]);
    expect(d.changes).toMatchObject([
      { previousQuantity: 10, position: { quantity: 15 } },
      { previousQuantity: 5, position: { symbol: 'TCS', quantity: 0 } },
    ]);
  });
});

describe('reconcile', () => {
  const place = {
    operation: 'placeorder' as const,
    order: {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 1500,
      pricetype: 'LIMIT',
      product: 'MIS',
      price: 812.35,
    },
  };
  const pending = (intent: Parameters<typeof reconcile>[0][number]['intent'], known: string[] = []) => ({
    journalId: 'j1',
    intent,
    since: 0,
    known: new Set(known),
    polls: 0,
  });

  it('finds a placed order that is new and matches', () => {
    const r = reconcile([pending(place, ['1'])], [snap({ orderid: '1' }), snap({ orderid: '2' })], 100);
    expect(r.resolved).toMatchObject([{ found: true, orderid: '2' }]);
  });

  it('waits, then concludes "not placed" after enough reads and time', () => {
    let p: PendingUnknown[] = [pending(place, ['1'])];
    const book = [snap({ orderid: '1' }), snap({ orderid: '3', quantity: 10 })];
    let r = reconcile(p, book, 1000);
    expect(r.resolved).toEqual([]);
    p = r.remaining;
    r = reconcile(p, book, 2000);
    expect(r.resolved).toEqual([]); // two reads, but too soon
    r = reconcile(r.remaining, book, 6000);
    expect(r.resolved).toMatchObject([{ found: false, message: expect.stringMatching(/not placed/) }]);
  });

  it('gives two identical unknown orders two different book orders', () => {
    const a = { ...pending(place), journalId: 'a', since: 1 };
    const b = { ...pending(place), journalId: 'b', since: 2 };
    const r = reconcile([b, a], [snap({ orderid: '7' }), snap({ orderid: '8' })], 10);
    expect(r.resolved.map((x) => [x.journalId, x.orderid])).toEqual([
      ['a', '7'],
      ['b', '8'],
    ]);
  });

  it('settles cancels and modifies from the order state', () => {
    const cancel = pending({ operation: 'cancelorder', orderid: '1' });
    expect(reconcile([cancel], [snap({ order_status: 'cancelled' })], 1).resolved[0]?.found).toBe(true);
    expect(reconcile([cancel], [snap({ order_status: 'complete' })], 1).resolved[0]).toMatchObject({
      found: false,
      message: expect.stringMatching(/complete/),
    });
    const modify = pending({
      operation: 'modifyorder',
      orderid: '1',
      changes: { quantity: 2000, price: 810, trigger_price: 0 },
    });
    expect(reconcile([modify], [snap({ quantity: 2000, price: 810 })], 1).resolved[0]?.found).toBe(true);
    expect(reconcile([modify], [snap()], 1).resolved).toEqual([]);
  });
});

describe('reconcile: composite mutations', () => {
  const child = (quantity: number) => ({
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product: 'MIS',
    price: 0,
  });
  const order = (orderid: string, quantity: number, over: Partial<OrderRecord> = {}) =>
    snap({ orderid, quantity, pricetype: 'MARKET', price: 0, strategy: 'Desk', ...over });
  const pending = (intent: UnknownIntent, known: string[] = [], since = 0): PendingUnknown => ({
    journalId: 'j1',
    intent,
    since,
    known: new Set(known),
    polls: 0,
  });
  // planSplit(250, 100): 100, 100, 50.
  const split: UnknownIntent = {
    operation: 'splitorder',
    strategy: 'Desk',
    orders: [child(100), child(100), child(50)],
  };

  it('finds a split when new orders match every child, with their ids', () => {
    const book = [order('1', 100), order('2', 100), order('3', 100), order('4', 50)];
    expect(reconcile([pending(split, ['1'])], book, 1).resolved).toEqual([
      {
        journalId: 'j1',
        operation: 'splitorder',
        found: true,
        orderids: ['2', '3', '4'],
        message: expect.stringMatching(/all 3 children were placed/),
      },
    ]);
  });

  it('ignores old orders, other strategies, sides and sizes; waits, then says "partly placed" or "not placed"', () => {
    const book = [
      order('1', 100), // older than the call
      order('2', 100, { strategy: 'Other' }),
      order('3', 100, { action: 'SELL' }),
      order('4', 60),
      order('5', 100),
    ];
    let r = reconcile([pending(split, ['1'])], book, 1000);
    expect(r.resolved).toEqual([]);
    r = reconcile(r.remaining, book, 6000);
    expect(r.resolved).toMatchObject([
      { found: false, orderids: ['5'], message: expect.stringMatching(/partly placed: 1 of 3 children/) },
    ]);
    let none = reconcile([pending(split, ['1'])], [order('1', 100)], 1000);
    none = reconcile(none.remaining, [order('1', 100)], 6000);
    expect(none.resolved).toMatchObject([
      { found: false, orderids: [], message: expect.stringMatching(/not placed/) },
    ]);
  });

  it('finds a basket leg by leg, and never gives one book order to two unknowns', () => {
    const basket: UnknownIntent = {
      operation: 'basketorder',
      strategy: 'Desk',
      orders: [child(5), { ...child(3), symbol: 'INFY', action: 'SELL' }],
    };
    const book = [order('7', 5), order('8', 3, { symbol: 'INFY', action: 'SELL' })];
    const other = { ...pending({ operation: 'placeorder', order: child(5) }), journalId: 'later', since: 1 };
    const r = reconcile([other, pending(basket)], book, 10);
    expect(r.resolved).toMatchObject([{ journalId: 'j1', found: true, orderids: ['7', '8'] }]);
    expect(r.remaining.map((p) => p.journalId)).toEqual(['later']);
  });

  it('settles a cancel-all from the orders that were open before the call', () => {
    const cancelAll = pending({ operation: 'cancelallorder', strategy: 'Desk', orderids: ['1', '2'] });
    const all = reconcile(
      [cancelAll],
      [order('1', 5, { order_status: 'cancelled' }), order('2', 5, { order_status: 'cancelled' })],
      1,
    );
    expect(all.resolved).toMatchObject([{ operation: 'cancelallorder', found: true, orderids: ['1', '2'] }]);
    // One still open: wait; then "partly cancelled", naming what happened to the other.
    let r = reconcile([cancelAll], [order('1', 5, { order_status: 'cancelled' }), order('2', 5)], 1000);
    expect(r.resolved).toEqual([]);
    r = reconcile(r.remaining, [order('1', 5, { order_status: 'cancelled' }), order('2', 5)], 6000);
    expect(r.resolved).toMatchObject([
      {
        found: false,
        orderids: ['1'],
        message: expect.stringMatching(/partly cancelled: 1 of 2.*still open.*2/),
      },
    ]);
    // Every order finished otherwise (filled): nothing was cancelled, no need to wait.
    const filled = [order('1', 5, { order_status: 'complete' }), order('2', 5, { order_status: 'complete' })];
    expect(reconcile([cancelAll], filled, 1).resolved).toMatchObject([
      { found: false, orderids: [], message: expect.stringMatching(/no order was cancelled.*1 complete/) },
    ]);
    const nothing = pending({ operation: 'cancelallorder', strategy: 'Desk', orderids: [] });
    expect(reconcile([nothing], [], 1).resolved).toMatchObject([
      { found: false, message: expect.stringMatching(/no open orders/) },
    ]);
  });

  it('settles a close-position from the MARKET counter-orders of the strategy placed after the call', () => {
    const close = pending({ operation: 'closeposition', strategy: 'Desk' }, ['1']);
    const book = [
      order('1', 5), // older
      order('2', 5, { strategy: 'Other' }),
      order('3', 5, { pricetype: 'LIMIT', price: 800 }),
    ];
    let r = reconcile([close], book, 1000);
    expect(r.resolved).toEqual([]);
    const closed = reconcile(
      r.remaining,
      [...book, order('4', 5, { action: 'SELL', order_status: 'complete' })],
      2000,
    );
    expect(closed.resolved).toMatchObject([{ operation: 'closeposition', found: true, orderids: ['4'] }]);
    r = reconcile(r.remaining, book, 6000);
    expect(r.resolved).toMatchObject([
      { found: false, orderids: [], message: expect.stringMatching(/nothing was closed/) },
    ]);
  });
});

describe('pollInterval', () => {
  const p = { visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 };
  it('is fast with open orders, normal when visible, slow in the tray, backing off on failure', () => {
    expect(pollInterval(p, { visible: true, busy: false, failures: 0 })).toBe(2000);
    expect(pollInterval(p, { visible: false, busy: false, failures: 0 })).toBe(10_000);
    expect(pollInterval(p, { visible: false, busy: true, failures: 0 })).toBe(1000);
    expect(pollInterval(p, { visible: true, busy: true, failures: 1 })).toBe(2000);
    // Never more than 4 s apart while failing, so a gateway that is back is seen within 5 s; the
    // tray's slower pace is kept.
    expect(pollInterval(p, { visible: true, busy: true, failures: 3 })).toBe(4000);
    expect(pollInterval(p, { visible: true, busy: false, failures: 10 })).toBe(4000);
    expect(pollInterval(p, { visible: false, busy: false, failures: 10 })).toBe(10_000);
  });
});

describe('createWatcher over a scripted client', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function scripted() {
    const state = { orders: [] as OrderRecord[], down: false, calls: [] as string[] };
    const statistics = {
      total_buy_orders: 0,
      total_sell_orders: 0,
      total_completed_orders: 0,
      total_open_orders: 0,
      total_rejected_orders: 0,
    };
    const client: WatcherClient = {
      orderbook: async () => {
        state.calls.push('orderbook');
        return state.down
          ? fail({ kind: 'network', message: 'cannot reach the gateway' })
          : ok({ status: 'success' as const, data: { orders: state.orders, statistics } });
      },
      positionbook: async () => (
        state.calls.push('positionbook'),
        ok({ status: 'success' as const, data: [] })
      ),
      funds: async () => fail({ kind: 'network', message: 'x' }),
      tradebook: async () => ok({ status: 'success' as const, data: [] }),
      multiquotes: async () => fail({ kind: 'not_offered', message: 'x' }),
      depth: async () => fail({ kind: 'not_offered', message: 'x' }),
    };
    return { state, client };
  }

  it('polls on its timer, faster while orders are open, and persists what it reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-'));
    dirs.push(dir);
    const clock = new ManualClock(0);
    const { state, client } = scripted();
    const events: string[] = [];
    const stores: ReturnType<typeof openSeenStore>[] = [];
    const make = () =>
      createWatcher({
        profileId: 'paper',
        client,
        clock,
        store: stores[stores.push(openSeenStore(join(dir, 'watcher.db'))) - 1]!,
        polling: () => ({ visibleMs: 2000, hiddenMs: 10_000, openOrdersMs: 1000 }),
        emit: (name) => events.push(name),
        logger: createMemoryLogger(),
      });
    const w = make();
    state.orders = [row({ order_status: 'complete', filled_quantity: 1500 })];
    w.start();
    await clock.advance(10_000);
    expect(state.calls.filter((c) => c === 'orderbook')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual([]); // baseline
    state.orders.push(row({ orderid: '2' }));
    await clock.advance(10_000);
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual(['orders.accepted']);
    expect(w.interval()).toBe(1000);
    state.down = true;
    await clock.advance(1000);
    expect(events.at(-1)).toBe('session.connection');
    expect(w.connection()).toBe('disconnected');
    expect(w.interval()).toBe(2000);
    await w.stop();

    // A new watcher on the same store: nothing old is news, the change made meanwhile is.
    state.down = false;
    state.orders = [
      row({ order_status: 'complete', filled_quantity: 1500 }),
      row({ orderid: '2', order_status: 'complete', filled_quantity: 1500 }),
    ];
    events.length = 0;
    const again = make();
    await again.pollNow();
    expect(events.filter((e) => e.startsWith('orders.'))).toEqual(['orders.filled']);
    await again.stop();
    for (const s of stores) s.close();
  });
});

describe('createLtpSource', () => {
  const quote = (ltp: number) => ({
    ask: ltp,
    bid: ltp,
    high: ltp,
    low: ltp,
    ltp,
    open: ltp,
    prev_close: ltp,
    volume: 1,
  });
  const depthAnswer = (ltp: number) => ({
    status: 'success' as const,
    data: {
      asks: [],
      bids: [],
      totalbuyqty: 0,
      totalsellqty: 0,
      high: 0,
      low: 0,
      ltp,
      ltq: 0,
      open: 0,
      prev_close: 0,
      volume: 0,
      oi: 0,
    },
  });
  const list = ['A', 'B', 'C', 'D', 'E'].map((symbol) => ({ symbol, exchange: 'NSE' }));

  it('uses one multiquotes call where offered', async () => {
    const calls: string[] = [];
    const src = createLtpSource({
      multiquotes: async (input) => {
        calls.push('multiquotes');
        return ok({
          status: 'success' as const,
          results: input.symbols.map((s, i) => ({
            symbol: s.symbol,
            exchange: s.exchange,
            data: quote(100 + i),
          })),
        });
      },
      depth: async () => (calls.push('depth'), fail({ kind: 'network', message: 'x' })),
    });
    const ltps = await src.refresh(list);
    expect(calls).toEqual(['multiquotes']);
    expect(ltps.get('NSE:E')).toBe(104);
  });

  it('falls back to depth, a few symbols per round in rotation, once multiquotes is not offered', async () => {
    const calls: string[] = [];
    const src = createLtpSource(
      {
        multiquotes: async () => (
          calls.push('multiquotes'),
          fail({ kind: 'not_offered', message: 'x', httpStatus: 404 })
        ),
        depth: async (input) => (calls.push(input.symbol), ok(depthAnswer(input.symbol.charCodeAt(0)))),
      },
      { depthPerRound: 3 },
    );
    expect([...(await src.refresh(list)).keys()]).toEqual(['NSE:A', 'NSE:B', 'NSE:C']);
    expect((await src.refresh(list)).size).toBe(5);
    expect(calls).toEqual(['multiquotes', 'A', 'B', 'C', 'D', 'E', 'A']);
  });
});
