// Settling an order action OrderDesk stopped before recording the answer of: the book's orders it may
// have placed are told by what was asked, by time and by no other journal entry holding them.
import { describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '../../../src-main/contract/index.js';
import {
  matchInterrupted,
  orderTimeMs,
  reconcile,
  type PendingUnknown,
  type PlacedOrder,
} from '../../../src-main/core/watcher/index.js';

// 10:00:00 IST on 23-Nov-2026.
const T0 = Date.parse('2026-11-23T10:00:00+05:30');
const FROM = T0 - 30_000;

const LEG: PlacedOrder = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 10,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 812.5,
};

let next = 100;
function order(over: Partial<OrderSnapshot> = {}): OrderSnapshot {
  return {
    orderid: String(next++),
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    pricetype: 'LIMIT',
    quantity: 10,
    filledQuantity: 0,
    price: 812.5,
    triggerPrice: 0,
    averagePrice: 0,
    status: 'open',
    strategy: 'desk',
    timestamp: '23-Nov-2026 10:00:01',
    ...over,
  };
}

const place = { kind: 'legs', strategy: 'desk', legs: [LEG] } as const;
const none = new Set<string>();

describe('orderTimeMs', () => {
  it('reads both timestamp shapes gateways send, as IST', () => {
    expect(orderTimeMs('23-Nov-2026 10:00:00')).toBe(T0);
    expect(orderTimeMs('2026-11-23 10:00:00')).toBe(T0);
    expect(orderTimeMs('13:58:03')).toBeUndefined();
    expect(orderTimeMs('23-Foo-2026 10:00:00')).toBeUndefined();
  });
});

describe('matchInterrupted', () => {
  it('exact: the one order of the leg, placed after the intent, is the action', () => {
    const o = order();
    const older = order({ timestamp: '23-Nov-2026 09:58:00' });
    expect(matchInterrupted(place, [older, o], FROM, none)).toEqual({ kind: 'exact', orderids: [o.orderid] });
  });

  it('none: no order of that symbol, side, quantity and price since the intent', () => {
    const book = [
      order({ price: 812.55 }),
      order({ quantity: 11 }),
      order({ action: 'SELL' }),
      order({ exchange: 'BSE' }),
      order({ strategy: 'other' }),
      order({ timestamp: '23-Nov-2026 09:59:29' }), // before the skew allowance
    ];
    expect(matchInterrupted(place, book, FROM, none)).toEqual({ kind: 'none' });
  });

  it('within the clock-skew allowance an order stamped a little before the intent still counts', () => {
    const o = order({ timestamp: '23-Nov-2026 09:59:31' });
    expect(matchInterrupted(place, [o], FROM, none)).toEqual({ kind: 'exact', orderids: [o.orderid] });
  });

  it('ambiguous: two orders could be the one leg', () => {
    const a = order();
    const b = order({ timestamp: '23-Nov-2026 10:00:05' });
    expect(matchInterrupted(place, [a, b], FROM, none)).toEqual({
      kind: 'ambiguous',
      orderids: [a.orderid, b.orderid].sort(),
    });
  });

  it('an order another journal entry holds is never taken: the other one is the match', () => {
    const theirs = order();
    const mine = order({ timestamp: '23-Nov-2026 10:00:02' });
    expect(matchInterrupted(place, [theirs, mine], FROM, new Set([theirs.orderid]))).toEqual({
      kind: 'exact',
      orderids: [mine.orderid],
    });
    expect(matchInterrupted(place, [theirs], FROM, new Set([theirs.orderid]))).toEqual({ kind: 'none' });
  });

  it('a MARKET leg matches whatever price the book shows; a LIMIT leg only its own', () => {
    const market = { ...LEG, pricetype: 'MARKET', price: 0 };
    const o = order({ pricetype: 'MARKET', price: 0 });
    expect(matchInterrupted({ kind: 'legs', strategy: 'desk', legs: [market] }, [o], FROM, none)).toEqual({
      kind: 'exact',
      orderids: [o.orderid],
    });
  });

  it('a basket settles only when every leg shape has exactly its count; partly is ambiguous', () => {
    const sell = { ...LEG, action: 'SELL', symbol: 'INFY' };
    const basket = { kind: 'legs', strategy: 'desk', legs: [LEG, LEG, sell] } as const;
    const b1 = order();
    const b2 = order();
    const s1 = order({ action: 'SELL', symbol: 'INFY' });
    expect(matchInterrupted(basket, [b1, b2, s1], FROM, none)).toEqual({
      kind: 'exact',
      orderids: [b1.orderid, b2.orderid, s1.orderid].sort(),
    });
    expect(matchInterrupted(basket, [b1, s1], FROM, none).kind).toBe('ambiguous');
  });

  it('a close: its MARKET counter-orders of the strategy since the intent', () => {
    const close = { kind: 'counter-orders', strategy: 'desk' } as const;
    const c = order({ pricetype: 'MARKET', action: 'SELL', price: 0 });
    expect(matchInterrupted(close, [order(), c], FROM, none)).toEqual({
      kind: 'exact',
      orderids: [c.orderid],
    });
    expect(matchInterrupted(close, [order()], FROM, none)).toEqual({ kind: 'none' });
  });
});

describe('reconcile of an interrupted placeorder', () => {
  const pending = (claimed: string[] = []): PendingUnknown => ({
    journalId: 'j1',
    intent: { operation: 'placeorder', order: LEG },
    since: T0 + 60_000,
    known: new Set(),
    polls: 0,
    interrupted: { from: FROM, strategy: 'desk', claimed: () => new Set(claimed) },
  });

  it('settles found with the order id, or reports an ambiguity instead of guessing', () => {
    const o = order();
    const found = reconcile([pending()], [o], T0 + 61_000);
    expect(found.resolved).toMatchObject([{ journalId: 'j1', found: true, orderid: o.orderid }]);
    const two = reconcile([pending()], [o, order()], T0 + 61_000);
    expect(two.resolved).toEqual([]);
    expect(two.remaining).toEqual([]);
    expect(two.undecided).toMatchObject([{ journalId: 'j1', operation: 'placeorder' }]);
    expect(two.undecided[0]?.message).toContain('check the order book');
  });

  it('"not placed" only once patient; an order claimed by the journal meanwhile is not its', () => {
    const o = order();
    const early = reconcile([pending([o.orderid])], [o], T0 + 61_000);
    expect(early.remaining).toHaveLength(1);
    const late = reconcile([{ ...pending([o.orderid]), polls: 1 }], [o], T0 + 70_000);
    expect(late.resolved).toMatchObject([{ journalId: 'j1', found: false }]);
    expect(late.resolved[0]?.message).toContain('was not placed');
  });
});
