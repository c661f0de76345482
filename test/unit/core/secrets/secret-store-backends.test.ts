// The secret store's backends: the keychain, the fallback chain, and moving a key between backends.
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRETS_FILE } from '../../../../src-main/core/secrets/index.js';
import { fakeKeytar, fakeSafeStorage } from '../../../support/secret-fakes.js';
import { dataDir, expectNoPlaintextOnDisk, KEY, store, useDataDir } from './secret-store-fixture.js';

useDataDir();

describe('secret store: keychain', () => {
  it('uses the keychain when keytar loads and answers', async () => {
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => k.keytar });
    expect(await s.init()).toEqual({ backend: 'keychain', persistent: true });
    await s.set('paper', KEY);
    expect(await s.has('paper')).toBe(true);
    expect(await s.has('other')).toBe(false);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect(k.items.get('OrderDesk/paper')).toBe(KEY);
    expect([...k.items.keys()]).toEqual(['OrderDesk/paper']); // the probe cleaned up after itself
    await s.clear('paper');
    expect(await s.has('paper')).toBe(false);
    expect(await s.revealForGatewayClient('paper')).toBeUndefined();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('accepts keytar as a CommonJS default export', async () => {
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => ({ default: k.keytar }) });
    expect((await s.status()).backend).toBe('keychain');
  });

  it('replaces a key', async () => {
    const { store: s } = store({ keytar: async () => fakeKeytar().keytar });
    await s.set('paper', KEY);
    await s.set('paper', 'second-key');
    expect(await s.revealForGatewayClient('paper')).toBe('second-key');
  });

  it('keeps profiles apart', async () => {
    const { store: s } = store({ keytar: async () => fakeKeytar().keytar });
    await s.set('paper', 'paper-key');
    await s.set('broker-1', 'broker-key');
    expect(await s.revealForGatewayClient('paper')).toBe('paper-key');
    expect(await s.revealForGatewayClient('broker-1')).toBe('broker-key');
  });
});

describe('secret store: fallback chain', () => {
  it('falls back to safeStorage when keytar cannot load, and never writes plaintext', async () => {
    const { port } = fakeSafeStorage('gnome_libsecret');
    const { store: s, logger } = store({
      keytar: async () => {
        throw new Error("Cannot find module 'keytar'");
      },
      safeStorage: port,
    });
    const st = await s.init();
    expect(st).toMatchObject({ backend: 'safe-storage', persistent: true });
    expect(st.warning).toMatch(/keychain unavailable \(Cannot find module 'keytar'\).*gnome_libsecret/);
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect((await stat(join(dataDir, SECRETS_FILE))).mode & 0o777).toBe(0o600);
    await expectNoPlaintextOnDisk(KEY);
    expect(JSON.stringify(logger.entries)).not.toContain(KEY);
  });

  it('falls back when the first keychain call fails (no D-Bus session)', async () => {
    const k = fakeKeytar({ failWith: 'Cannot autolaunch D-Bus without X11 $DISPLAY' });
    const { store: s } = store({ keytar: async () => k.keytar, safeStorage: fakeSafeStorage().port });
    const st = await s.status();
    expect(st.backend).toBe('safe-storage');
    expect(st.warning).toContain('Cannot autolaunch D-Bus without X11 $DISPLAY');
  });

  it('falls back when a keychain call hangs', async () => {
    const k = fakeKeytar({ hang: true });
    const { store: s } = store({ keytar: async () => k.keytar, timeoutMs: 30 });
    const st = await s.status();
    expect(st.backend).toBe('memory');
    expect(st.warning).toContain('keychain write timed out after 30 ms');
  });

  it('refuses the basic_text safeStorage backend', async () => {
    const { store: s } = store({ safeStorage: fakeSafeStorage('basic_text').port });
    const st = await s.status();
    expect(st).toMatchObject({ backend: 'memory', persistent: false });
    expect(st.warning).toContain('safeStorage backend is basic_text (not secure)');
    await s.set('paper', KEY);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('refuses safeStorage when encryption is unavailable', async () => {
    const { store: s } = store({ safeStorage: fakeSafeStorage('gnome_libsecret', false).port });
    expect((await s.status()).warning).toContain('safeStorage encryption is not available');
  });

  it('accepts safeStorage without a backend name (macOS, Windows)', async () => {
    const { store: s } = store({ safeStorage: fakeSafeStorage(undefined).port });
    expect((await s.status()).backend).toBe('safe-storage');
  });

  it('keeps the key in memory only, with a warning, when nothing else works', async () => {
    const { store: s, logger } = store();
    const st = await s.init();
    expect(st).toEqual({
      backend: 'memory',
      persistent: false,
      warning:
        'No OS keychain or secure storage available (keychain: disabled; safe storage: not provided). The API key is kept in memory only and must be entered again at next start.',
    });
    expect(logger.entries.some((e) => e.level === 'warn' && /memory only/.test(e.message))).toBe(true);
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect(await readdir(dataDir)).toEqual([]);
    // A new session (a restart) has forgotten it.
    expect(await store().store.has('paper')).toBe(false);
  });

  it('persists across restarts with safeStorage', async () => {
    const { port } = fakeSafeStorage();
    await store({ safeStorage: port }).store.set('paper', KEY);
    expect(await store({ safeStorage: port }).store.revealForGatewayClient('paper')).toBe(KEY);
  });

  it('detects a changed safeStorage backend instead of decrypting garbage', async () => {
    const first = fakeSafeStorage('gnome_libsecret');
    await store({ safeStorage: first.port }).store.set('paper', KEY);
    const { store: s } = store({ safeStorage: fakeSafeStorage('kwallet5', true, first.key).port });
    expect(await s.revealForGatewayClient('paper')).toBeUndefined();
    expect((await s.status()).warning).toMatch(
      /encrypted by safeStorage backend gnome_libsecret, now kwallet5/,
    );
  });

  it('reports an undecryptable entry as missing', async () => {
    await store({ safeStorage: fakeSafeStorage().port }).store.set('paper', KEY);
    const { store: s } = store({ safeStorage: fakeSafeStorage().port }); // another app key
    expect(await s.has('paper')).toBe(false);
    expect((await s.status()).warning).toMatch(/cannot be decrypted/);
  });

  it('treats a corrupt secrets file as empty and overwrites it on the next set', async () => {
    await writeFile(join(dataDir, SECRETS_FILE), 'garbage');
    const { store: s } = store({ safeStorage: fakeSafeStorage().port });
    expect(await s.has('paper')).toBe(false);
    await s.set('paper', KEY);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
  });

  it('falls back when the keychain fails after a good start', async () => {
    const k = fakeKeytar({ failSetAfterProbe: 'org.freedesktop.Secret.Error.IsLocked' });
    const { store: s } = store({ keytar: async () => k.keytar, safeStorage: fakeSafeStorage().port });
    expect((await s.status()).backend).toBe('keychain');
    await s.set('paper', KEY);
    const st = await s.status();
    expect(st.backend).toBe('safe-storage');
    expect(st.warning).toContain('IsLocked');
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    await expectNoPlaintextOnDisk(KEY);
  });

  it('verifies a write by reading it back', async () => {
    const k = fakeKeytar({ dropWritesExceptProbe: true });
    const { store: s } = store({ keytar: async () => k.keytar });
    await s.set('paper', KEY);
    const st = await s.status();
    expect(st.backend).toBe('memory');
    expect(st.warning).toContain(
      'The OS keychain did not return the key just saved; check that the keyring is unlocked',
    );
  });
});

describe('secret store: moving between backends', () => {
  const noKeychain = async () => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  };

  it('moves a key left in safe storage into the keychain once the keychain works', async () => {
    const { port } = fakeSafeStorage();
    await store({ keytar: noKeychain, safeStorage: port }).store.set('paper', KEY);
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => k.keytar, safeStorage: port });
    expect(await s.has('paper')).toBe(true);
    expect(await s.revealForGatewayClient('paper')).toBe(KEY);
    expect(k.items.get('OrderDesk/paper')).toBe(KEY);
    expect(await store({ keytar: noKeychain, safeStorage: port }).store.has('paper')).toBe(false);
  });

  it('clear removes the key from the keychain and from an older safe-storage file', async () => {
    const { port } = fakeSafeStorage();
    await store({ keytar: noKeychain, safeStorage: port }).store.set('broker-1', KEY);
    const k = fakeKeytar();
    const { store: s } = store({ keytar: async () => k.keytar, safeStorage: port });
    await s.set('paper', 'other-key');
    await s.clear('broker-1');
    await s.clear('paper');
    expect(k.items.size).toBe(0);
    expect(await store({ keytar: noKeychain, safeStorage: port }).store.has('broker-1')).toBe(false);
  });
});
