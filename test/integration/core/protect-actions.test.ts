// The trader's actions on a bracket through the core, against the real paper gateway: the stop
// trails on the market's prices, a level is moved (or refused with words), the protection is removed
// with its legs read back as cancelled, and a refused leg is placed again once when asked.
import { describe, expect, it, vi } from 'vitest';
import type { BracketView } from '../../../src-main/contract/index.js';
import { move, ordersOf } from '../../support/bracket-core.js';
import { usePaper, withCore, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

async function bracket(h: Harness, entry: string): Promise<BracketView | undefined> {
  const r = await h.core.router.invoke('protection.brackets');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.brackets.find((b) => b.entry === entry);
}

/** A filled MARKET BUY with a protection attached, its legs resting; the entry's fill price. */
async function protectedLong(
  h: Harness,
  symbol: string,
  spec: object,
  tick = 0.05,
  quantity = 2,
  freeze?: number,
) {
  const r = await h.core.router.invoke('orders.place', {
    symbol,
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product: 'MIS',
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const entry = r.value.orderid;
  await h.core.pollNow();
  const p = await h.core.router.invoke('orders.protect', {
    orderid: entry,
    symbol,
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick,
    ...(freeze !== undefined ? { freeze } : {}),
    spec,
  });
  expect(p.ok).toBe(true);
  const fill = (await ordersOf(h, symbol)).find((o) => o.orderid === entry)!.averagePrice;
  return { entry, fill };
}

const stopOf = async (h: Harness, symbol: string) =>
  (await ordersOf(h, symbol)).find((o) => o.pricetype === 'SL-M' && o.status === 'trigger pending');

describe('a bracket in the trader’s hands', () => {
  it('trails the stop a step on the market’s price, read back from the book', () =>
    withCore(paper, async (h) => {
      const { entry, fill } = await protectedLong(h, 'INFY', {
        stop: { by: 'points', value: '20' },
        trailStep: '5',
      });
      await vi.waitFor(async () => expect((await stopOf(h, 'INFY'))?.triggerPrice).toBe(fill - 20));
      move(paper, 'INFY', fill + 11);
      await vi.waitFor(async () => {
        await h.clock.advance(1_000);
        expect((await stopOf(h, 'INFY'))?.triggerPrice).toBe(fill - 10);
      });
      expect(await bracket(h, entry)).toMatchObject({ trail: 'trailing', stop: { price: fill - 10 } });
      // A pull-back never takes the stop back.
      move(paper, 'INFY', fill + 6);
      await h.clock.advance(2_000);
      expect((await stopOf(h, 'INFY'))?.triggerPrice).toBe(fill - 10);
    }));

  it('moves the stop and target when asked, and refuses a level off the tick or past the market', () =>
    withCore(paper, async (h) => {
      const { entry, fill } = await protectedLong(h, 'TCS', {
        stop: { by: 'points', value: '20' },
        target: { by: 'points', value: '30' },
      });
      await vi.waitFor(async () => expect(await stopOf(h, 'TCS')).toBeDefined());
      const moved = await h.core.router.invoke('protection.modify', {
        entry,
        stop: fill - 15,
        target: fill + 40,
      });
      expect(moved).toMatchObject({
        ok: true,
        value: { stop: { price: fill - 15 }, target: { price: fill + 40 } },
      });
      const rows = await ordersOf(h, 'TCS');
      expect((await stopOf(h, 'TCS'))!.triggerPrice).toBe(fill - 15);
      expect(
        rows.find((o) => o.pricetype === 'LIMIT' && o.action === 'SELL' && o.status === 'open')!.price,
      ).toBe(fill + 40);

      const offTick = await h.core.router.invoke('protection.modify', { entry, stop: fill - 15.03 });
      expect(offTick.ok).toBe(false);
      if (!offTick.ok) expect(offTick.error.message).toMatch(/not a multiple of the tick 0.05/);
      const past = await h.core.router.invoke('protection.modify', { entry, stop: fill + 50 });
      expect(past.ok).toBe(false);
      if (!past.ok) expect(past.error.message).toMatch(/stop must be below the last price/);
      expect((await stopOf(h, 'TCS'))!.triggerPrice).toBe(fill - 15);
    }));

  it('removes the protection: both legs cancelled at the gateway, the position kept', () =>
    withCore(paper, async (h) => {
      const { entry } = await protectedLong(h, 'SBIN', {
        stop: { by: 'points', value: '20' },
        target: { by: 'points', value: '30' },
      });
      await vi.waitFor(async () => expect(await stopOf(h, 'SBIN')).toBeDefined());
      const r = await h.core.router.invoke('protection.remove', { entry });
      expect(r.ok).toBe(true);
      const legs = (await ordersOf(h, 'SBIN')).filter((o) => o.orderid !== entry);
      expect(legs.map((o) => o.status)).toEqual(['cancelled', 'cancelled']);
      expect(await bracket(h, entry)).toBeUndefined();
      const pos = await h.core.router.invoke('books.positions');
      if (!pos.ok) throw new Error(JSON.stringify(pos.error));
      expect(pos.value.positions.find((p) => p.symbol === 'SBIN')?.quantity).toBe(2);
    }));

  it('places a refused stop again once when the trader retries, and tells the refusal again', () =>
    withCore(paper, async (h) => {
      // A tick of 0.01 where the exchange's is 0.05: the stop 10.01 points under is off its tick.
      const { entry } = await protectedLong(h, 'ITC', { stop: { by: 'points', value: '10.01' } }, 0.01);
      await vi.waitFor(async () => expect((await bracket(h, entry))?.state).toBe('unprotected'));
      const told = () => h.notifications.filter((n) => n.title.startsWith('UNPROTECTED')).length;
      expect(told()).toBe(1);
      // The risk gate refuses it before the gateway: the journal has each attempt.
      const attempts = async () => {
        const j = await h.core.router.invoke('journal.query', {});
        if (!j.ok) throw new Error(JSON.stringify(j.error));
        return j.value.filter(
          (e) => e.operation === 'placeorder' && JSON.stringify(e.request).includes('"SL-M"'),
        ).length;
      };
      const sent = await attempts();
      expect(sent).toBe(1);
      const r = await h.core.router.invoke('protection.retry', { entry });
      expect(r.ok).toBe(true);
      await vi.waitFor(() => expect(told()).toBe(2));
      expect(await attempts()).toBe(sent + 1);
      for (let n = 0; n < 3; n++) await h.core.pollNow();
      expect(await attempts()).toBe(sent + 1);
      const none = await h.core.router.invoke('protection.retry', { entry: 'nope' });
      expect(none.ok).toBe(false);
    }));

  it('rests each leg in parts of at most the freeze quantity, and a trailing step moves every part', () =>
    withCore(paper, async (h) => {
      const spec = {
        stop: { by: 'points', value: '20' },
        target: { by: 'points', value: '30' },
        trailStep: '5',
      };
      const { fill } = await protectedLong(h, 'HDFCBANK', spec, 0.05, 7, 3);
      const parts = async (pricetype: string) =>
        (await ordersOf(h, 'HDFCBANK'))
          .filter((o) => o.pricetype === pricetype && o.action === 'SELL' && o.status !== 'cancelled')
          .map((o) => [o.quantity, pricetype === 'SL-M' ? o.triggerPrice : o.price])
          .sort((a, b) => b[0]! - a[0]!);
      await vi.waitFor(async () => {
        expect(await parts('SL-M')).toEqual([
          [3, fill - 20],
          [3, fill - 20],
          [1, fill - 20],
        ]);
        expect(await parts('LIMIT')).toEqual([
          [3, fill + 30],
          [3, fill + 30],
          [1, fill + 30],
        ]);
      });
      move(paper, 'HDFCBANK', fill + 6);
      await vi.waitFor(async () => {
        await h.clock.advance(1_000);
        expect(await parts('SL-M')).toEqual([
          [3, fill - 15],
          [3, fill - 15],
          [1, fill - 15],
        ]);
      });
    }));
});
