// The router over a whole core, with an in-memory fake gateway behind an injected fetch: validation
// before any request, risk refusals with reasons, the duplicate guard, write-only keys, previews.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock } from '../../../src-main/gateway/index.js';
import { fakeSafeStorage } from '../../support/secret-fakes.js';

/** Lets pending promise chains and I/O run (no timers: the core's clock is a ManualClock). */
async function settle(rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

const PAPER_URL = 'http://paper.invalid';

interface Call {
  /** The gateway's host name (one fake serves every profile). */
  host: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * Answers like the paper gateway for the few operations the router needs; `missing` holds
 * `host/operation` pairs answered with the real gateway's route-missing 404.
 */
function fakeGateway(state: { position: number; ltp: number; missing?: Set<string> }) {
  const calls: Call[] = [];
  let nextId = 100;
  const answers: Record<string, (b: Record<string, unknown>) => unknown> = {
    symbol: (b) => ({
      status: 'success',
      data: {
        symbol: b.symbol,
        brsymbol: b.symbol,
        name: 'X',
        exchange: b.exchange,
        brexchange: b.exchange,
        token: '1',
        expiry: '',
        strike: 0,
        lotsize: 1,
        instrumenttype: 'EQ',
        tick_size: 0.05,
      },
    }),
    quotes: () => ({
      status: 'success',
      data: {
        ask: state.ltp,
        bid: state.ltp,
        high: state.ltp,
        low: state.ltp,
        ltp: state.ltp,
        open: 1,
        prev_close: 1,
        volume: 1,
      },
    }),
    placeorder: () => ({ status: 'success', orderid: String(nextId++) }),
    placesmartorder: () => ({ status: 'success', orderid: String(nextId++) }),
    openposition: () => ({ status: 'success', quantity: state.position }),
    ping: () => ({ status: 'success', data: { message: 'pong', broker: 'fake' } }),
    funds: () => ({
      status: 'success',
      data: {
        availablecash: '100.00',
        collateral: '0.00',
        m2mrealized: '0.00',
        m2munrealized: '0.00',
        utiliseddebits: '0.00',
      },
    }),
  };
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const op = url.pathname.replace('/api/v1/', '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    calls.push({ host: url.hostname, path: op, body });
    const answer = state.missing?.has(`${url.hostname}/${op}`) ? undefined : answers[op];
    if (!answer)
      return new Response(JSON.stringify({ message: 'Not found', path: url.pathname }), { status: 404 });
    return new Response(JSON.stringify(answer(body)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetchFn };
}

let dataDir: string;
let core: Core;
let clock: ManualClock;
let gw: ReturnType<typeof fakeGateway>;
const state = { position: 0, ltp: 812.35, missing: new Set<string>() };

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'router-'));
  clock = new ManualClock(1_000_000);
  state.position = 0;
  state.missing.clear();
  gw = fakeGateway(state);
  core = createCore({
    paths: { dataDir },
    logger: createMemoryLogger(),
    notifier: { notify: () => undefined },
    tray: { update: () => undefined },
    clock,
    keytar: null,
    fetch: gw.fetchFn,
    startPaperGateway: async () => ({ url: PAPER_URL, stop: async () => undefined }),
    gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 },
  });
  await core.start();
});
afterEach(async () => {
  await core.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const order = {
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 10,
  pricetype: 'LIMIT',
  price: 812.35,
};

describe('validation', () => {
  it.each([
    [{ ...order, quantity: 'ten' }, /quantity must be a number/],
    [{ ...order, action: 'HOLD' }, /action must be one of: BUY, SELL/],
    [{ ...order, symbol: undefined }, /symbol is required/],
    [{ ...order, exchange: 'NYSE' }, /exchange must be one of/],
    [{ ...order, apikey: 'abc' }, /unknown field\(s\): apikey/],
    [{ ...order, quantity: 1.5 }, /quantity must be a whole number/],
    ['not an object', /expected object/i],
  ])('refuses %j with a clear message and no request', async (input, message) => {
    const r = await core.router.invoke('orders.place', input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('invalid_input');
    expect(r.error.message).toMatch(message);
    expect(r.error.message.startsWith('orders.place: ')).toBe(true);
    expect(gw.calls).toEqual([]);
  });

  it('refuses unknown channels and bad inputs on other channels', async () => {
    expect(await core.router.invoke('orders.explode', {})).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(await core.router.invoke('watcher.setVisibility', { visible: 'yes' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringMatching(/visible must be true or false/) },
    });
    expect(await core.router.invoke('settings.update', { risk: { maxQuantityPerOrder: -1 } })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(gw.calls).toEqual([]);
  });
});

describe('risk checks', () => {
  it('refuses a breach with the reason, journals it, and sends nothing', async () => {
    const r = await core.router.invoke('orders.place', { ...order, quantity: 20_000 });
    expect(r).toMatchObject({
      ok: false,
      error: {
        kind: 'risk',
        message: expect.stringContaining('Quantity 20,000 exceeds your limit of 10,000 per order'),
      },
    });
    expect(gw.calls.map((c) => c.path)).not.toContain('placeorder');
    const journal = await core.router.invoke('journal.query', {});
    expect(journal.ok && journal.value[0]).toMatchObject({
      operation: 'placeorder',
      outcome: 'error',
      error: { kind: 'risk' },
    });
  });

  it('refuses a price outside the band and off the tick', async () => {
    const r = await core.router.invoke('orders.place', { ...order, price: 900.02 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/not a multiple of the tick size ₹0.05/);
    expect(r.error.message).toMatch(/away from the last price ₹812.35; your limit is 5.00%/);
  });
});

describe('the last price a MARKET order is checked at', () => {
  const market = { exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity: 10, pricetype: 'MARKET' };
  const paths = (from: number) => gw.calls.slice(from).map((c) => c.path);

  /** Warms the per-session instrument rules (one `symbol` read), then watches SBIN's quote at 812.35. */
  async function watched(): Promise<void> {
    expect((await core.router.invoke('orders.place', { ...market, quantity: 1 })).ok).toBe(true);
    const w = await core.router.invoke('market.watch', {
      mode: 'quote',
      symbols: [{ symbol: 'SBIN', exchange: 'NSE' }],
    });
    expect(w.ok).toBe(true);
    await settle(5);
    // A quote asked for now would price 10 shares at ₹1,00,00,000, far past the ₹10,00,000 limit.
    state.ltp = 1_000_000;
  }

  afterEach(() => {
    state.ltp = 812.35;
  });

  it('uses a watched price seen within 2 s: the placeorder is the only request', async () => {
    await watched();
    await clock.advance(1_500);
    const before = gw.calls.length;
    const r = await core.router.invoke('orders.place', market);
    expect(r).toMatchObject({ ok: true });
    expect(paths(before)).toEqual(['placeorder']);
  });

  it('asks the gateway when the watched price is older, and checks against what it answers', async () => {
    await watched();
    await clock.advance(2_500);
    const before = gw.calls.length;
    const r = await core.router.invoke('orders.place', market);
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'risk', message: expect.stringContaining('Order value ₹1,00,00,000.00 exceeds') },
    });
    expect(paths(before).filter((p) => p !== 'multiquotes')).toEqual(['quotes']);
  });
});

describe('duplicate guard', () => {
  it('holds the same order within 2 s until confirmed', async () => {
    expect((await core.router.invoke('orders.place', order)).ok).toBe(true);
    const again = await core.router.invoke('orders.place', order);
    expect(again).toMatchObject({
      ok: false,
      error: { kind: 'duplicate', message: expect.stringMatching(/confirm/) },
    });
    expect(gw.calls.filter((c) => c.path === 'placeorder')).toHaveLength(1);
    expect((await core.router.invoke('orders.place', { ...order, confirmDuplicate: true })).ok).toBe(true);
    await clock.advance(2001);
    expect((await core.router.invoke('orders.place', order)).ok).toBe(true);
    expect(gw.calls.filter((c) => c.path === 'placeorder')).toHaveLength(3);
  });

  it('fills in the profile strategy and journals before and after', async () => {
    const r = await core.router.invoke('orders.place', order);
    expect(r).toMatchObject({ ok: true, value: { orderid: '100' } });
    expect(gw.calls.find((c) => c.path === 'placeorder')?.body.strategy).toBe('OrderDesk');
    const journal = await core.router.invoke('journal.query', {});
    expect(journal.ok && journal.value[0]).toMatchObject({ outcome: 'ok', orderIds: ['100'] });
  });
});

describe('previews', () => {
  it('previews a smart order from the current position with the paper gateway rules', async () => {
    state.position = 30;
    const r = await core.router.invoke('orders.previewSmart', { ...order, quantity: 5, position_size: 10 });
    expect(r).toMatchObject({
      ok: true,
      value: {
        current: 30,
        target: 10,
        decision: { kind: 'order', order: { action: 'SELL', quantity: 20, symbol: 'SBIN' } },
      },
    });
    state.position = 10;
    expect(await core.router.invoke('orders.previewSmart', { ...order, position_size: 10 })).toMatchObject({
      ok: true,
      value: { decision: { kind: 'none', message: expect.stringMatching(/No Action needed/) } },
    });
  });

  it('previews the child orders of a split and refuses more than 100', async () => {
    const r = await core.router.invoke('orders.previewSplit', { ...order, quantity: 250, splitsize: 100 });
    expect(r.ok && r.value.children.map((c) => c.quantity)).toEqual([100, 100, 50]);
    expect(
      await core.router.invoke('orders.previewSplit', { ...order, quantity: 10_001, splitsize: 100 }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringMatching(/exceed maximum limit of 100/) },
    });
    expect(gw.calls).toEqual([]);
  });
});

describe('services', () => {
  it('keeps the API key write-only', async () => {
    const key = 'k'.repeat(40);
    await core.router.invoke('profiles.add', {
      id: 'broker',
      name: 'Broker',
      baseUrl: 'https://broker.invalid',
    });
    const set = await core.router.invoke('apiKey.set', { key, profileId: 'broker' });
    expect(set).toMatchObject({ ok: true, value: { profileId: 'broker', present: true, backend: 'memory' } });
    expect(JSON.stringify(set)).not.toContain(key);
    const status = await core.router.invoke('apiKey.status', { profileId: 'broker' });
    expect(JSON.stringify(status)).not.toContain(key);
    expect(await core.router.invoke('apiKey.set', { key: 'has space', profileId: 'broker' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringMatching(/spaces or control characters/) },
    });
    expect(await core.router.invoke('apiKey.clear', {})).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });
  });

  it('adds, switches and removes profiles', async () => {
    const added = await core.router.invoke('profiles.add', {
      id: 'zerodha',
      name: 'Zerodha',
      baseUrl: 'https://zerodha.invalid',
    });
    expect(added.ok && added.value.profiles.map((p) => p.id)).toEqual(['paper', 'zerodha']);
    const switched = await core.router.invoke('profiles.switch', { id: 'zerodha' });
    expect(switched.ok && switched.value.activeProfileId).toBe('zerodha');
    expect(await core.router.invoke('profiles.switch', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
    expect(await core.router.invoke('profiles.remove', { id: 'paper' })).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });
    const removed = await core.router.invoke('profiles.remove', { id: 'zerodha' });
    expect(removed.ok && removed.value.activeProfileId).toBe('paper');
  });

  it('mutes, pauses and reports visibility intervals from settings', async () => {
    expect(await core.router.invoke('alerts.mute', { orderid: '42' })).toMatchObject({
      ok: true,
      value: { muted: ['42'] },
    });
    expect(await core.router.invoke('alerts.pause', { paused: true })).toMatchObject({
      ok: true,
      value: { paused: true },
    });
    const s = await core.router.invoke('settings.get');
    expect(s.ok && s.value.alerts.paused).toBe(true);
    expect(await core.router.invoke('watcher.setVisibility', { visible: true })).toEqual({
      ok: true,
      value: { intervalMs: 2000 },
    });
    expect(await core.router.invoke('watcher.setVisibility', { visible: false })).toEqual({
      ok: true,
      value: { intervalMs: 10_000 },
    });
  });

  it('tests the key with ping', async () => {
    expect(await core.router.invoke('apiKey.test')).toMatchObject({
      ok: true,
      value: { broker: 'fake', profileId: 'paper' },
    });
  });

  it('tests the key with funds where the gateway has no ping; funds’ own failure is the answer', async () => {
    state.missing.add('broker.invalid/ping');
    await core.router.invoke('profiles.add', {
      id: 'broker',
      name: 'Broker',
      baseUrl: 'https://broker.invalid',
    });
    // No key yet: refused without a request.
    expect(await core.router.invoke('apiKey.test', { profileId: 'broker' })).toMatchObject({
      ok: false,
      error: { kind: 'no_key' },
    });
    expect(gw.calls.filter((c) => c.host === 'broker.invalid')).toEqual([]);
    await core.router.invoke('apiKey.set', { profileId: 'broker', key: 'b'.repeat(40) });
    const tested = await core.router.invoke('apiKey.test', { profileId: 'broker' });
    expect(tested).toMatchObject({ ok: true, value: { profileId: 'broker' } });
    const sent = () => gw.calls.filter((c) => c.host === 'broker.invalid').map((c) => c.path);
    expect(sent()).toEqual(['ping', 'funds']);
    expect(gw.calls.at(-1)?.body.apikey).toBe('b'.repeat(40));
    // The 404 is remembered for that profile: the next test goes straight to funds.
    await core.router.invoke('apiKey.test', { profileId: 'broker' });
    expect(sent()).toEqual(['ping', 'funds', 'funds']);
    // Funds refusing the key is the answer.
    state.missing.add('broker.invalid/funds');
    expect(await core.router.invoke('apiKey.test', { profileId: 'broker' })).toMatchObject({
      ok: false,
      error: { kind: 'not_offered' },
    });
  });

  it('reports the memory-only fallback and its warning in apiKey.status', async () => {
    // keytar: null and no safeStorage port: nothing but memory is left.
    const status = await core.router.invoke('apiKey.status');
    expect(status).toMatchObject({
      ok: true,
      value: { backend: 'memory', persistent: false, present: true, profileId: 'paper' },
    });
    expect(status.ok && status.value.warning).toMatch(/memory only and must be entered again/);
  });

  it('remembers a "not offered" 404 per profile, across switches, without sharing it', async () => {
    state.missing.add('broker.invalid/quotes');
    await core.router.invoke('profiles.add', {
      id: 'broker',
      name: 'Broker',
      baseUrl: 'https://broker.invalid',
    });
    await core.router.invoke('apiKey.set', { profileId: 'broker', key: 'b'.repeat(40) });
    const quotes = () => core.router.invoke('market.quotes', { symbol: 'SBIN', exchange: 'NSE' });
    const sentTo = (host: string) => gw.calls.filter((c) => c.host === host && c.path === 'quotes').length;

    await core.router.invoke('profiles.switch', { id: 'broker' });
    expect(await quotes()).toMatchObject({ ok: false, error: { kind: 'not_offered' } });
    expect(sentTo('broker.invalid')).toBe(1);
    // The paper profile's gateway does offer quotes: its client knows nothing of the other's 404.
    await core.router.invoke('profiles.switch', { id: 'paper' });
    expect(await quotes()).toMatchObject({ ok: true });
    expect(sentTo('paper.invalid')).toBe(1);
    // Back on the broker: still known as not offered, nothing sent.
    await core.router.invoke('profiles.switch', { id: 'broker' });
    expect(await quotes()).toMatchObject({ ok: false, error: { kind: 'not_offered' } });
    expect(sentTo('broker.invalid')).toBe(1);
    // A new URL is another gateway: asked again.
    await core.router.invoke('profiles.update', {
      id: 'broker',
      changes: { baseUrl: 'https://broker2.invalid' },
    });
    // Another origin: the key was cleared with the change and is entered again for it.
    await core.router.invoke('apiKey.set', { profileId: 'broker', key: 'b'.repeat(40) });
    expect(await quotes()).toMatchObject({ ok: true });
    expect(sentTo('broker2.invalid')).toBe(1);
  });
});

describe("a profile's rate budget", () => {
  it('reaches its gateway client and changes with the profile', async () => {
    // A core without the test-wide budget override: the profiles' own rates apply.
    const dir = mkdtempSync(join(tmpdir(), 'router-rate-'));
    const own = createCore({
      paths: { dataDir: dir },
      logger: createMemoryLogger(),
      notifier: { notify: () => undefined },
      tray: { update: () => undefined },
      clock,
      keytar: null,
      fetch: gw.fetchFn,
      startPaperGateway: async () => ({ url: PAPER_URL, stop: async () => undefined }),
      gateway: { retry: { maxRetries: 0 } },
    });
    try {
      await own.start();
      await own.router.invoke('profiles.add', {
        id: 'slow',
        name: 'Slow',
        baseUrl: 'https://slow.invalid',
        rateLimitPerSecond: 2,
      });
      await own.router.invoke('apiKey.set', { profileId: 'slow', key: 's'.repeat(40) });
      await own.router.invoke('profiles.switch', { id: 'slow' });
      // Quotes only: the core also asks the gateway's analyzer once at connect (its mode).
      const sent = () => gw.calls.filter((c) => c.host === 'slow.invalid' && c.path === 'quotes').length;
      const burst = (n: number) =>
        Promise.all(
          Array.from({ length: n }, () =>
            own.router.invoke('market.quotes', { symbol: 'SBIN', exchange: 'NSE' }),
          ),
        );

      // The analyzer asked at connect takes its slot first: the bursts start in a window of their own.
      await settle(20);
      await clock.advance(1000);
      const first = burst(3);
      await settle(20);
      expect(sent()).toBe(2); // the third waits for the window (a ManualClock: until advanced)
      await clock.advance(1000);
      expect((await first).every((r) => r.ok)).toBe(true);
      expect(sent()).toBe(3);

      // A higher rate takes effect at once.
      await clock.advance(1000);
      await own.router.invoke('profiles.update', { id: 'slow', changes: { rateLimitPerSecond: 5 } });
      // The rebuilt client asks the analyzer again at its connect, in its own window.
      await settle(20);
      await clock.advance(1000);
      const second = burst(5);
      await settle(20);
      expect(sent()).toBe(7); // reads take 4 of the 5 at once: the last slot is kept for an order
      await clock.advance(1000);
      expect((await second).every((r) => r.ok)).toBe(true);
      expect(sent()).toBe(8);
    } finally {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a failing key store', () => {
  it('answers secret_store with what failed (ports throwing null and strings), never internal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'router-secrets-'));
    // A keychain that works at start (probe, paper key) and then throws null on every call; a safe
    // storage whose encryption then throws a bare string.
    let broken = false;
    const items = new Map<string, string>();
    const gate = () => {
      if (broken) throw null;
    };
    const keytar = {
      getPassword: async (_s: string, a: string) => (gate(), items.get(a) ?? null),
      setPassword: async (_s: string, a: string, p: string) => void (gate(), items.set(a, p)),
      deletePassword: async (_s: string, a: string) => (gate(), items.delete(a)),
    };
    const { port } = fakeSafeStorage();
    const logger = createMemoryLogger();
    const own = createCore({
      paths: { dataDir: dir },
      logger,
      notifier: { notify: () => undefined },
      tray: { update: () => undefined },
      clock,
      keytar: async () => keytar,
      safeStorage: {
        ...port,
        encryptString: (plain) => {
          if (broken) throw 'the disk is full';
          return port.encryptString(plain);
        },
      },
      fetch: gw.fetchFn,
      startPaperGateway: async () => ({ url: PAPER_URL, stop: async () => undefined }),
      gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 },
    });
    try {
      await own.start();
      await own.router.invoke('profiles.add', { id: 'broker', name: 'B', baseUrl: 'https://broker.invalid' });
      broken = true;
      const key = 'k'.repeat(40);
      const set = await own.router.invoke('apiKey.set', { profileId: 'broker', key });
      expect(set).toEqual({
        ok: false,
        error: {
          kind: 'secret_store',
          message:
            'The API key could not be saved: the encrypted key file failed (the disk is full). Before that, the OS keychain failed: no error detail (null was thrown)',
        },
      });
      expect(JSON.stringify(set)).not.toContain(key);
      expect(logger.entries.filter((e) => e.message === 'handler failed')).toEqual([]);
    } finally {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
