// `orders.protect` in the core against the real paper gateway, no window: an entry's fill gets a
// resting stop and target through the core's own order path (each journalled before it was sent),
// the target's fill cancels the stop, and a refused stop is one sticky "UNPROTECTED" notification.
import { describe, expect, it, vi } from 'vitest';
import type { JournalEntry, OrdersView } from '../../../src-main/contract/index.js';
import { startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

async function book(h: Harness): Promise<OrdersView> {
  const r = await h.core.router.invoke('books.orders');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

async function enter(h: Harness, symbol: string, quantity: number): Promise<string> {
  const r = await h.core.router.invoke('orders.place', {
    symbol,
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product: 'MIS',
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.orderid;
}

const protect = (h: Harness, orderid: string, symbol: string, spec: object, tick = 0.05) =>
  h.core.router.invoke('orders.protect', {
    orderid,
    symbol,
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick,
    spec,
  });

describe('orders.protect', () => {
  it('rests the legs through the journal, and the target’s fill cancels the stop', async () => {
    const h = await startCore(paper);
    try {
      const entry = await enter(h, 'INFY', 5);
      await h.core.pollNow();
      const r = await protect(h, entry, 'INFY', {
        stop: { by: 'points', value: '20' },
        target: { by: 'points', value: '30' },
      });
      expect(r).toEqual({ ok: true, value: { orderid: entry } });
      await h.core.pollNow();
      let orders = (await book(h)).orders;
      const fill = orders.find((o) => o.orderid === entry)!.averagePrice;
      const stop = orders.find((o) => o.pricetype === 'SL-M')!;
      const target = orders.find((o) => o.pricetype === 'LIMIT' && o.action === 'SELL')!;
      expect(stop).toMatchObject({ quantity: 5, triggerPrice: fill - 20, status: 'trigger pending' });
      expect(target).toMatchObject({ quantity: 5, price: fill + 30, status: 'open' });
      // Journalled before they were sent, as any order of the desk.
      const journal = await h.core.router.invoke('journal.query', {});
      if (!journal.ok) throw new Error(JSON.stringify(journal.error));
      const sent = (journal.value as JournalEntry[]).filter(
        (e) => e.operation === 'placeorder' && JSON.stringify(e.request).includes('OrderDesk protection'),
      );
      expect(sent).toHaveLength(2);

      const inst = paper.inst('NSE', 'INFY');
      paper.gw.gateway.market.setPrice(inst, paper.onTick(inst, fill + 31));
      paper.engine().tick();
      // The cancel goes once the brackets are saved: read the book until it shows it.
      await vi.waitFor(async () => {
        await h.core.pollNow();
        orders = (await book(h)).orders;
        expect(orders.find((o) => o.orderid === target.orderid)!.status).toBe('complete');
        expect(orders.find((o) => o.orderid === stop.orderid)!.status).toBe('cancelled');
      });
      expect(h.notifications.filter((n) => n.title.includes('UNPROTECTED'))).toEqual([]);
    } finally {
      await h.stop();
    }
  });

  it('tells a refused stop once, as a sticky UNPROTECTED notification', async () => {
    const h = await startCore(paper);
    try {
      const entry = await enter(h, 'TCS', 2);
      await h.core.pollNow();
      // A tick of 0.01 where the exchange's is 0.05: the stop 10.01 points under is off its tick.
      await protect(h, entry, 'TCS', { stop: { by: 'points', value: '10.01' } }, 0.01);
      for (let n = 0; n < 3; n++) await h.core.pollNow();
      const told = h.notifications.filter((n) => n.title.startsWith('UNPROTECTED'));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ kind: 'warning', sticky: true });
      expect(told[0]!.body).toMatch(/^2 open without a stop: .*tick/i);
      expect((await book(h)).orders.filter((o) => o.pricetype === 'SL-M')).toEqual([]);
    } finally {
      await h.stop();
    }
  });

  it('refuses a protection that is not one, with words', async () => {
    const h = await startCore(paper);
    try {
      const r = await protect(h, '123', 'INFY', { trailStep: '1' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ kind: 'invalid_input' });
      if (!r.ok) expect(r.error.message).toMatch(/a protection needs a stop, a target or both/);
    } finally {
      await h.stop();
    }
  });
});
