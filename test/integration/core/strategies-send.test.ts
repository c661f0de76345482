// Options strategies sent through a core on the real paper gateway: the legs one at a time through
// the router, BUY legs first; a leg the gateway refuses stops the rest (partial), resume sends it
// once more, and an exit unwinds what was sent as one basket; a leg the risk gate refused goes once
// the limit is fixed.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';
import {
  ironCondor,
  journalled,
  leg,
  niftyChain,
  openPositions,
  paperOrders,
  sendStrategy,
  strategiesOf,
} from '../../support/strategy-core.js';

const paper = usePaper();

async function withCore(risk: object, fn: (h: Harness) => Promise<void>) {
  const h = await startCore(paper);
  try {
    const r = await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, ...risk } });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    await fn(h);
  } finally {
    await h.stop();
  }
}

const paise = (rupees: number) => Math.round(rupees * 100);

describe('strategies.send', () => {
  it('sends a 4-leg iron condor, BUY legs before SELL legs, each leg its own order', async () => {
    await withCore({}, async (h) => {
      const c = niftyChain(paper);
      const legs = ironCondor(c);
      const v = await sendStrategy(h, { name: 'Condor', product: 'MIS', legs });
      expect(v).toMatchObject({ name: 'Condor', underlying: 'NIFTY', product: 'MIS', state: 'open' });
      expect(v.legs.map((l) => [l.symbol, l.action, l.state, l.orderids.length, l.open])).toEqual([
        [legs[0]!.symbol, 'SELL', 'sent', 1, -65],
        [legs[1]!.symbol, 'BUY', 'sent', 1, 65],
        [legs[2]!.symbol, 'SELL', 'sent', 1, -65],
        [legs[3]!.symbol, 'BUY', 'sent', 1, 65],
      ]);
      // The paper book: the 4 orders, complete, placed wings first (the builder listed a SELL first).
      const orders = await paperOrders(h);
      expect(orders.map((o) => [o.orderid, o.symbol, o.action, o.status, o.strategy])).toEqual(
        [1, 3, 0, 2].map((i) => [
          v.legs[i]!.orderids[0],
          legs[i]!.symbol,
          legs[i]!.action,
          'complete',
          'OrderDesk Condor',
        ]),
      );
      const sent = await journalled(h, 'placeorder');
      expect(sent.map((e) => (e.request as { action: string }).action)).toEqual([
        'BUY',
        'BUY',
        'SELL',
        'SELL',
      ]);
      expect(await openPositions(h)).toEqual(
        Object.fromEntries(legs.map((l) => [l.symbol, l.action === 'BUY' ? 65 : -65])),
      );
      // The P&L is the legs' (price − fill) × units at the prices the core has, to the paisa.
      const expected = v.legs.reduce(
        (n, l) => n + (paise(l.ltp!) - paise(Number(l.averagePrice))) * l.open,
        0,
      );
      expect(paise(Number(v.pnl))).toBe(expected);
      expect(v.realised).toBe('0.00');
      // Saved, and sent whole as an event.
      const file = JSON.parse(readFileSync(join(h.dataDir, 'strategies', 'paper.json'), 'utf8'));
      expect(file.strategies.map((s: { id: string; state: string }) => [s.id, s.state])).toEqual([
        [v.id, 'open'],
      ]);
      expect(
        h
          .of('strategies.list')
          .at(-1)!
          .strategies.map((s) => s.id),
      ).toEqual([v.id]);
    });
  });

  it('refuses legs that are not options of one underlying, sending nothing', async () => {
    await withCore({}, async (h) => {
      const c = niftyChain(paper);
      const bank = paper.gw.gateway.master.derivatives('NFO', 'BANKNIFTY').find((i) => i.kind === 'CE')!;
      const r = await h.core.router.invoke('strategies.send', {
        name: 'Mixed',
        product: 'MIS',
        legs: [leg(c.at(0, 'CE'), 'BUY'), leg(bank, 'SELL')],
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      if (!r.ok) expect(r.error.message).toMatch(/one underlying: NIFTY and BANKNIFTY/);
      const fut = await h.core.router.invoke('strategies.send', {
        name: 'Fut',
        product: 'MIS',
        legs: [{ symbol: 'NIFTY23NOV26FUT', exchange: 'NFO', action: 'BUY', quantity: 65, lotSize: 65 }],
      });
      expect(fut).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(await paperOrders(h)).toEqual([]);
      expect(await strategiesOf(h)).toEqual([]);
    });
  });

  it('stops at a leg the gateway refuses; resume sends it once more; exit unwinds the sent legs as one basket', async () => {
    // No price band: a LIMIT leg in a contract the gateway does not list reaches the gateway.
    await withCore({ priceBandPercent: 0 }, async (h) => {
      const c = niftyChain(paper);
      const wing = c.at(-4, 'PE');
      const unlisted = wing.symbol.replace(String(wing.strike), String(wing.strike + 25));
      const legs = [
        leg(c.at(-2, 'PE'), 'SELL'),
        leg(c.at(4, 'CE'), 'BUY'),
        leg(c.at(2, 'CE'), 'SELL'),
        { ...leg(wing, 'BUY'), symbol: unlisted, pricetype: 'LIMIT' as const, price: 10 },
      ];
      const v = await sendStrategy(h, { name: 'Broken', product: 'MIS', legs });
      expect(v.state).toBe('partial');
      expect(v.legs.map((l) => l.state)).toEqual(['waiting', 'sent', 'waiting', 'refused']);
      expect(v.legs[3]!.reason).toMatch(/not found/i);
      // Only the first wing reached the book; the SELL legs after the refusal were never sent.
      expect((await paperOrders(h)).map((o) => [o.symbol, o.action])).toEqual([[legs[1]!.symbol, 'BUY']]);

      const again = await h.core.router.invoke('strategies.resume', { id: v.id });
      if (!again.ok) throw new Error(JSON.stringify(again.error));
      expect(again.value.state).toBe('partial');
      expect(again.value.legs.map((l) => l.state)).toEqual(['waiting', 'sent', 'waiting', 'refused']);
      // Sent once more by the resume (journalled twice in all), and refused again.
      expect((await journalled(h, 'placeorder', unlisted)).map((e) => e.outcome)).toEqual(['error', 'error']);

      const baskets = paper.proxy.forwardedTo('/api/v1/basketorder');
      const out = await h.core.router.invoke('strategies.exit', { id: v.id });
      if (!out.ok) throw new Error(JSON.stringify(out.error));
      expect(paper.proxy.forwardedTo('/api/v1/basketorder')).toBe(baskets + 1);
      expect(out.value).toMatchObject({ state: 'closed', exit: { why: 'unwind', refused: [] } });
      expect(out.value.exit!.orderids).toHaveLength(1);
      expect(await openPositions(h)).toEqual({});
      const orders = await paperOrders(h);
      expect(orders.map((o) => [o.symbol, o.action, o.quantity, o.status])).toEqual([
        [legs[1]!.symbol, 'BUY', 65, 'complete'],
        [legs[1]!.symbol, 'SELL', 65, 'complete'],
      ]);
      // A second exit of a closed strategy sends nothing.
      expect(await h.core.router.invoke('strategies.exit', { id: v.id })).toMatchObject({
        ok: false,
        error: { kind: 'conflict' },
      });
      expect(paper.proxy.forwardedTo('/api/v1/basketorder')).toBe(baskets + 1);
    });
  });

  it('resumes a leg the risk gate refused once the limit allows it, BUY legs still first', async () => {
    await withCore({ maxQuantityPerOrder: 65 }, async (h) => {
      const c = niftyChain(paper);
      const legs = [
        leg(c.at(-2, 'PE'), 'SELL'),
        leg(c.at(-4, 'PE'), 'BUY'),
        leg(c.at(2, 'CE'), 'SELL'),
        leg(c.at(4, 'CE'), 'BUY', 2),
      ];
      const v = await sendStrategy(h, { name: 'Wide', product: 'NRML', legs });
      expect(v.legs.map((l) => l.state)).toEqual(['waiting', 'sent', 'waiting', 'refused']);
      expect(v.legs[3]!.reason).toMatch(/limit/i);
      const early = await h.core.router.invoke('strategies.update', { id: v.id, name: 'Wide 2' });
      expect(early).toMatchObject({ ok: true, value: { name: 'Wide 2', state: 'partial' } });

      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk } });
      const r = await h.core.router.invoke('strategies.resume', { id: v.id });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.value.state).toBe('open');
      expect(r.value.legs.map((l) => [l.state, l.open])).toEqual([
        ['sent', -65],
        ['sent', 65],
        ['sent', -65],
        ['sent', 130],
      ]);
      // The refused BUY went first, then the SELL legs in the builder's order.
      const orders = await paperOrders(h);
      expect(orders.map((o) => [o.symbol, o.action, o.product])).toEqual(
        [1, 3, 0, 2].map((i) => [legs[i]!.symbol, legs[i]!.action, 'NRML']),
      );
      // A resume of an open strategy is refused.
      expect(await h.core.router.invoke('strategies.resume', { id: v.id })).toMatchObject({
        ok: false,
        error: { kind: 'conflict' },
      });
    });
  });
});
