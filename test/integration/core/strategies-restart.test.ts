// Strategies across a crash, against the real paper gateway: a leg saved `sending` when OrderDesk
// stopped reads `unknown` on the next start and is never sent again by itself. The book settles it:
// an order of its shape and the strategy's tag is adopted (resume then sends only the rest); no such
// order for a while, and it did not go (resume sends it, once).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoredStrategy } from '../../../src-main/contract/index.js';
import { CORE_T0, LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';
import { fakeKeytar } from '../../support/secret-fakes.js';
import { leg, niftyChain, paperOrders, strategiesOf } from '../../support/strategy-core.js';

const paper = usePaper();
const PLACE = '/api/v1/placeorder';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const stored = (l: ReturnType<typeof leg>, state: 'sending' | 'waiting') => ({
  symbol: l.symbol,
  exchange: l.exchange,
  action: l.action as 'BUY' | 'SELL',
  quantity: l.quantity,
  lotSize: l.lotSize,
  pricetype: 'MARKET' as const,
  price: 0,
  state,
  orderids: [],
});

async function resumed(h: Harness, id: string) {
  const r = await h.core.router.invoke('strategies.resume', { id });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

describe('strategies after a crash', () => {
  it('settles a leg that was being sent from the book: adopted if it went, else sent once on resume', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'strategies-'));
    dirs.push(dataDir);
    const keychain = fakeKeytar();
    const c = niftyChain(paper);
    const went = leg(c.at(-4, 'PE'), 'BUY');
    const rest = leg(c.at(-2, 'PE'), 'SELL');
    const lost = leg(c.at(4, 'CE'), 'BUY');
    // The run that crashed: its first leg reached the gateway (tagged as the core tags it).
    const h1 = await startCore(paper, { dataDir, keychain });
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      const r = await h1.core.router.invoke('orders.place', {
        symbol: went.symbol,
        quantity: went.quantity,
        action: 'BUY',
        exchange: 'NFO',
        pricetype: 'MARKET',
        product: 'MIS',
        strategy: 'OrderDesk Went',
      });
      expect(r).toMatchObject({ ok: true });
    } finally {
      await h1.stop();
    }
    const strategy = (id: string, name: string, legs: StoredStrategy['legs']): StoredStrategy => ({
      id,
      name,
      product: 'MIS',
      underlying: 'NIFTY',
      createdAt: CORE_T0,
      state: 'sending',
      legs,
    });
    mkdirSync(join(dataDir, 'strategies'), { recursive: true });
    writeFileSync(
      join(dataDir, 'strategies', 'paper.json'),
      JSON.stringify({
        version: 1,
        strategies: [
          strategy('went', 'Went', [stored(went, 'sending'), stored(rest, 'waiting')]),
          strategy('lost', 'Lost', [stored(lost, 'sending')]),
        ],
      }),
    );
    const places = paper.proxy.forwardedTo(PLACE);

    const h2 = await startCore(paper, { dataDir, keychain });
    try {
      const first = await strategiesOf(h2);
      expect(first.map((s) => [s.id, s.state, s.legs[0]!.state])).toEqual([
        ['went', 'partial', expect.stringMatching(/unknown|sent/)],
        ['lost', 'partial', 'unknown'],
      ]);
      const blocked = await h2.core.router.invoke('strategies.resume', { id: 'lost' });
      expect(blocked).toMatchObject({ ok: false, error: { kind: 'conflict' } });

      let views = first;
      await vi.waitFor(
        async () => {
          await h2.clock.advance(1000);
          await h2.core.pollNow();
          views = await strategiesOf(h2);
          expect(views.map((s) => s.legs[0]!.state)).toEqual(['sent', 'refused']);
        },
        { timeout: 10_000, interval: 20 },
      );
      const [order] = (await paperOrders(h2)).filter((o) => o.symbol === went.symbol);
      expect(views[0]!.legs[0]).toMatchObject({ orderids: [order!.orderid], open: 65 });
      expect(views[1]!.legs[0]!.reason).toMatch(/did not go/);
      // Nothing was sent by the restart itself.
      expect(paper.proxy.forwardedTo(PLACE)).toBe(places);

      const a = await resumed(h2, 'went');
      expect(a.state).toBe('open');
      expect(a.legs.map((l) => [l.symbol, l.state, l.open])).toEqual([
        [went.symbol, 'sent', 65],
        [rest.symbol, 'sent', -65],
      ]);
      const b = await resumed(h2, 'lost');
      expect(b).toMatchObject({ state: 'open', legs: [{ state: 'sent', open: 65 }] });
      // Two sends in all: the rest of the first, the lost leg of the second; the adopted leg none.
      expect(paper.proxy.forwardedTo(PLACE)).toBe(places + 2);
      expect((await paperOrders(h2)).map((o) => o.symbol)).toEqual([went.symbol, rest.symbol, lost.symbol]);
    } finally {
      await h2.stop();
    }
  });

  it('adopts a roll’s close that went just before the crash; resume sends the new leg', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'strategies-'));
    dirs.push(dataDir);
    const keychain = fakeKeytar();
    const c = niftyChain(paper);
    const old = leg(c.at(2, 'CE'), 'SELL');
    const next = leg(c.at(3, 'CE'), 'SELL');
    const ids: string[] = [];
    // The run that crashed: the leg's entry, then its roll's buy-back, both at the gateway.
    const h1 = await startCore(paper, { dataDir, keychain });
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      for (const action of ['SELL', 'BUY'] as const) {
        const r = await h1.core.router.invoke('orders.place', {
          symbol: old.symbol,
          quantity: 65,
          action,
          exchange: 'NFO',
          pricetype: 'MARKET',
          product: 'MIS',
          strategy: 'OrderDesk Rolled',
          confirmDuplicate: true,
        });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        ids.push(r.value.orderid);
      }
    } finally {
      await h1.stop();
    }
    mkdirSync(join(dataDir, 'strategies'), { recursive: true });
    const rolled: StoredStrategy = {
      id: 'rolled',
      name: 'Rolled',
      product: 'MIS',
      underlying: 'NIFTY',
      createdAt: CORE_T0,
      state: 'open',
      legs: [
        { ...stored(old, 'waiting'), state: 'sent', orderids: [ids[0]!], rolled: true, closing: -65 },
        stored(next, 'waiting'),
      ],
    };
    writeFileSync(
      join(dataDir, 'strategies', 'paper.json'),
      JSON.stringify({ version: 1, strategies: [rolled] }),
    );
    const places = paper.proxy.forwardedTo(PLACE);

    const h2 = await startCore(paper, { dataDir, keychain });
    try {
      await vi.waitFor(
        async () => {
          await h2.clock.advance(1000);
          await h2.core.pollNow();
          const [s] = await strategiesOf(h2);
          expect(s!.legs[0]).toMatchObject({ state: 'closed', open: 0, orderids: ids });
          expect(s!.state).toBe('partial');
        },
        { timeout: 10_000, interval: 20 },
      );
      const r = await resumed(h2, 'rolled');
      expect(r.state).toBe('open');
      expect(r.legs.map((l) => [l.symbol, l.state, l.open])).toEqual([
        [old.symbol, 'closed', 0],
        [next.symbol, 'sent', -65],
      ]);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(places + 1);
    } finally {
      await h2.stop();
    }
  });

  it('adopts an exit basket sent just before the crash from the book, never sending it again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'strategies-'));
    dirs.push(dataDir);
    const keychain = fakeKeytar();
    const short = leg(niftyChain(paper).at(1, 'CE'), 'SELL');
    const ids: string[] = [];
    // The run that crashed: the leg's entry, then the exit basket's row, both at the gateway.
    const h1 = await startCore(paper, { dataDir, keychain });
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      const entry = await h1.core.router.invoke('orders.place', {
        symbol: short.symbol,
        quantity: 65,
        action: 'SELL',
        exchange: 'NFO',
        pricetype: 'MARKET',
        product: 'MIS',
        strategy: 'OrderDesk Exited',
      });
      if (!entry.ok) throw new Error(JSON.stringify(entry.error));
      ids.push(entry.value.orderid);
      const exit = await h1.core.router.invoke('orders.basket', {
        orders: [
          {
            symbol: short.symbol,
            quantity: 65,
            action: 'BUY',
            exchange: 'NFO',
            pricetype: 'MARKET',
            product: 'MIS',
          },
        ],
        strategy: 'OrderDesk Exited',
      });
      if (!exit.ok) throw new Error(JSON.stringify(exit.error));
      ids.push(exit.value.results[0]!.orderid!);
    } finally {
      await h1.stop();
    }
    mkdirSync(join(dataDir, 'strategies'), { recursive: true });
    const exiting: StoredStrategy = {
      id: 'exited',
      name: 'Exited',
      product: 'MIS',
      underlying: 'NIFTY',
      createdAt: CORE_T0,
      state: 'exiting',
      legs: [{ ...stored(short, 'waiting'), state: 'sent', orderids: [ids[0]!] }],
      exit: { why: 'trader', at: CORE_T0, orderids: [], refused: [] },
    };
    writeFileSync(
      join(dataDir, 'strategies', 'paper.json'),
      JSON.stringify({ version: 1, strategies: [exiting] }),
    );
    const baskets = paper.proxy.forwardedTo('/api/v1/basketorder');

    const h2 = await startCore(paper, { dataDir, keychain });
    try {
      await vi.waitFor(
        async () => {
          await h2.clock.advance(1000);
          await h2.core.pollNow();
          const [s] = await strategiesOf(h2);
          expect(s).toMatchObject({ state: 'closed', exit: { orderids: [ids[1]] } });
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(paper.proxy.forwardedTo('/api/v1/basketorder')).toBe(baskets);
      expect((await paperOrders(h2)).map((o) => o.orderid)).toEqual(ids);
    } finally {
      await h2.stop();
    }
  });
});
