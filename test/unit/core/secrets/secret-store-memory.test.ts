// The secret store's keys held in memory for the gateway client.
import { describe, expect, it } from 'vitest';
import { type KeytarLike } from '../../../../src-main/core/secrets/index.js';
import { fakeKeytar, fakeSafeStorage } from '../../../support/secret-fakes.js';
import { KEY, store, useDataDir } from './secret-store-fixture.js';

useDataDir();

describe('secret store: keys held in memory for the gateway client', () => {
  it('reads the keychain once per profile, then answers from memory', async () => {
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => k.keytar });
    await s.set('paper', KEY);
    await s.set('other', 'other-key-0123456789');
    const before = k.calls();
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    const afterFirst = k.calls();
    expect(afterFirst).toBeGreaterThan(before);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect(k.calls()).toBe(afterFirst);
    // Per profile: another profile's key is its own read.
    expect(await s.revealForGatewayClient('other')).toBe('other-key-0123456789');
  });

  it('a key set replaces the one in memory at once', async () => {
    const { store: s } = store({ keytar: async () => fakeKeytar().keytar });
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    await s.set('paper', 'second-key-0123456789');
    expect(await s.revealForGatewayClient('paper')).toBe('second-key-0123456789');
  });

  it('a cleared key is gone from memory too', async () => {
    const { store: s } = store({ keytar: async () => fakeKeytar().keytar });
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    await s.clear('paper');
    expect(await s.revealForGatewayClient('paper')).toBeUndefined();
  });

  it('a read in flight when the key is set does not put the old key back', async () => {
    const { store: s } = store({ keytar: async () => fakeKeytar().keytar });
    await s.set('paper', KEY);
    const inFlight = s.revealForGatewayClient('paper');
    const setting = s.set('paper', 'second-key-0123456789');
    expect(await inFlight).toBe(KEY);
    await setting;
    expect(await s.revealForGatewayClient('paper')).toBe('second-key-0123456789');
  });

  it('forget (a profile switch) reads the keychain again: a key changed by another process applies', async () => {
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => k.keytar });
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    // The CLI (another process) stores a new key in the same keychain.
    k.items.set('OrderDesk/paper', 'cli-key-0123456789');
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    s.forget();
    expect(await s.revealForGatewayClient('paper')).toBe('cli-key-0123456789');
    k.items.set('OrderDesk/paper', 'cli-key-2-0123456789');
    s.forget('paper');
    expect(await s.revealForGatewayClient('paper')).toBe('cli-key-2-0123456789');
  });

  it('a fallback to another store drops what was read from the old one', async () => {
    const k = fakeKeytar();
    let locked = false;
    // The keychain locks after a good start; calls fail from then on.
    const keytar: KeytarLike = {
      getPassword: (svc, acc) =>
        locked ? Promise.reject(new Error('IsLocked')) : k.keytar.getPassword(svc, acc),
      setPassword: (svc, acc, pw) =>
        locked ? Promise.reject(new Error('IsLocked')) : k.keytar.setPassword(svc, acc, pw),
      deletePassword: (svc, acc) =>
        locked ? Promise.reject(new Error('IsLocked')) : k.keytar.deletePassword(svc, acc),
    };
    const { store: s } = store({ keytar: async () => keytar, safeStorage: fakeSafeStorage().port });
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    locked = true;
    // This write falls back to the encrypted file, which holds no key for 'paper'.
    await s.set('other', 'other-key-0123456789');
    expect((await s.status()).backend).toBe('safe-storage');
    expect(await s.revealForGatewayClient('paper')).toBeUndefined();
    expect(await s.revealForGatewayClient('other')).toBe('other-key-0123456789');
  });
});
