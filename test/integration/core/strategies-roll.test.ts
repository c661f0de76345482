// Rolling a strategy's leg against the real paper gateway: the leg's open quantity closed and the
// same side and quantity opened in another contract of the underlying, the BUY of the two first;
// the old leg reads closed from its trades, the new one is appended. A refused first order stops
// the second.
import { describe, expect, it } from 'vitest';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';
import {
  ironCondor,
  leg,
  niftyChain,
  openPositions,
  paperOrders,
  sendStrategy,
  strategiesOf,
} from '../../support/strategy-core.js';

const paper = usePaper();

async function withCore(fn: (h: Harness) => Promise<void>) {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await fn(h);
  } finally {
    await h.stop();
  }
}

describe('strategies.roll', () => {
  it('rolls a short leg up a strike: buys it back first, then sells the new contract', async () => {
    await withCore(async (h) => {
      const c = niftyChain(paper);
      const legs = ironCondor(c);
      const v = await sendStrategy(h, { name: 'Roll me', product: 'MIS', legs });
      const before = (await paperOrders(h)).length;
      const to = c.at(3, 'CE');
      const r = await h.core.router.invoke('strategies.roll', {
        id: v.id,
        leg: 2,
        to: { symbol: to.symbol, exchange: 'NFO' },
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.value.state).toBe('open');
      expect(r.value.legs.map((l) => [l.symbol, l.action, l.state, l.open])).toEqual([
        [legs[0]!.symbol, 'SELL', 'sent', -65],
        [legs[1]!.symbol, 'BUY', 'sent', 65],
        [legs[2]!.symbol, 'SELL', 'closed', 0],
        [legs[3]!.symbol, 'BUY', 'sent', 65],
        [to.symbol, 'SELL', 'sent', -65],
      ]);
      expect(r.value.legs[2]!.orderids).toHaveLength(2);
      const orders = (await paperOrders(h)).slice(before);
      expect(orders.map((o) => [o.symbol, o.action, o.quantity, o.status])).toEqual([
        [legs[2]!.symbol, 'BUY', 65, 'complete'],
        [to.symbol, 'SELL', 65, 'complete'],
      ]);
      const positions = await openPositions(h);
      expect(positions[legs[2]!.symbol]).toBeUndefined();
      expect(positions[to.symbol]).toBe(-65);
      // The rolled leg's close is realised P&L of the strategy: (sell − buy back) × 65, exact.
      const [s] = await strategiesOf(h);
      const all = await paperOrders(h);
      const sold = all.find((o) => o.symbol === legs[2]!.symbol && o.action === 'SELL')!;
      const bought = all.find((o) => o.symbol === legs[2]!.symbol && o.action === 'BUY')!;
      expect(Math.round(Number(s!.realised) * 100)).toBe(
        (Math.round(sold.averagePrice * 100) - Math.round(bought.averagePrice * 100)) * 65,
      );
      // Exit: one basket closes the four open legs, the closed one is left alone.
      const out = await h.core.router.invoke('strategies.exit', { id: v.id });
      if (!out.ok) throw new Error(JSON.stringify(out.error));
      expect(out.value.state).toBe('closed');
      expect(out.value.exit!.orderids).toHaveLength(4);
      expect(await openPositions(h)).toEqual({});
    });
  });

  it('stops at a refused first order: a long leg rolled to a contract the gateway does not list', async () => {
    await withCore(async (h) => {
      const c = niftyChain(paper);
      const wing = c.at(-4, 'PE');
      const v = await sendStrategy(h, {
        name: 'Put spread',
        product: 'MIS',
        legs: [leg(c.at(-2, 'PE'), 'SELL'), leg(wing, 'BUY')],
      });
      const before = (await paperOrders(h)).length;
      const unlisted = wing.symbol.replace(String(wing.strike), String(wing.strike + 25));
      const r = await h.core.router.invoke('strategies.roll', {
        id: v.id,
        leg: 1,
        to: { symbol: unlisted, exchange: 'NFO' },
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'conflict' } });
      if (!r.ok)
        expect(r.error.message).toMatch(new RegExp(`BUY ${unlisted} was refused: .*nothing else was sent`));
      expect((await paperOrders(h)).length).toBe(before);
      const [s] = await strategiesOf(h);
      expect(s!.legs.map((l) => [l.symbol, l.state, l.open])).toEqual([
        [v.legs[0]!.symbol, 'sent', -65],
        [wing.symbol, 'sent', 65],
      ]);
      // A roll to another underlying is refused before anything is sent.
      const bank = paper.gw.gateway.master.derivatives('NFO', 'BANKNIFTY').find((i) => i.kind === 'PE')!;
      const other = await h.core.router.invoke('strategies.roll', {
        id: v.id,
        leg: 1,
        to: { symbol: bank.symbol, exchange: 'NFO' },
      });
      expect(other).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    });
  });
});
