// Fakes for the secret store's collaborators: a keytar-shaped keychain and a safeStorage that
// really encrypts (AES-256-GCM with a per-instance key), so "no plaintext on disk" is meaningful.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeytarLike } from '../../src-main/core/secrets/index.js';
import type { SafeStoragePort } from '../../src-main/core/ports.js';

export function fakeKeytar(
  behaviour: {
    failWith?: string;
    hang?: boolean;
    dropWritesExceptProbe?: boolean;
    failSetAfterProbe?: string;
  } = {},
) {
  const items = new Map<string, string>();
  let calls = 0;
  const gate = async () => {
    calls += 1;
    if (behaviour.hang) await new Promise(() => undefined);
    if (behaviour.failWith) throw new Error(behaviour.failWith);
  };
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      await gate();
      return items.get(`${service}/${account}`) ?? null;
    },
    async setPassword(service, account, password) {
      await gate();
      const probe = account.startsWith('__');
      if (!probe && behaviour.failSetAfterProbe) throw new Error(behaviour.failSetAfterProbe);
      if (!probe && behaviour.dropWritesExceptProbe) return;
      items.set(`${service}/${account}`, password);
    },
    async deletePassword(service, account) {
      await gate();
      return items.delete(`${service}/${account}`);
    },
  };
  return { keytar, items, calls: () => calls };
}

export function fakeSafeStorage(
  backend: string | undefined = 'gnome_libsecret',
  available = true,
  key = randomBytes(32),
) {
  const port: SafeStoragePort = {
    isEncryptionAvailable: () => available,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body]);
    },
    decryptString(blob) {
      const iv = blob.subarray(3, 15);
      const d = createDecipheriv('aes-256-gcm', key, iv);
      d.setAuthTag(blob.subarray(15, 31));
      return Buffer.concat([d.update(blob.subarray(31)), d.final()]).toString('utf8');
    },
  };
  if (backend !== undefined) port.getSelectedStorageBackend = () => backend;
  return { port, key };
}
