// Brackets across restarts, against the real paper gateway: a core stopped between the entry's fill
// and its stop's placement places the legs on its next start, once; a place whose answer was lost
// when the core went down is adopted from the book, never sent again; both legs filling while no
// core runs is told at once as an overshoot and flattened only when the trader asks.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderSnapshot } from '../../../src-main/contract/index.js';
import { fakeKeytar } from '../../support/secret-fakes.js';
import { bracketsOf, marketBuy, move, ordersOf } from '../../support/bracket-core.js';
import { LIMITS, restingBuy, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data dir and keychain kept across the cores of one test (one account at the gateway). */
function account() {
  const dataDir = mkdtempSync(join(tmpdir(), 'brackets-'));
  dirs.push(dataDir);
  const keychain = fakeKeytar();
  return { start: () => startCore(paper, { dataDir, keychain }), dataDir };
}

const SPEC = { stop: { by: 'points', value: '20' }, target: { by: 'points', value: '30' } } as const;

async function protect(h: Harness, orderid: string, symbol: string) {
  const r = await h.core.router.invoke('orders.protect', {
    orderid,
    symbol,
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick: 0.05,
    spec: SPEC,
  });
  expect(r).toEqual({ ok: true, value: { orderid } });
}

const legs = (rows: OrderSnapshot[]) => ({
  stops: rows.filter((o) => o.pricetype === 'SL-M'),
  targets: rows.filter((o) => o.pricetype === 'LIMIT' && o.action === 'SELL'),
});

describe('brackets across restarts', () => {
  it('places the legs once on the next start when the entry filled while no core ran', async () => {
    const a = account();
    const h1 = await a.start();
    let entry: string;
    let limit: number;
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      ({ orderid: entry, limit } = await restingBuy(paper, h1, 'SBIN', 4));
      await protect(h1, entry, 'SBIN');
      expect((await bracketsOf(h1)).map((b) => [b.entry, b.state])).toEqual([[entry, 'waiting']]);
    } finally {
      await h1.stop();
    }
    move(paper, 'SBIN', limit - 0.5);
    const h2 = await a.start();
    try {
      await vi.waitFor(async () => {
        const { stops, targets } = legs(await ordersOf(h2, 'SBIN'));
        expect(stops.map((o) => [o.quantity, o.status])).toEqual([[4, 'trigger pending']]);
        expect(targets.map((o) => [o.quantity, o.status])).toEqual([[4, 'open']]);
      });
      for (let n = 0; n < 3; n++) await h2.core.pollNow();
      const { stops, targets } = legs(await ordersOf(h2, 'SBIN'));
      expect([stops.length, targets.length]).toEqual([1, 1]);
      const [b] = await bracketsOf(h2);
      expect(b).toMatchObject({ entry, state: 'protected', open: 4, entryFilled: 4 });
      expect(b!.stop).toMatchObject({ state: 'working', quantity: 4, orderid: stops[0]!.orderid });
    } finally {
      await h2.stop();
    }
  });

  it('adopts a stop whose answer was lost as the core went down, and never sends it again', async () => {
    const a = account();
    const h1 = await a.start();
    let entry: string;
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      entry = await marketBuy(h1, 'ITC', 6);
      await h1.core.pollNow();
      // Both legs reach the gateway; neither answer comes back.
      paper.proxy.enqueue([{ kind: 'drop' }, { kind: 'drop' }], '/api/v1/placeorder');
      await protect(h1, entry, 'ITC');
      expect(paper.proxy.receivedFor('/api/v1/placeorder')).toBeGreaterThanOrEqual(3);
    } finally {
      await h1.stop();
    }
    const sentBefore = paper.proxy.forwardedTo('/api/v1/placeorder');
    const h2 = await a.start();
    try {
      for (let n = 0; n < 8; n++) await h2.core.pollNow();
      const { stops, targets } = legs(await ordersOf(h2, 'ITC'));
      expect([stops.length, targets.length]).toEqual([1, 1]);
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(sentBefore);
      const [b] = await bracketsOf(h2);
      expect(b).toMatchObject({ entry, state: 'protected' });
      expect(b!.stop?.orderid).toBe(stops[0]!.orderid);
      expect(b!.target?.orderid).toBe(targets[0]!.orderid);
    } finally {
      await h2.stop();
    }
  });

  it('tells an overshoot at once after both legs filled while stopped, and flattens only when asked', async () => {
    const a = account();
    const h1 = await a.start();
    let entry: string;
    let fill: number;
    try {
      await h1.core.router.invoke('settings.update', LIMITS);
      entry = await marketBuy(h1, 'RELIANCE', 3);
      await h1.core.pollNow();
      await protect(h1, entry, 'RELIANCE');
      await vi.waitFor(async () => {
        const { stops, targets } = legs(await ordersOf(h1, 'RELIANCE'));
        expect([stops.length, targets.length]).toEqual([1, 1]);
      });
      fill = (await ordersOf(h1, 'RELIANCE')).find((o) => o.orderid === entry)!.averagePrice;
    } finally {
      await h1.stop();
    }
    // No core: the target fills, then the price falls through the stop, which fills too.
    move(paper, 'RELIANCE', fill + 31);
    move(paper, 'RELIANCE', fill - 25);
    const h2 = await a.start();
    try {
      await h2.core.pollNow();
      await vi.waitFor(() =>
        expect(h2.notifications.filter((n) => n.title.startsWith('Both legs filled'))).toHaveLength(1),
      );
      expect(h2.notifications.find((n) => n.title.startsWith('Both legs filled'))!.title).toContain('by 3');
      const [b] = await bracketsOf(h2);
      expect(b).toMatchObject({ entry, state: 'overshoot', open: -3 });
      // Offered, never sent by itself.
      const before = (await ordersOf(h2, 'RELIANCE')).length;
      for (let n = 0; n < 3; n++) await h2.core.pollNow();
      expect((await ordersOf(h2, 'RELIANCE')).length).toBe(before);

      const r = await h2.core.router.invoke('protection.flatten', { entry });
      expect(r).toMatchObject({ ok: true, value: { action: 'BUY', quantity: 3 } });
      const again = await h2.core.router.invoke('protection.flatten', { entry });
      expect(again.ok).toBe(false);
      const pos = await h2.core.router.invoke('books.positions');
      if (!pos.ok) throw new Error(JSON.stringify(pos.error));
      expect(pos.value.positions.find((p) => p.symbol === 'RELIANCE')?.quantity ?? 0).toBe(0);
      expect((await ordersOf(h2, 'RELIANCE')).length).toBe(before + 1);
    } finally {
      await h2.stop();
    }
  });

  it('keeps a damaged brackets file aside and says so, and starts', async () => {
    const a = account();
    const h1 = await a.start();
    await h1.stop();
    // A file cut short, as a full disk or a hand edit leaves it.
    mkdirSync(join(a.dataDir, 'brackets'), { recursive: true });
    writeFileSync(join(a.dataDir, 'brackets', 'paper.json'), '{"version":1,"brackets":[{"entry":');
    const h2 = await a.start();
    try {
      await h2.core.pollNow();
      expect(h2.notifications.some((n) => /saved brackets could not be read/.test(n.body))).toBe(true);
      expect(readdirSync(join(a.dataDir, 'brackets')).some((f) => f.startsWith('paper.json.damaged-'))).toBe(
        true,
      );
      expect(await bracketsOf(h2)).toEqual([]);
    } finally {
      await h2.stop();
    }
  });
});
