// The shared setup of the secret-store-*.test.ts files: a fresh data dir per test, a store over it,
// and the check that no file holds a key in plain text.
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import {
  createMemoryLogger,
  createSecretStore,
  type SecretStoreOptions,
} from '../../../../src-main/core/secrets/index.js';

export const KEY = 'a1b2c3d4e5f6SECRETKEYa1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6abcd';
export let dataDir: string;

/** A fresh data dir for each test (dataDir follows it). */
export function useDataDir(): void {
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orderdesk-secrets-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
}

export function store(o: Partial<SecretStoreOptions> = {}) {
  const logger = createMemoryLogger();
  return {
    logger,
    store: createSecretStore({ service: 'OrderDesk', keytar: null, paths: { dataDir }, logger, ...o }),
  };
}

/** Every file under the data dir must be free of the key in any plain encoding. */
export async function expectNoPlaintextOnDisk(key: string) {
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
