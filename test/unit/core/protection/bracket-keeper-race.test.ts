// Races of answers and books the paper gateway cannot be made to produce on cue (it answers and
// shows each change at once): a book read before a change was answered must not undo the change.
import { describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '../../../../src-main/contract/index.js';
import { createBracketKeeper, type ProtectiveOrder } from '../../../../src-main/core/protection/index.js';

const row = (o: Partial<OrderSnapshot> & Pick<OrderSnapshot, 'orderid'>): OrderSnapshot => ({
  symbol: 'INFY',
  exchange: 'NSE',
  action: 'SELL',
  product: 'MIS',
  pricetype: 'SL-M',
  quantity: 10,
  filledQuantity: 0,
  price: 0,
  triggerPrice: 0,
  averagePrice: 0,
  status: 'open',
  timestamp: '10:00:00',
  ...o,
});

describe('bracket keeper races', () => {
  it('never trails a stop with the quantity of a book read before its last change', async () => {
    const sent: (ProtectiveOrder & { kind: string; orderid?: string })[] = [];
    let n = 0;
    const keeper = createBracketKeeper(
      {
        place: async (o) => (sent.push({ ...o, kind: 'place' }), { ok: true, orderid: `L${++n}` }),
        modify: async (o) => (sent.push({ ...o, kind: 'modify' }), { ok: true, orderid: o.orderid }),
        cancel: async () => ({ ok: true, orderid: 'x' }),
      },
      () => undefined,
    );
    keeper.attach({
      orderid: 'E',
      symbol: 'INFY',
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      tick: 0.05,
      spec: { stop: { by: 'points', value: '20' }, target: { by: 'points', value: '30' }, trailStep: '5' },
    });
    const entry = row({
      orderid: 'E',
      action: 'BUY',
      pricetype: 'MARKET',
      filledQuantity: 10,
      averagePrice: 100,
      status: 'complete',
    });
    await keeper.onBook([entry]);
    expect(sent.map((o) => [o.kind, o.pricetype, o.quantity])).toEqual([
      ['place', 'SL-M', 10],
      ['place', 'LIMIT', 10],
    ]);
    // The target fills 3: the stop is cut to 7 and the gateway answers.
    const stop = row({ orderid: 'L1', triggerPrice: 80, status: 'trigger pending' });
    const target = row({ orderid: 'L2', pricetype: 'LIMIT', price: 130, filledQuantity: 3 });
    await keeper.onBook([entry, stop, target]);
    expect(sent.at(-1)).toMatchObject({ kind: 'modify', orderid: 'L1', quantity: 7 });
    // A price before the next book: the book the keeper has still shows the stop at 10.
    const before = sent.length;
    await keeper.onPrice('INFY', 'NSE', 111);
    expect(sent.length).toBe(before);
    // The next book shows 7: the step goes out for 7.
    await keeper.onBook([entry, { ...stop, quantity: 7 }, target]);
    await keeper.onPrice('INFY', 'NSE', 111);
    expect(sent.at(-1)).toMatchObject({ kind: 'modify', orderid: 'L1', quantity: 7, trigger_price: 90 });
  });
});
