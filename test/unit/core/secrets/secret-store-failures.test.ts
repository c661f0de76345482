// The secret store's typed failures, and its validation and redaction.
import { describe, expect, it } from 'vitest';
import {
  createMemoryLogger,
  createRedactingLogger,
  SecretStoreError,
  type KeytarLike,
} from '../../../../src-main/core/secrets/index.js';
import { fakeKeytar, fakeSafeStorage } from '../../../support/secret-fakes.js';
import { KEY, store, useDataDir } from './secret-store-fixture.js';

useDataDir();

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
