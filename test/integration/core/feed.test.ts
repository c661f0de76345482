// The core listening to the paper gateway's WebSocket feed (a real socket through a TCP relay the
// test can cut): fill alerts from order_update at once, exactly once across feed and polls, across a
// feed drop in the middle of a fill and across a core restart; reconnection with re-authentication
// and re-subscription; polling as the fallback; the key never in a URL; the feed closed on a switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCutProxy, type CutProxy } from '../../support/tcp-cut-proxy.js';
import {
  LIMITS,
  orderEventNames,
  restingBuy,
  startCore,
  until,
  usePaper,
  type Harness,
  type HarnessOptions,
  type Paper,
} from '../../support/core-harness.js';

const paper = usePaper();
let relay: CutProxy;

beforeAll(async () => {
  relay = await startCutProxy(Number(new URL(paper.gw.url).port));
});
afterAll(async () => {
  await relay.stop();
});

/** A core whose embedded gateway offers its feed, reached through the relay. */
function startFeedCore(options: HarnessOptions = {}): Promise<Harness> {
  return startCore(paper, {
    ...options,
    ports: {
      startPaperGateway: async ({ apiKey }) => {
        paper.gw.gateway.keys.add(apiKey);
        return {
          url: paper.proxy.url,
          feedUrl: `ws://127.0.0.1:${relay.port}/ws`,
          stop: async () => undefined,
        };
      },
      feedRetryBaseMs: 100,
      ...options.ports,
    },
  });
}

const liveCount = (h: Harness) => h.logger.entries.filter((e) => e.message === 'gateway feed live').length;

/** Waits for the feed to be live for the n-th time (1: the first connection). */
async function feedLive(h: Harness, n = 1): Promise<void> {
  await until(() => liveCount(h) >= n);
  // Its subscribe_orders, sent right after the authentication, has reached the gateway: every
  // authenticated connection there follows order updates.
  await until(() => {
    const s = paper.gw.gateway.feed.stats();
    return s.orderSubscribers === s.authenticated;
  });
}

function fillAt(i: ReturnType<Paper['inst']>, limit: number): void {
  paper.gw.gateway.market.setPrice(i, paper.onTick(i, limit * 0.99));
  paper.gw.clock.advance(1000);
  paper.engine().tick();
}

describe('core feed: order updates', () => {
  it('raises the fill alert from order_update at once, and the polls after it find nothing new', async () => {
    const h = await startFeedCore();
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow(); // baseline
      await feedLive(h);
      const { i, limit, orderid } = await restingBuy(paper, h, 'SBIN', 7);
      await until(() => h.of('orders.accepted').length === 1);
      const polls = h.urls.filter((u) => u.endsWith('/orderbook')).length;
      fillAt(i, limit);
      // No poll: the alert came over the feed.
      await until(() => h.notifications.some((n) => n.kind === 'fill'));
      expect(h.urls.filter((u) => u.endsWith('/orderbook')).length).toBe(polls);
      expect(h.of('orders.filled')[0]).toMatchObject({
        lastFillQuantity: 7,
        order: { orderid, status: 'complete', filledQuantity: 7, symbol: 'SBIN' },
      });
      await h.core.pollNow();
      await h.core.pollNow();
      expect(h.of('orders.filled')).toHaveLength(1);
      expect(h.of('orders.accepted')).toHaveLength(1);
      expect(h.notifications.filter((n) => n.kind === 'fill')).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });

  it('reports once when a poll that was sent before the fill answers after the feed told it', async () => {
    const h = await startFeedCore();
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      await feedLive(h);
      const { i, limit } = await restingBuy(paper, h, 'ITC', 11);
      await until(() => h.of('orders.accepted').length === 1);
      // The next order book read reaches the gateway now (the order still open) and is answered late.
      paper.proxy.enqueue([{ kind: 'delay', ms: 400 }], '/api/v1/orderbook');
      const read = paper.proxy.forwardedTo('/api/v1/orderbook');
      const stale = h.core.pollNow();
      // Counted once the gateway has answered (the order open): the proxy holds that answer 400 ms.
      await until(() => paper.proxy.forwardedTo('/api/v1/orderbook') > read);
      fillAt(i, limit);
      await until(() => h.of('orders.filled').length === 1);
      await stale; // the open row arrives after the fill: not news, not stored
      await h.core.pollNow(); // complete again: already told
      await h.core.pollNow();
      expect(orderEventNames(h.events)).toEqual(['orders.accepted', 'orders.filled', 'positions.changed']);
      expect(h.notifications.filter((n) => n.kind === 'fill')).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });

  it('reports a fill exactly once when the feed drops in the middle of it (partial by feed, rest by poll)', async () => {
    const h = await startFeedCore();
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await h.core.pollNow();
      await feedLive(h);
      const i = paper.inst('NSE', 'HDFCBANK');
      const shown = paper.gw.gateway.market.book(i).asks.reduce((s, l) => s + l.quantity, 0);
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'HDFCBANK',
        action: 'BUY',
        quantity: shown * 3,
        product: 'MIS',
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      await until(() => h.of('orders.partial').length === 1);
      expect(h.of('orders.partial')[0]).toMatchObject({ lastFillQuantity: shown });

      relay.block();
      relay.cut();
      for (let n = 0; n < 20; n++) {
        paper.gw.clock.advance(1000);
        paper.engine().tick();
      }
      // The feed is down: the poll (now at the normal pace) reports the rest.
      await h.core.pollNow();
      expect(h.of('orders.filled')).toHaveLength(1);
      relay.unblock();
      await h.clock.advance(60_000); // reconnect backoff
      await feedLive(h, 2);
      await h.core.pollNow();
      expect(orderEventNames(h.events).filter((n) => n.startsWith('orders.'))).toEqual([
        'orders.accepted',
        'orders.partial',
        'orders.filled',
      ]);
      expect(h.notifications.map((n) => n.kind)).toEqual(['partial', 'fill']);
    } finally {
      await h.stop();
    }
  });

  it('keeps a fill reported over the feed reported across a core restart', async () => {
    const first = await startFeedCore();
    const { dataDir, keychain } = first;
    await first.core.router.invoke('settings.update', LIMITS);
    await first.core.pollNow();
    await feedLive(first);
    const a = await restingBuy(paper, first, 'KOTAKBANK', 5);
    await until(() => first.of('orders.accepted').length === 1);
    fillAt(a.i, a.limit);
    await until(() => first.of('orders.filled').length === 1);
    await first.core.stop(); // no poll saw the fill: only the feed path stored it

    const second = await startFeedCore({ dataDir, keychain });
    try {
      const events = await second.during(() => second.core.pollNow());
      expect(orderEventNames(events).filter((n) => n.startsWith('orders.'))).toEqual([]);
      await feedLive(second);
      const b = await restingBuy(paper, second, 'KOTAKBANK', 6);
      await until(() => second.of('orders.accepted').length === 1);
      fillAt(b.i, b.limit);
      await until(() => second.of('orders.filled').length === 1);
      await second.core.pollNow();
      expect(second.of('orders.filled').map((e) => e.order.orderid)).toEqual([b.orderid]);
    } finally {
      await second.stop();
    }
  });
});

describe('core feed: connection', () => {
  it('authenticates in the first message, never with the key in a URL or a log line', async () => {
    const h = await startFeedCore();
    try {
      await feedLive(h);
      const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
      expect(key).toBeTruthy();
      const upgrade = relay.heads.at(-1) ?? '';
      expect(upgrade.split('\r\n')[0]).toBe('GET /ws HTTP/1.1');
      expect(upgrade).not.toContain(key ?? '');
      expect(JSON.stringify(h.logger.entries)).not.toContain(key ?? '');
      expect(h.urls.some((u) => u.includes(key ?? ''))).toBe(false);
      expect(paper.gw.gateway.feed.stats().authenticated).toBeGreaterThanOrEqual(1);
    } finally {
      await h.stop();
    }
  });

  it('follows market watches over the feed while live, polls while it is down, and re-subscribes after a reconnect', async () => {
    const h = await startFeedCore();
    try {
      await feedLive(h);
      const i = paper.inst('NSE', 'MARUTI');
      const w = await h.core.router.invoke('market.watch', {
        symbols: [{ symbol: 'MARUTI', exchange: 'NSE' }],
        mode: 'quote',
      });
      expect(w.ok, JSON.stringify(w)).toBe(true);
      const quotes = () => h.of('market.quote').filter((q) => q.symbol === 'MARUTI');
      const marketReads = () => h.urls.filter((u) => /\/(multiquotes|quotes|depth)$/.test(u)).length;

      // Live: a price move arrives as a tick with bid and ask, and the core asks nothing.
      const reads = marketReads();
      paper.gw.gateway.market.setPrice(i, paper.onTick(i, paper.ltp(i) * 1.02));
      paper.gw.clock.advance(1000);
      const moved = paper.ltp(i);
      await until(() => quotes().some((q) => q.ltp === moved));
      const tick = quotes().find((q) => q.ltp === moved);
      expect(tick?.bid).toBeGreaterThan(0);
      expect(tick?.ask).toBeGreaterThan(tick?.bid ?? 0);
      await h.clock.advance(5000);
      expect(marketReads()).toBe(reads);

      // Down: polling takes over.
      relay.block();
      relay.cut();
      await until(() => h.logger.entries.some((e) => e.message === 'gateway feed down; polling'));
      await h.clock.advance(3000);
      await until(() => marketReads() > reads);

      // Back: authenticated and subscribed again, ticks flow without polling.
      relay.unblock();
      await h.clock.advance(60_000);
      await feedLive(h, 2);
      paper.gw.gateway.market.setPrice(i, paper.onTick(i, paper.ltp(i) * 0.98));
      paper.gw.clock.advance(1000);
      const again = paper.ltp(i);
      await until(() => quotes().some((q) => q.ltp === again));
    } finally {
      await h.stop();
    }
  });

  it('opens no feed when told not to (a one-shot CLI run): polling only', async () => {
    const accepted = relay.accepted;
    const h = await startFeedCore({ ports: { feeds: false } });
    try {
      await h.core.pollNow();
      // The session decided: it polls, as for a profile that has no feed, and opened no link.
      await until(() =>
        h
          .of('session.gateway')
          .some((v) => v.feed.state === 'polling' && /has no feed/.test(v.feed.reason ?? '')),
      );
      expect(relay.accepted).toBe(accepted);
      expect(liveCount(h)).toBe(0);
    } finally {
      await h.stop();
    }
  });

  it('drops the feed authenticated with a cleared key, and authenticates again with a new one', async () => {
    const h = await startFeedCore();
    try {
      const [oldKey, newKey] = ['c'.repeat(64), 'd'.repeat(64)];
      paper.gw.gateway.keys.add(oldKey);
      paper.gw.gateway.keys.add(newKey);
      const added = await h.core.router.invoke('profiles.add', {
        id: 'own',
        name: 'Own gateway',
        baseUrl: paper.proxy.url,
        feedUrl: `ws://127.0.0.1:${relay.port}/ws`,
      });
      expect(added.ok, JSON.stringify(added)).toBe(true);
      expect((await h.core.router.invoke('apiKey.set', { profileId: 'own', key: oldKey })).ok).toBe(true);
      expect((await h.core.router.invoke('profiles.switch', { id: 'own' })).ok).toBe(true);
      await until(() => liveCount(h) >= 2);
      const clients = paper.gw.gateway.feed.stats().clients;
      const authenticated = paper.gw.gateway.feed.stats().authenticated;

      // Cleared: the connection that used the old key is gone at once, and none takes its place.
      expect((await h.core.router.invoke('apiKey.clear', { profileId: 'own' })).ok).toBe(true);
      await until(() => paper.gw.gateway.feed.stats().clients === clients - 1);
      await h.clock.advance(5000);
      // Real time: a retry that wrongly found a key would open a socket and authenticate over
      // loopback within this; nothing the core exposes says "no socket was opened".
      await new Promise((r) => setTimeout(r, 100));
      expect(paper.gw.gateway.feed.stats()).toMatchObject({
        clients: clients - 1,
        authenticated: authenticated - 1,
      });

      // A new key: the feed authenticates with it without waiting for a drop.
      expect((await h.core.router.invoke('apiKey.set', { profileId: 'own', key: newKey })).ok).toBe(true);
      await until(() => paper.gw.gateway.feed.stats().authenticated === authenticated);
      await until(() => liveCount(h) >= 3);
      expect(paper.gw.gateway.feed.stats().clients).toBe(clients);
    } finally {
      await h.stop();
    }
  });

  it('closes the feed connection when the profile switches', async () => {
    const h = await startFeedCore();
    try {
      await feedLive(h);
      const before = paper.gw.gateway.feed.stats().clients;
      expect(before).toBeGreaterThanOrEqual(1);
      const added = await h.core.router.invoke('profiles.add', {
        id: 'elsewhere',
        name: 'Elsewhere',
        baseUrl: 'http://127.0.0.1:9',
        feedUrl: 'ws://127.0.0.1:9/ws',
      });
      expect(added.ok, JSON.stringify(added)).toBe(true);
      const switched = await h.core.router.invoke('profiles.switch', { id: 'elsewhere' });
      expect(switched.ok, JSON.stringify(switched)).toBe(true);
      await until(() => paper.gw.gateway.feed.stats().clients === before - 1);
    } finally {
      await h.stop();
    }
  });
});
