import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMemoryLogger,
  createRedactingLogger,
  createSecretStore,
  SECRETS_FILE,
  SecretStoreError,
  type KeytarLike,
  type SecretStoreOptions,
} from '../../../../src-main/core/secrets/index.js';
import { fakeKeytar, fakeSafeStorage } from '../../../support/secret-fakes.js';

const KEY = 'a1b2c3d4e5f6SECRETKEYa1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6abcd';
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'orderdesk-secrets-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function store(o: Partial<SecretStoreOptions> = {}) {
  const logger = createMemoryLogger();
  return {
    logger,
    store: createSecretStore({ service: 'OrderDesk', keytar: null, paths: { dataDir }, logger, ...o }),
  };
}

/** Every file under the data dir must be free of the key in any plain encoding. */
async function expectNoPlaintextOnDisk(key: string) {
  const needles = [
    Buffer.from(key, 'utf8'),
    Buffer.from(key, 'utf16le'),
    Buffer.from(Buffer.from(key).toString('base64')),
  ];
  for (const name of await readdir(dataDir, { recursive: true })) {
    const path = join(dataDir, name);
    if (!(await stat(path)).isFile()) continue;
    const bytes = await readFile(path);
    for (const n of needles) expect(bytes.includes(n), `${name} holds the key`).toBe(false);
  }
}

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

describe('secret store: typed failures', () => {
  /** A safeStorage whose file is written but whose decryption answers something else. */
  function garblingSafeStorage() {
    const { port } = fakeSafeStorage();
    return { ...port, decryptString: () => 'not-what-was-saved' };
  }

  it('a write no store returns is a secret_store error naming what to check, never the key', async () => {
    const k = fakeKeytar({ dropWritesExceptProbe: true });
    const { store: s } = store({ keytar: async () => k.keytar, safeStorage: garblingSafeStorage() });
    const err = await s.set('paper', KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreError);
    expect(err).toMatchObject({
      kind: 'secret_store',
      message: expect.stringMatching(
        /^The encrypted key file did not return the key just saved;.*Before that, the OS keychain failed: The OS keychain did not return the key just saved; check that the keyring is unlocked \(gnome-keyring\/KWallet\/Keychain\)/,
      ),
    });
    expect((err as Error).message).not.toContain(KEY);
  });

  it('backends that throw null or a string give a typed error, not a crash', async () => {
    // The start-up probe passes (the keychain is chosen); saving a real key throws null.
    let probe = '';
    const keytar: KeytarLike = {
      async setPassword(_service, account, password) {
        if (!account.startsWith('__')) throw null;
        probe = password;
      },
      getPassword: async (_service, account) => (account.startsWith('__') ? probe : null),
      deletePassword: async () => true,
    };
    const { port } = fakeSafeStorage();
    const safeStorage = {
      ...port,
      encryptString: () => {
        throw 'disk quota exceeded';
      },
    };
    const { store: s } = store({ keytar: async () => keytar, safeStorage });
    expect((await s.status()).backend).toBe('keychain');
    const err = await s.set('paper', KEY).catch((e: unknown) => e);
    expect(err).toMatchObject({
      kind: 'secret_store',
      message:
        'The API key could not be saved: the encrypted key file failed (disk quota exceeded). Before that, the OS keychain failed: no error detail (null was thrown)',
    });
  });

  it('a safeStorage that throws null while being checked is skipped, not a crash', async () => {
    const { port } = fakeSafeStorage();
    const safeStorage = {
      ...port,
      isEncryptionAvailable: () => {
        throw null;
      },
    };
    const { store: s } = store({ safeStorage });
    const st = await s.init();
    expect(st.backend).toBe('memory');
    expect(st.warning).toContain('safeStorage failed: no error detail (null was thrown)');
  });

  it('bad input is invalid_input, not a store failure', async () => {
    const { store: s } = store();
    await expect(s.set('../etc', KEY)).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(s.set('paper', 'has space')).rejects.toMatchObject({ kind: 'invalid_input' });
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

describe('secret store: validation and redaction', () => {
  it.each([
    ['empty', '', /cannot be empty/],
    ['513 characters', 'a'.repeat(513), /at most 512/],
    ['a space', 'abc def', /spaces or control/],
    ['a newline', 'abc\n', /spaces or control/],
    ['a control character', 'abc\u0007', /spaces or control/],
    ['a zero-width space', 'abc\u200bdef', /spaces or control/],
  ])('rejects a key with %s without echoing it', async (_label, key, message) => {
    const { store: s } = store();
    const err = await s.set('paper', key).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(message);
    if (key.length > 3) expect((err as Error).message).not.toContain(key);
  });

  it('accepts a 512-character key', async () => {
    const { store: s } = store();
    await s.set('paper', 'k'.repeat(512));
    expect(await s.has('paper')).toBe(true);
  });

  it('rejects a bad profile id', async () => {
    const { store: s } = store();
    await expect(s.set('../etc', KEY)).rejects.toThrow(/profile id/);
    await expect(s.has('')).rejects.toThrow(/profile id/);
  });

  it('remembers key values for redaction and the redacting logger uses them', async () => {
    const { store: s } = store();
    await s.set('paper', KEY);
    expect(s.valuesForRedaction()).toEqual([KEY]);
    const sink = createMemoryLogger();
    const log = createRedactingLogger(sink, () => s.valuesForRedaction());
    log.error(`call failed for ${KEY}`, { headers: { 'X-API-KEY': 'zzz' }, body: { apikey: 'zzz', n: 1 } });
    const line = JSON.stringify(sink.entries);
    expect(line).not.toContain(KEY);
    expect(line).not.toContain('zzz');
    expect(sink.entries[0]?.fields).toMatchObject({ body: { n: 1 } });
  });
});

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
