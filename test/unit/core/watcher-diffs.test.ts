// The watcher's pure parts: order, order book and position diffs, and poll intervals.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../src-main/contract/index.js';
import {
  diffOrderBook,
  diffPositions,
  orderChanges,
  pollInterval,
  toSnapshot,
} from '../../../src-main/core/watcher/index.js';
import { row, snap, types } from './watcher-fixture.js';

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
