// The API key is bound to the origin (scheme, host, port) of the profile's base URL when it is stored:
// a change of origin clears it and asks for it again, a key whose origin no longer matches (settings
// edited by hand) is never sent, and a non-loopback http:// URL needs the profile's explicit
// "send my key without TLS" consent. A hostile gateway (a local echo server) counts the requests that
// reached it carrying the key.
import { rmSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useEchoGateway } from '../../support/echo-gateway.js';
import {
  editProfile,
  keyedProfile,
  startCore,
  testKey as freshKey,
  usePaper,
} from '../../support/core-harness.js';

const paper = usePaper();
const echo = useEchoGateway();

describe('the key follows no change of origin', () => {
  it('a changed origin clears the key and asks for it again; the new host never receives it', async () => {
    const h = await startCore(paper);
    try {
      const key = freshKey('origin-a');
      paper.gw.gateway.keys.add(key);
      await keyedProfile(h, { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url }, key);
      expect(await h.core.router.invoke('apiKey.test')).toMatchObject({ ok: true });

      // Another port on the same host: another origin.
      const moved = await h.core.router.invoke('profiles.update', {
        id: 'broker',
        changes: { baseUrl: echo.url },
      });
      expect(moved.ok, JSON.stringify(moved)).toBe(true);
      await h.core.pollNow();
      const test = await h.core.router.invoke('apiKey.test');
      await h.core.router.invoke('books.funds');
      await h.core.router.invoke('market.quotes', { symbol: 'SBIN', exchange: 'NSE' });
      expect(echo.carrying(key)).toHaveLength(0);
      expect(test).toMatchObject({ ok: false, error: { kind: 'no_key' } });
      expect(moved.ok && moved.value.notice).toMatch(/enter .*key again/i);
      expect(moved.ok && moved.value.profiles.find((p) => p.id === 'broker')?.hasKey).toBe(false);
      expect(h.of('apiKey.status').at(-1)).toMatchObject({ profileId: 'broker', present: false });

      // A key entered for the new address is the one it gets (the echo server is reached at all).
      const second = freshKey('origin-b');
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key: second });
      await h.core.router.invoke('apiKey.test');
      expect(echo.carrying(second).length).toBeGreaterThan(0);
      expect(echo.carrying(key)).toHaveLength(0);
    } finally {
      await h.stop();
    }
  });

  it('a path-only change (and a spelling of the same origin) keeps the key', async () => {
    const h = await startCore(paper);
    try {
      const key = freshKey('origin-c');
      await h.core.router.invoke('profiles.add', {
        id: 'remote',
        name: 'Remote',
        baseUrl: 'https://gw.example.com',
      });
      await h.core.router.invoke('apiKey.set', { profileId: 'remote', key });
      for (const baseUrl of ['https://gw.example.com/openalgo', 'https://GW.Example.com:443/other']) {
        const r = await h.core.router.invoke('profiles.update', { id: 'remote', changes: { baseUrl } });
        expect(r.ok && r.value.notice).toBeFalsy();
        expect(r.ok && r.value.profiles.find((p) => p.id === 'remote')?.hasKey).toBe(true);
      }
    } finally {
      await h.stop();
    }
  });

  it('a key whose origin no longer matches (settings edited by hand) is not sent', async () => {
    const first = await startCore(paper);
    const key = freshKey('origin-d');
    paper.gw.gateway.keys.add(key);
    await keyedProfile(first, { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url }, key);
    await first.core.stop();
    editProfile(first.dataDir, 'broker', { baseUrl: echo.url });
    onTestFinished(() => rmSync(first.dataDir, { recursive: true, force: true }));

    const h = await startCore(paper, { dataDir: first.dataDir, keychain: first.keychain });
    try {
      await h.core.pollNow();
      const test = await h.core.router.invoke('apiKey.test');
      await h.core.router.invoke('books.orders');
      expect(echo.carrying(key)).toHaveLength(0);
      expect(test).toMatchObject({ ok: false, error: { kind: 'no_key' } });
      expect(!test.ok && test.error.message).toMatch(/enter .*key again/i);
    } finally {
      await h.stop();
    }
  });
});

describe('http:// to another host needs "send my key without TLS"', () => {
  it('refuses a non-loopback http:// base URL without the consent, at add, update and call time', async () => {
    const h = await startCore(paper);
    try {
      const plain = 'http://gw.orderdesk-test.invalid:5000';
      const refused = await h.core.router.invoke('profiles.add', { id: 'lan', name: 'LAN', baseUrl: plain });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(!refused.ok && refused.error.message).toMatch(/without TLS/);
      for (const [i, loopback] of [
        'http://127.0.0.1:5000',
        'http://127.8.9.10:5000',
        'http://localhost:5000',
        'http://[::1]:5000',
        'https://gw.example.com',
      ].entries())
        expect(
          (await h.core.router.invoke('profiles.add', { id: `ok${i}`, name: `ok ${i}`, baseUrl: loopback }))
            .ok,
          loopback,
        ).toBe(true);

      // From https to plain http: refused unless the same change gives the consent.
      const update = (changes: Record<string, unknown>) =>
        h.core.router.invoke('profiles.update', { id: 'ok4', changes });
      expect(await update({ baseUrl: plain })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect((await update({ baseUrl: plain, allowInsecureKey: true })).ok).toBe(true);
      // The consent cannot be withdrawn while the URL still needs it.
      expect(await update({ allowInsecureKey: false })).toMatchObject({ ok: false });

      const added = await h.core.router.invoke('profiles.add', {
        id: 'lan',
        name: 'LAN',
        baseUrl: plain,
        allowInsecureKey: true,
      });
      expect(added.ok, JSON.stringify(added)).toBe(true);
      await h.core.router.invoke('apiKey.set', { profileId: 'lan', key: freshKey('origin-e') });
      await h.core.router.invoke('profiles.switch', { id: 'lan' });
      await h.core.stop();
      // The consent removed by hand: the key is not sent (no request at all goes to that host).
      editProfile(h.dataDir, 'lan', { allowInsecureKey: false });
      const again = await startCore(paper, { dataDir: h.dataDir, keychain: h.keychain });
      try {
        const test = await again.core.router.invoke('apiKey.test');
        expect(test).toMatchObject({ ok: false, error: { kind: 'no_key' } });
        expect(!test.ok && test.error.message).toMatch(/without TLS/);
        expect(again.urls.filter((u) => u.includes('orderdesk-test.invalid'))).toEqual([]);
      } finally {
        await again.stop();
      }
    } finally {
      await h.stop().catch(() => undefined);
    }
  });
});
