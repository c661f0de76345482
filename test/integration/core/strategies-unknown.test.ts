// A leg whose answer was lost, against the real paper gateway: the strategy stops there (partial)
// and the leg is never sent again by itself. Resume refuses while the book has not told; once the
// watcher has settled it from the book, the leg adopts the order it finds there (or, not placed,
// reads as refused and resume sends it once more).
import { describe, expect, it, vi } from 'vitest';
import type { StrategyView } from '../../../src-main/contract/index.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';
import {
  ironCondor,
  journalled,
  niftyChain,
  openPositions,
  paperOrders,
  sendStrategy,
  strategiesOf,
} from '../../support/strategy-core.js';

const paper = usePaper();
const PLACE = '/api/v1/placeorder';

async function waitStrategy(h: Harness, check: (v: StrategyView) => void): Promise<StrategyView> {
  let last: StrategyView | undefined;
  await vi.waitFor(
    async () => {
      await h.clock.advance(1000);
      await h.core.pollNow();
      [last] = await strategiesOf(h);
      check(last!);
    },
    { timeout: 8000, interval: 20 },
  );
  return last!;
}

async function resumed(h: Harness, id: string): Promise<StrategyView> {
  const r = await h.core.router.invoke('strategies.resume', { id });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe('a leg in doubt', () => {
  it('blocks resume until the book tells it was not placed; resume then sends it once', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const legs = ironCondor(niftyChain(paper));
      // The second send (the second wing) is lost on its way: no answer, and nothing at the gateway.
      paper.proxy.enqueue([{ kind: 'pass' }, { kind: 'drop', forward: false }], PLACE);
      const v = await sendStrategy(h, { name: 'Lost', product: 'MIS', legs });
      expect(v.state).toBe('partial');
      expect(v.legs.map((l) => l.state)).toEqual(['waiting', 'sent', 'waiting', 'unknown']);

      const early = await h.core.router.invoke('strategies.resume', { id: v.id });
      expect(early).toMatchObject({ ok: false, error: { kind: 'conflict' } });
      if (!early.ok)
        expect(early.error.message).toBe(
          `BUY ${legs[3]!.symbol}'s outcome is not known yet; the book will tell`,
        );
      expect(await journalled(h, 'placeorder', legs[3]!.symbol)).toHaveLength(1);

      const settled = await waitStrategy(h, (s) => expect(s.legs[3]!.state).toBe('refused'));
      expect(settled.legs[3]!.reason).toMatch(/not placed/);
      const r = await resumed(h, v.id);
      expect(r.state).toBe('open');
      expect(r.legs.map((l) => [l.state, l.open])).toEqual([
        ['sent', -65],
        ['sent', 65],
        ['sent', -65],
        ['sent', 65],
      ]);
      expect(await journalled(h, 'placeorder', legs[3]!.symbol)).toHaveLength(2);
      expect((await paperOrders(h)).filter((o) => o.symbol === legs[3]!.symbol)).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });

  it('adopts the order the book shows for a lost answer; resume sends only the rest', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const legs = ironCondor(niftyChain(paper));
      // The second send reaches the gateway; its answer never comes back.
      paper.proxy.enqueue([{ kind: 'pass' }, { kind: 'drop' }], PLACE);
      const v = await sendStrategy(h, { name: 'Found', product: 'MIS', legs });
      expect(v.state).toBe('partial');
      const adopted = await waitStrategy(h, (s) =>
        expect(s.legs[3]).toMatchObject({ state: 'sent', open: 65 }),
      );
      const [order] = (await paperOrders(h)).filter((o) => o.symbol === legs[3]!.symbol);
      expect(adopted.legs[3]!.orderids).toEqual([order!.orderid]);
      expect(adopted.state).toBe('partial');

      const r = await resumed(h, v.id);
      expect(r.state).toBe('open');
      // The lost leg went once; the SELL legs went after it.
      expect(await journalled(h, 'placeorder', legs[3]!.symbol)).toHaveLength(1);
      expect((await paperOrders(h)).map((o) => [o.symbol, o.action])).toEqual(
        [1, 3, 0, 2].map((i) => [legs[i]!.symbol, legs[i]!.action]),
      );
      expect(Object.keys(await openPositions(h))).toHaveLength(4);
    } finally {
      await h.stop();
    }
  });
});
