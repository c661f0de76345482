// session.snapshot and the event seq over a real core and the paper gateway: what a freshly loaded
// window gets right after start and after a poll, and that the events it then applies continue from
// the snapshot's seq with no gap.
import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../../../src-main/contract/index.js';
import { LIMITS, restingBuy, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

async function snapshot(h: Harness): Promise<SessionSnapshot> {
  const r = await h.core.router.invoke('session.snapshot');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** The seq of every event the harness recorded, in the order it heard them. */
const seqs = (h: Harness) => h.events.map((e) => (e.payload as { seq?: number }).seq);

/** Every key the core's keychain holds (the paper profile's own among them). */
const keysOf = (h: Harness) => [...h.keychain.items.values()];

describe('session.snapshot', () => {
  it('right after start: the paper profile, connecting, no books yet, the last seq', async () => {
    const h = await startCore(paper);
    try {
      const s = await snapshot(h);
      expect(s).toMatchObject({
        profile: { id: 'paper', kind: 'paper', active: true, hasKey: true },
        mode: 'paper',
        connection: 'connecting',
        apiKey: { profileId: 'paper', present: true },
        alerts: { paused: false, sticky: [] },
        orders: null,
        trades: null,
        positions: null,
        funds: null,
      });
      expect(s.profile.baseUrl).toBe(paper.proxy.url);
      expect(h.events.length).toBeGreaterThan(0); // profiles.switched at least
      expect(s.seq).toBe(h.events.length);
      expect(s.seq).toBe(seqs(h).at(-1));
      expect(keysOf(h).length).toBeGreaterThan(0);
      for (const key of keysOf(h)) expect(JSON.stringify(s)).not.toContain(key);
    } finally {
      await h.stop();
    }
  });

  it('after a poll: connected, the order placed is in the orders view, and seq is the last event', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const { orderid } = await restingBuy(paper, h, 'SBIN', 3);
      const bought = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 2,
        product: 'MIS',
      });
      expect(bought.ok).toBe(true);
      await h.core.pollNow();
      const s = await snapshot(h);
      expect(s.mode).toBe('paper');
      expect(s.connection).toBe('connected');
      expect(s.orders?.orders.find((o) => o.orderid === orderid)).toMatchObject({
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 3,
        status: 'open',
      });
      expect(s.orders?.statistics.totalOpenOrders).toBe(1);
      expect(s.positions?.positions.map((p) => p.symbol)).toEqual(['TCS']);
      expect(s.trades?.trades.map((t) => t.symbol)).toEqual(['TCS']);
      expect(Number(s.funds?.utilisedDebits)).toBeGreaterThan(0);
      // The views are the ones the books.* events carried last.
      const lastOrders = h.of('books.orders').at(-1);
      expect(lastOrders?.view).toEqual(s.orders);
      expect(h.of('books.positions').at(-1)?.view).toEqual(s.positions);
      // Every event numbered 1…n in the order heard, and the snapshot knows n.
      expect(seqs(h)).toEqual(h.events.map((_e, i) => i + 1));
      expect(s.seq).toBe(h.events.length);
      for (const key of keysOf(h)) expect(JSON.stringify(s)).not.toContain(key);
    } finally {
      await h.stop();
    }
  });

  it('a window that loads later applies exactly the events after the snapshot', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const s = await snapshot(h);
      const late: number[] = [];
      const off = h.core.events.onAny((_name, payload) => late.push(payload.seq));
      const { orderid } = await restingBuy(paper, h, 'INFY', 1);
      await h.core.pollNow();
      off();
      expect(late.length).toBeGreaterThan(0);
      expect(late).toEqual(late.map((_n, i) => s.seq + 1 + i));
      const after = await snapshot(h);
      expect(after.seq).toBe(s.seq + late.length);
      expect(after.orders?.orders.map((o) => o.orderid)).toContain(orderid);
    } finally {
      await h.stop();
    }
  });

  it('a gateway profile is live, with its own key status and nothing of the paper books', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow();
      const key = `snapshot-live-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(key);
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      const s = await snapshot(h);
      expect(s).toMatchObject({
        profile: { id: 'broker', kind: 'gateway', hasKey: true },
        mode: 'live',
        connection: 'connecting',
        apiKey: { profileId: 'broker', present: true },
        orders: null,
        funds: null,
      });
      expect(JSON.stringify(s)).not.toContain(key);
      await h.core.pollNow();
      expect((await snapshot(h)).connection).toBe('connected');
    } finally {
      await h.stop();
    }
  });
});
