// Market subscriptions against the real paper gateway through a core: validation of symbols,
// quotes for a watched list, unwatch, a profile switch; then, in real time on the default budget of
// 10 requests/s, the focused depth's rate and a burst of orders placed while market polling runs.
import { describe, expect, it } from 'vitest';
import { EVENTS, type MarketWatchInput } from '../../../src-main/contract/index.js';
import { systemClock } from '../../../src-main/gateway/index.js';
import { LIMITS, startCore, until, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

async function watch(h: Harness, input: MarketWatchInput) {
  const r = await h.core.router.invoke('market.watch', input);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

const count = (h: Harness, path: string) => h.urls.filter((u) => u.endsWith(path)).length;

describe('market subscriptions (core clock)', () => {
  it('validates the symbols once, streams quotes for a watched list, and unwatch stops them', async () => {
    const h = await startCore(paper, { ports: { visible: true } });
    try {
      const unknown = await h.core.router.invoke('market.watch', {
        mode: 'quote',
        symbols: [{ symbol: 'NOSUCHSYM', exchange: 'NSE' }],
      });
      expect(unknown).toMatchObject({ ok: false, error: { kind: 'not_found' } });
      expect(unknown.ok || unknown.error.message).toContain('NOSUCHSYM');

      const w = await watch(h, {
        mode: 'quote',
        symbols: [
          { symbol: 'SBIN', exchange: 'NSE' },
          { symbol: 'INFY', exchange: 'NSE' },
          { symbol: 'NOSUCHSYM', exchange: 'NSE' },
        ],
      });
      expect(w.symbols.map((s) => s.symbol)).toEqual(['SBIN', 'INFY']);
      expect(w.rejected).toMatchObject([{ symbol: 'NOSUCHSYM', error: { kind: 'not_found' } }]);

      // Seconds of the core's clock: each brings one multiquotes for the list.
      for (let k = 0; k < 3; k++) {
        const before = h.of('market.quote').length;
        await h.clock.advance(1000);
        await until(() => h.of('market.quote').length >= before + 2);
      }
      const quotes = h.of('market.quote');
      expect(new Set(quotes.map((q) => q.symbol))).toEqual(new Set(['SBIN', 'INFY']));
      const sbin = paper.inst('NSE', 'SBIN');
      expect(quotes.at(-1)?.symbol === 'SBIN' ? quotes.at(-1) : quotes.at(-2)).toMatchObject({
        profileId: 'paper',
        ltp: paper.ltp(sbin),
      });
      for (const q of quotes) expect(EVENTS['market.quote'].safeParse(q).success).toBe(true);

      expect(await h.core.router.invoke('market.unwatch', { id: w.id })).toEqual({
        ok: true,
        value: { id: w.id, stopped: w.symbols },
      });
      const n = count(h, '/multiquotes');
      const events = h.of('market.quote').length;
      // A poll still running would have sent its request before advance returns (advance runs the
      // due timers and lets their promise chains settle), as the seconds above do: read at once.
      await h.clock.advance(3000);
      expect(count(h, '/multiquotes')).toBe(n);
      expect(h.of('market.quote').length).toBe(events);
      expect(await h.core.router.invoke('market.unwatch', { id: w.id })).toMatchObject({
        ok: false,
        error: { kind: 'not_found' },
      });
    } finally {
      await h.stop();
    }
  });

  it('keeps a subscription across a profile switch and polls the new profile’s gateway', async () => {
    const h = await startCore(paper, { ports: { visible: true } });
    try {
      const w = await watch(h, { mode: 'depth', symbols: [{ symbol: 'TCS', exchange: 'NSE' }], focus: true });
      await h.clock.advance(400);
      await until(() => h.of('market.depth').length >= 1);

      const key = `market-b-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(key);
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      const from = h.events.length;
      for (let k = 0; k < 3; k++) {
        await h.clock.advance(400);
        await until(() => h.events.slice(from).filter((e) => e.name === 'market.depth').length > k);
      }
      const after = h.events.slice(from).filter((e) => e.name.startsWith('market.'));
      expect(after.length).toBeGreaterThanOrEqual(3);
      expect(new Set(after.map((e) => (e.payload as { profileId: string }).profileId))).toEqual(
        new Set(['broker']),
      );
      expect(await h.core.router.invoke('market.unwatch', { id: w.id })).toMatchObject({ ok: true });
    } finally {
      await h.stop();
    }
  });
});

describe('market subscriptions (real time, budget 10/s)', () => {
  it('streams the focused depth at ≥ 2/s; a burst of orders goes ahead of market polling', async () => {
    /** When each request left, by path: the order of things at the gateway. */
    const sent: { at: number; path: string }[] = [];
    const h = await startCore(paper, {
      ports: {
        clock: systemClock,
        visible: true,
        gateway: { retry: { maxRetries: 0 }, rateLimit: 10 },
        fetch: (input, init) => {
          sent.push({ at: performance.now(), path: new URL(String(input)).pathname.replace('/api/v1', '') });
          return fetch(input, init);
        },
      },
    });
    try {
      // LIMIT orders without a price band: each order is its placeorder alone (the instrument's
      // rules are read once, by the first order), so the burst measures the budget, not risk reads.
      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, priceBandPercent: 0 } });
      const sbin = paper.inst('NSE', 'SBIN');
      const order = {
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price: paper.onTick(sbin, paper.ltp(sbin) * 0.97),
        product: 'MIS',
        confirmDuplicate: true,
      } as const;
      expect(await h.core.router.invoke('orders.place', order)).toMatchObject({ ok: true });

      await watch(h, {
        mode: 'quote',
        symbols: ['SBIN', 'INFY', 'TCS'].map((symbol) => ({ symbol, exchange: 'NSE' as const })),
      });
      await watch(h, { mode: 'depth', symbols: [{ symbol: 'HDFCBANK', exchange: 'NSE' }] });
      const started = Date.now();
      await watch(h, { mode: 'depth', symbols: [{ symbol: 'RELIANCE', exchange: 'NSE' }], focus: true });
      const focused = () => h.of('market.depth').filter((e) => e.symbol === 'RELIANCE');
      // The rate over the time the focused poll took to bring 4 depths (a 1/s poll needs 3 s or more).
      await expect.poll(() => focused().length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(4);
      await expect.poll(() => h.of('market.depth').some((e) => e.symbol === 'HDFCBANK')).toBe(true);
      await expect.poll(() => h.of('market.quote').length).toBeGreaterThanOrEqual(3);
      const elapsed = (Date.now() - started) / 1000;
      const n = focused().length;
      const rate = n / elapsed;
      console.log(
        `focused depth: ${n} events in ${elapsed.toFixed(2)} s = ${rate.toFixed(2)}/s; ` +
          `other depth: ${h.of('market.depth').length - n}; quote events: ${h.of('market.quote').length}`,
      );
      expect(rate).toBeGreaterThanOrEqual(2);
      expect(h.of('market.depth').some((e) => e.symbol === 'HDFCBANK')).toBe(true);
      expect(h.of('market.quote').length).toBeGreaterThanOrEqual(3);
      expect(h.of('market.error')).toEqual([]);

      // A burst of orders while the depth runs.
      const burst = performance.now();
      const market = (p: string) => p === '/depth' || p === '/multiquotes';
      const lastSecond = sent.filter((r) => r.at > burst - 1000);
      const latencies = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const r = await h.core.router.invoke('orders.place', order);
          expect(r).toMatchObject({ ok: true });
          return performance.now() - burst;
        }),
      );
      const worst = Math.max(...latencies);
      console.log(
        `burst of ${latencies.length} placeorders during market polling: ` +
          `${latencies.map((ms) => ms.toFixed(1)).join(', ')} ms; worst ${worst.toFixed(1)} ms ` +
          `(budget used in the second before: ${lastSecond.filter((r) => market(r.path)).length} market, ` +
          `${lastSecond.filter((r) => !market(r.path)).length} other requests)`,
      );
      // Orders first: no market request left while a placeorder of the burst was still queued
      // (an order's own steps before the budget take a few ms; 50 ms covers them).
      const orders = sent.filter((r) => r.at >= burst && r.path === '/placeorder').map((r) => r.at);
      expect(orders).toHaveLength(5);
      const lastOrder = Math.max(...orders);
      const overtaking = sent.filter((r) => market(r.path) && r.at > burst + 50 && r.at < lastOrder);
      expect(overtaking).toEqual([]);
      // No backlog to wait behind: at worst a slot to free in the gateway's one-second window.
      expect(worst).toBeLessThan(1000);
      // The depth goes on once the orders are through.
      await until(() => focused().length >= n + 1, 1500);
    } finally {
      await h.stop();
    }
  });
});
