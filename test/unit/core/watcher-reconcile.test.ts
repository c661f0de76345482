// The watcher's reconciliation of unknown outcomes, single orders and composite mutations.
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src-main/contract/index.js';
import { reconcile, type PendingUnknown, type UnknownIntent } from '../../../src-main/core/watcher/index.js';
import { snap } from './watcher-fixture.js';

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
