// Profiles against the real paper gateway: two accounts (the embedded paper profile and a gateway
// profile with a key of its own), switched back and forth. A switch is instant, even when the old
// gateway hangs, and nothing of one profile (books, positions, events, notifications, journal rows)
// shows up while the other is active.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FetchFn } from '../../../src-main/gateway/index.js';
import {
  LIMITS,
  orderEventNames,
  restingBuy,
  startCore,
  until,
  usePaper,
  type Harness,
} from '../../support/core-harness.js';

const paper = usePaper();

/** The profile ids named by recorded events (alerts carry none: the core raises them for the active one). */
function profilesOf(list: { payload: unknown }[]): string[] {
  const ids = list.map((e) => (e.payload as { profileId?: string }).profileId);
  return [...new Set(ids.filter((id) => id !== undefined))];
}

async function orderIds(h: Harness): Promise<string[]> {
  const r = await h.core.router.invoke('books.orders');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.orders.map((o) => o.orderid);
}

describe('profiles', () => {
  it('never mixes two profiles’ books, positions, events, notifications or journal rows', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      // Profile A (paper): a resting order and a filled one (a position).
      const a = await restingBuy(paper, h, 'SBIN', 4);
      const aFilled = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 2,
        product: 'MIS',
      });
      if (!aFilled.ok) throw new Error(JSON.stringify(aFilled.error));
      await h.core.pollNow();
      expect(h.of('orders.accepted').map((e) => e.order.orderid)).toContain(a.orderid);
      const aPositions = await h.core.router.invoke('books.positions');
      expect(aPositions.ok && aPositions.value.positions.map((p) => p.symbol)).toEqual(['TCS']);

      // Profile B: the same gateway under another account (its own key).
      const keyB = `profile-b-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(keyB);
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key: keyB });
      await h.core.router.invoke('settings.update', LIMITS);
      const from = h.events.length;
      const fills = () => h.notifications.filter((n) => n.kind === 'fill').length;
      const fillsOfA = fills(); // A's MARKET order
      const switched = await h.core.router.invoke('profiles.switch', { id: 'broker' });
      expect(switched.ok && switched.value.activeProfileId).toBe('broker');
      // At once, without waiting for a poll: B's (empty) books, none of A's.
      expect(await orderIds(h)).toEqual([]);
      const bPositions = await h.core.router.invoke('books.positions');
      expect(bPositions).toEqual({ ok: true, value: { positions: [], totalMtm: 0 } });
      const bFunds = await h.core.router.invoke('books.funds');
      expect(bFunds.ok && Number(bFunds.value.utilisedDebits)).toBe(0);
      expect(await h.core.router.invoke('journal.query', {})).toEqual({ ok: true, value: [] });

      await h.core.pollNow(); // B's first book: its baseline
      const b = await restingBuy(paper, h, 'INFY', 3);
      await h.core.pollNow();
      // A's order fills while B is active: nothing about it now.
      paper.gw.gateway.market.setPrice(a.i, paper.onTick(a.i, a.limit * 0.99));
      paper.gw.clock.advance(1000);
      paper.engine().tick();
      await h.core.pollNow();
      await h.core.pollNow();
      const whileB = h.events.slice(from);
      expect(profilesOf(whileB)).toEqual(['broker']);
      expect(JSON.stringify(whileB)).not.toContain(a.orderid);
      expect(orderEventNames(whileB)).toEqual(['orders.accepted']);
      expect(fills()).toBe(fillsOfA);
      expect(await orderIds(h)).toEqual([b.orderid]);
      const bJournal = await h.core.router.invoke('journal.query', {});
      expect(bJournal.ok && bJournal.value.map((e) => e.profileId)).toEqual(['broker']);
      const bCsv = await h.core.router.invoke('journal.exportCsv', {});
      if (!bCsv.ok || bCsv.value.kind !== 'saved') throw new Error(JSON.stringify(bCsv));
      expect(bCsv.value.rows).toBe(1);
      expect(readFileSync(bCsv.value.path, 'utf8')).not.toContain(a.orderid);

      // Back to A: its own books again, and the fill made while away reported once.
      const back = h.events.length;
      await h.core.router.invoke('profiles.switch', { id: 'paper' });
      const ids = await orderIds(h);
      expect(ids).toContain(a.orderid);
      expect(ids).not.toContain(b.orderid);
      await h.core.pollNow();
      await h.core.pollNow();
      const afterBack = h.events.slice(back);
      expect(profilesOf(afterBack)).toEqual(['paper']);
      expect(JSON.stringify(afterBack)).not.toContain(b.orderid);
      expect(h.of('orders.filled').filter((e) => e.order.orderid === a.orderid)).toHaveLength(1);
      expect(fills()).toBe(fillsOfA + 1);
      const aJournal = await h.core.router.invoke('journal.query', {});
      expect(aJournal.ok && new Set(aJournal.value.map((e) => e.profileId))).toEqual(new Set(['paper']));
      // Another profile's rows stay reachable by asking for them.
      const asked = await h.core.router.invoke('journal.query', { profileId: 'broker' });
      expect(asked.ok && asked.value).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });

  it('switches at once while the old gateway hangs on a poll', async () => {
    let hang = false;
    let hung = 0;
    const releases: (() => void)[] = [];
    const hosts: string[] = [];
    // The broker profile's gateway (reached as localhost) stops answering its order book on demand.
    const fetchPort: FetchFn = (input, init) => {
      const url = new URL(String(input));
      hosts.push(`${url.hostname} ${url.pathname}`);
      if (hang && url.hostname === 'localhost' && url.pathname === '/api/v1/orderbook') {
        hung += 1;
        return new Promise<Response>((resolve, reject) => {
          releases.push(() => reject(new Error('released')));
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          void resolve;
        });
      }
      return fetch(input, init);
    };
    const h = await startCore(paper, {
      ports: { fetch: fetchPort, gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 } },
    });
    try {
      const keyB = `hang-b-${'fedcba9876543210'.repeat(2)}`;
      paper.gw.gateway.keys.add(keyB);
      const brokerUrl = paper.proxy.url.replace('127.0.0.1', 'localhost');
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: brokerUrl });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key: keyB });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      await h.core.pollNow();
      hang = true;
      const stuck = h.core.pollNow();
      await until(() => hung === 1);

      // The poll in flight would only end at the client's timeout (a ManualClock: never, here).
      const deadline = new Promise<'late'>((r) => setTimeout(() => r('late'), 3_000));
      const switched = await Promise.race([
        h.core.router.invoke('profiles.switch', { id: 'paper' }),
        deadline,
      ]);
      expect(switched).toMatchObject({ ok: true, value: { activeProfileId: 'paper' } });
      expect(h.of('profiles.switched').at(-1)).toMatchObject({ profileId: 'paper' });
      // The next call already goes to the paper gateway (127.0.0.1), not to the hung one.
      const sent = hosts.length;
      const funds = await Promise.race([h.core.router.invoke('books.funds'), deadline]);
      expect(funds).toMatchObject({ ok: true });
      expect(hosts.slice(sent)).toEqual(['127.0.0.1 /api/v1/funds']);
      // And the paper profile's watcher polls while the old poll still hangs.
      expect(await Promise.race([h.core.pollNow().then(() => 'polled'), deadline])).toBe('polled');
      expect(hung).toBe(1);

      for (const release of releases) release();
      await stuck;
    } finally {
      for (const release of releases) release();
      await h.stop();
    }
  });

  it('away and back while the old poll hangs: a fill it finally sees is reported once', async () => {
    let hang = false;
    const held: (() => void)[] = [];
    // The broker's order book answers late on demand: held until the test lets it through.
    const fetchPort: FetchFn = (input, init) => {
      const url = new URL(String(input));
      if (hang && url.hostname === 'localhost' && url.pathname === '/api/v1/orderbook') {
        hang = false;
        return new Promise<Response>((resolve, reject) => {
          held.push(() => fetch(input, init).then(resolve, reject));
        });
      }
      return fetch(input, init);
    };
    const h = await startCore(paper, {
      ports: { fetch: fetchPort, gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 } },
    });
    try {
      const keyB = `late-b-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(keyB);
      const brokerUrl = paper.proxy.url.replace('127.0.0.1', 'localhost');
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: brokerUrl });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key: keyB });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      const { i, limit, orderid } = await restingBuy(paper, h, 'SBIN', 5);
      await h.core.pollNow();
      expect(h.of('orders.accepted').map((e) => e.order.orderid)).toEqual([orderid]);

      hang = true;
      const late = h.core.pollNow();
      await until(() => held.length === 1);
      paper.gw.gateway.market.setPrice(i, paper.onTick(i, limit * 0.99));
      paper.gw.clock.advance(1000);
      paper.engine().tick();
      await h.core.router.invoke('profiles.switch', { id: 'paper' });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      // The new broker watcher sees the fill; then the old poll's answer (with the fill too) lands.
      await h.core.pollNow();
      for (const let_through of held) let_through();
      await late;
      await h.core.pollNow();
      const fills = h.of('orders.filled').filter((e) => e.order.orderid === orderid);
      expect(fills).toHaveLength(1);
      expect(h.notifications.filter((n) => n.kind === 'fill')).toHaveLength(1);
    } finally {
      for (const let_through of held) let_through();
      await h.stop();
    }
  });
  it('an unknown outcome left behind by a switch is settled when the profile is active again', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow();
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      const before = paper.proxy.forwardedTo('/api/v1/placeorder');
      paper.proxy.enqueue({ kind: 'drop', forward: true }, '/api/v1/placeorder');
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'WIPRO',
        action: 'BUY',
        quantity: 4,
        product: 'MIS',
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toEqual([]);
      await h.core.router.invoke('profiles.switch', { id: 'paper' });
      await h.core.pollNow();
      await h.core.pollNow();
      expect(h.of('orders.reconciled')).toMatchObject([
        { profileId: 'paper', found: true, operation: 'placeorder', orderid: expect.stringMatching(/^\d+$/) },
      ]);
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(before + 1);
    } finally {
      await h.stop();
    }
  });
});
