// A protection that rests at the gateway as one GTT OCO, against the real paper gateway: placed for
// the entry's fill, fired by the price with no core running (it holds with OrderDesk closed), and
// refused with words where a GTT cannot hold it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GttRecord } from '../../../src-main/contract/index.js';
import { bracketsOf, move } from '../../support/bracket-core.js';
import { fakeKeytar } from '../../support/secret-fakes.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SPEC = { stop: { by: 'points', value: '20' }, target: { by: 'points', value: '30' } } as const;

async function entry(h: Harness, symbol: string, quantity: number, product = 'CNC'): Promise<string> {
  const r = await h.core.router.invoke('orders.place', {
    symbol,
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product: product as 'CNC',
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  await h.core.pollNow();
  return r.value.orderid;
}

const protect = (h: Harness, orderid: string, symbol: string, product = 'CNC', action = 'BUY') =>
  h.core.router.invoke('orders.protect', {
    orderid,
    symbol,
    exchange: 'NSE',
    product: product as 'CNC',
    action: action as 'BUY',
    tick: 0.05,
    kind: 'gtt',
    spec: SPEC,
  });

async function gtts(h: Harness, symbol: string): Promise<GttRecord[]> {
  const r = await h.core.router.invoke('gtt.book', { status: 'all' });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.gtts.filter((g) => g.symbol === symbol);
}

async function position(h: Harness, symbol: string): Promise<number> {
  const r = await h.core.router.invoke('books.positions');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.positions.find((p) => p.symbol === symbol && p.product === 'CNC')?.quantity ?? 0;
}

describe('a protection resting as a GTT OCO', () => {
  it('rests one OCO for the fill and holds with no core running: the stop fires, the position closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gtt-bracket-'));
    dirs.push(dataDir);
    const keychain = fakeKeytar();
    const h1 = await startCore(paper, { dataDir, keychain });
    let id: string;
    let fill: number;
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      id = await entry(h1, 'INFY', 5);
      expect(await protect(h1, id, 'INFY')).toEqual({ ok: true, value: { orderid: id } });
      await vi.waitFor(async () => {
        await h1.core.pollNow();
        expect((await gtts(h1, 'INFY')).filter((g) => g.status === 'active')).toHaveLength(1);
      });
      const [g] = await gtts(h1, 'INFY');
      const r = await h1.core.router.invoke('books.orders');
      if (!r.ok) throw new Error('no book');
      fill = r.value.orders.find((o) => o.orderid === id)!.averagePrice;
      expect(g!.trigger_prices).toEqual([fill - 20, fill + 30]);
      expect(g!.legs.map((l) => [l.action, l.quantity])).toEqual([
        ['SELL', 5],
        ['SELL', 5],
      ]);
      const [b] = await bracketsOf(h1);
      expect(b).toMatchObject({ entry: id, kind: 'gtt', state: 'protected', open: 5 });
      expect(b!.stop).toMatchObject({ state: 'working', price: fill - 20, quantity: 5 });
    } finally {
      await h1.stop();
    }
    // OrderDesk closed: the price falls through the stop and the gateway fires the GTT by itself.
    move(paper, 'INFY', fill - 21);
    move(paper, 'INFY', fill - 21);
    const h2 = await startCore(paper, { dataDir, keychain });
    try {
      await vi.waitFor(async () => {
        await h2.core.pollNow();
        expect(await position(h2, 'INFY')).toBe(0);
      });
      expect((await gtts(h2, 'INFY')).map((g) => g.status)).toEqual(['triggered']);
      await vi.waitFor(async () => {
        await h2.core.pollNow();
        expect(await bracketsOf(h2)).toEqual([]);
      });
    } finally {
      await h2.stop();
    }
  });

  it('refuses a GTT protection for an intraday or a short entry, with words', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const id = await entry(h, 'TCS', 2, 'MIS');
      const mis = await protect(h, id, 'TCS', 'MIS');
      expect(mis.ok).toBe(false);
      if (!mis.ok) expect(mis.error.message).toMatch(/CNC or NRML/);
      const short = await protect(h, id, 'TCS', 'CNC', 'SELL');
      expect(short.ok).toBe(false);
      if (!short.ok) expect(short.error.message).toMatch(/closes a long/);
      expect(await gtts(h, 'TCS')).toEqual([]);
    } finally {
      await h.stop();
    }
  });
});
