// A trade book that lags the order book (the broker's trades not yet listed, or their read failing)
// must never make a strategy read flat: its legs' orders filled at the gateway while the trades show
// nothing, an exit sends nothing and says why, the strategy is not closed and never forgotten; once
// the trades are read, the same exit goes as one basket and the positions read back flat.
import { expect, it } from 'vitest';
import { LIMITS, startCore, usePaper } from '../../support/core-harness.js';
import {
  leg,
  niftyChain,
  openPositions,
  sendStrategy,
  setOption,
  strategiesOf,
} from '../../support/strategy-core.js';

const paper = usePaper();
const BASKET = '/api/v1/basketorder';
const TRADES = '/api/v1/tradebook';

it('an exit while the trades lag the filled legs sends nothing and leaves the strategy open', async () => {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await h.core.pollNow();
    const c = niftyChain(paper);
    const long = c.at(0, 'CE');
    const short = c.at(2, 'CE');
    setOption(paper, long, 145.6);
    setOption(paper, short, 99.75);
    // From here the trade book cannot be read: the core keeps the trades of before the send.
    paper.proxy.decide((path) => (path === TRADES ? { kind: 'error500' } : { kind: 'pass' }));
    const v = await sendStrategy(h, {
      name: 'Lagging',
      product: 'MIS',
      legs: [leg(short, 'SELL'), leg(long, 'BUY')],
    });
    expect(v.legs.map((l) => l.state)).toEqual(['sent', 'sent']);
    const positions = await openPositions(h);
    expect(Object.keys(positions)).toHaveLength(2);

    const baskets = paper.proxy.forwardedTo(BASKET);
    const exit = await h.core.router.invoke('strategies.exit', { id: v.id });
    expect(exit).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    if (!exit.ok) expect(exit.error.message).toMatch(/trade book/i);
    expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets);
    const [still] = await strategiesOf(h);
    expect(still!.state).toBe('open');
    expect(await h.core.router.invoke('strategies.remove', { id: v.id })).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });

    // The trades read again: the same exit goes, once, and the account reads back flat.
    paper.proxy.decide(undefined);
    const out = await h.core.router.invoke('strategies.exit', { id: v.id });
    if (!out.ok) throw new Error(JSON.stringify(out.error));
    expect(out.value.state).toBe('closed');
    expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
    expect(await openPositions(h)).toEqual({});
  } finally {
    paper.proxy.decide(undefined);
    await h.stop();
  }
});
