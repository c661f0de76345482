// The core holds each profile's key in memory after the first read (no keychain read per order), and
// reads it again from the store on a profile switch: a key another process (the CLI) stored in the
// keychain meanwhile is the one used from the switch on, never a stale one.
import { describe, expect, it } from 'vitest';
import { startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

async function quote(h: Harness) {
  return h.core.router.invoke('market.quotes', { symbol: 'SBIN', exchange: 'NSE' });
}

describe('API key held in memory', () => {
  it('uses the key in memory until a profile switch, then the one the keychain holds', async () => {
    const h = await startCore(paper);
    try {
      const key = `cache-a-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(key);
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      expect(await quote(h)).toMatchObject({ ok: true });
      const reads = h.keychain.calls();
      expect(await quote(h)).toMatchObject({ ok: true });
      expect(h.keychain.calls()).toBe(reads);

      // Another process replaces the key in the keychain with one this gateway does not know.
      const unknown = `cache-b-${'0123456789abcdef'.repeat(2)}`;
      h.keychain.items.set('OrderDesk/broker', unknown);
      expect(await quote(h)).toMatchObject({ ok: true });

      await h.core.router.invoke('profiles.switch', { id: 'paper' });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      const after = await quote(h);
      expect(after.ok).toBe(false);
      expect(!after.ok && after.error.kind).toBe('forbidden');
    } finally {
      await h.stop();
    }
  });

  it('a key set or cleared through the desk applies to the next call at once', async () => {
    const h = await startCore(paper);
    try {
      const key = `cache-c-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(key);
      await h.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key: `cache-d-${'0'.repeat(32)}` });
      await h.core.router.invoke('profiles.switch', { id: 'broker' });
      expect(await quote(h)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
      await h.core.router.invoke('apiKey.set', { profileId: 'broker', key });
      expect(await quote(h)).toMatchObject({ ok: true });
      await h.core.router.invoke('apiKey.clear', { profileId: 'broker' });
      expect(await quote(h)).toMatchObject({ ok: false, error: { kind: 'no_key' } });
    } finally {
      await h.stop();
    }
  });
});
