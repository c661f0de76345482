// A strategy's combined stop against the real paper gateway: the paper market moved until the
// strategy's P&L (from its legs' trades, at the last prices) crosses −stop; the core exits every
// leg as ONE basket, once, tells it in a sticky notification and reads the strategy closed. A core
// restarted while the exit is `exiting` (its basket's answer lost) never sends the basket again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StrategyView } from '../../../src-main/contract/index.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';
import { fakeKeytar } from '../../support/secret-fakes.js';
import {
  leg,
  niftyChain,
  openPositions,
  paperOrders,
  sendStrategy,
  setOption,
  strategiesOf,
} from '../../support/strategy-core.js';

const paper = usePaper();
const BASKET = '/api/v1/basketorder';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Moves the core's clock (its market polling) and reads the books until `check` holds. */
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

/** A bull call spread with a ₹500 stop, sent; its BUY leg's contract. */
async function spread(h: Harness) {
  const c = niftyChain(paper);
  const long = c.at(0, 'CE');
  const short = c.at(2, 'CE');
  // Both contracts where the day starts, whatever an earlier test moved them to.
  setOption(paper, long, 145.6);
  setOption(paper, short, 99.75);
  const v = await sendStrategy(h, {
    name: 'Bull call',
    product: 'MIS',
    legs: [leg(short, 'SELL'), leg(long, 'BUY')],
    stop: 500,
  });
  expect(v.state).toBe('open');
  return { v, long, short };
}

describe('the combined stop', () => {
  it('exits every leg as one basket once the P&L crosses −stop, and reads the strategy closed', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const { v, long, short } = await spread(h);
      const baskets = paper.proxy.forwardedTo(BASKET);
      // ₹10 under the fill: about −₹650 on 65 units, past the ₹500 stop.
      setOption(paper, long, Number(v.legs[1]!.averagePrice) - 10);
      const done = await waitStrategy(h, (s) => expect(s.state).toBe('closed'));
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
      expect(done.exit).toMatchObject({ why: 'stop', refused: [] });
      expect(Number(done.exit!.pnl)).toBeLessThanOrEqual(-500);
      expect(done.exit!.orderids).toHaveLength(2);
      expect(done.legs.map((l) => l.open)).toEqual([0, 0]);
      // Realised is the whole P&L now, exact: Σ (sell − buy) × units of each leg, in paise.
      const orders = await paperOrders(h);
      const cash = orders.reduce(
        (n, o) => n + (o.action === 'SELL' ? 1 : -1) * Math.round(o.averagePrice * 100) * o.quantity,
        0,
      );
      expect(Math.round(Number(done.realised) * 100)).toBe(cash);
      expect(done.pnl).toBe(done.realised);
      expect(await openPositions(h)).toEqual({});
      expect(orders.filter((o) => o.symbol === short.symbol).map((o) => o.action)).toEqual(['SELL', 'BUY']);
      const told = h.notifications.filter((n) => n.title.startsWith('Bull call: stop reached'));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ kind: 'warning', sticky: true });
      // Further prices and books change nothing: the stop fired once.
      setOption(paper, long, Number(v.legs[1]!.averagePrice) - 30);
      for (let n = 0; n < 3; n++) {
        await h.clock.advance(1000);
        await h.core.pollNow();
      }
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
      expect((await paperOrders(h)).length).toBe(4);
    } finally {
      await h.stop();
    }
  });

  it('takes the target set later; a refused exit is exitFailed, told, and exits again when asked', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const { v, long } = await spread(h);
      const set = await h.core.router.invoke('strategies.update', { id: v.id, stop: null, target: 300 });
      expect(set).toMatchObject({ ok: true, value: { state: 'open', target: 300 } });
      if (set.ok) expect(set.value.stop).toBeUndefined();
      // A limit the exit's rows break: the basket is refused as a whole.
      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, maxQuantityPerOrder: 10 } });
      const baskets = paper.proxy.forwardedTo(BASKET);
      setOption(paper, long, Number(v.legs[1]!.averagePrice) + 10);
      const failed = await waitStrategy(h, (s) => expect(s.state).toBe('exitFailed'));
      expect(failed.exit).toMatchObject({ why: 'target', orderids: [] });
      expect(Number(failed.exit!.pnl)).toBeGreaterThanOrEqual(300);
      expect(failed.exit!.refused.join()).toMatch(/limit/i);
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets);
      expect(h.notifications.filter((n) => n.title === 'Bull call: an exit was refused')).toMatchObject([
        { kind: 'warning', sticky: true },
      ]);
      expect(h.notifications.filter((n) => n.title.startsWith('Bull call: target reached'))).toHaveLength(1);

      await h.core.router.invoke('settings.update', LIMITS);
      const out = await h.core.router.invoke('strategies.exit', { id: v.id });
      if (!out.ok) throw new Error(JSON.stringify(out.error));
      expect(out.value).toMatchObject({ state: 'closed', exit: { why: 'trader', refused: [] } });
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
      expect(await openPositions(h)).toEqual({});
      expect(Number(out.value.realised)).toBeGreaterThan(0);
      // Nothing open, no working order: it may be forgotten.
      expect(await h.core.router.invoke('strategies.remove', { id: v.id })).toEqual({
        ok: true,
        value: { id: v.id },
      });
      expect(await strategiesOf(h)).toEqual([]);
    } finally {
      await h.stop();
    }
  });

  it('never sends the basket again after a restart while exiting (its answer lost)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'strategies-'));
    dirs.push(dataDir);
    const keychain = fakeKeytar();
    const h1 = await startCore(paper, { dataDir, keychain });
    let id: string;
    const baskets = paper.proxy.forwardedTo(BASKET);
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      const { v, long } = await spread(h1);
      id = v.id;
      // The basket reaches the gateway; its answer never comes back, and the order book cannot be
      // read until this core stops (it cannot learn the basket's fate: it stops while exiting).
      paper.proxy.enqueue({ kind: 'drop' }, BASKET);
      paper.proxy.decide((path) => (path === '/api/v1/orderbook' ? { kind: 'error500' } : { kind: 'pass' }));
      setOption(paper, long, Number(v.legs[1]!.averagePrice) - 10);
      const s = await waitStrategy(h1, (x) => expect(x.exit?.note).toMatch(/answer was lost \(/));
      expect(s).toMatchObject({ state: 'exiting', exit: { why: 'stop', orderids: [] } });
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
    } finally {
      await h1.stop();
      paper.proxy.decide(undefined);
    }
    const h2 = await startCore(paper, { dataDir, keychain });
    try {
      const [s] = await strategiesOf(h2);
      expect(s).toMatchObject({ id, exit: { why: 'stop' } });
      expect(s!.state).not.toBe('open');
      // Its orders adopted from the book (the journal settled the lost answer): closed, never resent.
      const closed = await waitStrategy(h2, (x) => expect(x.state).toBe('closed'));
      expect(closed.exit!.orderids).toHaveLength(2);
      expect(closed.exit!.note).toMatch(/showed it placed/);
      for (let n = 0; n < 5; n++) {
        await h2.clock.advance(1000);
        await h2.core.pollNow();
      }
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
      expect(await openPositions(h2)).toEqual({});
      expect((await paperOrders(h2)).length).toBe(4);
      expect(await h2.core.router.invoke('strategies.exit', { id: id! })).toMatchObject({
        ok: false,
        error: { kind: 'conflict' },
      });
      expect(paper.proxy.forwardedTo(BASKET)).toBe(baskets + 1);
    } finally {
      await h2.stop();
    }
  });
});
