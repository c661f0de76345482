// The router's services over a whole core, with an in-memory fake gateway behind an injected fetch:
// write-only keys and the other services, a profile's rate budget, a failing key store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../src-main/core/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { fakeSafeStorage } from '../../support/secret-fakes.js';
import { clock, core, gw, PAPER_URL, settle, state, useRouterCore } from './router-fixture.js';

useRouterCore();

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
