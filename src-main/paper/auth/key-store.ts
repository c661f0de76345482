// API keys of the paper gateway. Only SHA-256 hashes are stored (in <dataDir>/keys.json); each key
// is its own account, identified by the first 16 hex characters of its hash. A 256-bit random key
// needs no slow hash: SHA-256 of it cannot be brute-forced.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../private-files.js';

export const KEY_FILE = 'keys.json';

interface StoredKey {
  hash: string;
  account: string;
  created: string;
}
interface KeyFile {
  version: 1;
  keys: StoredKey[];
}

export interface KeyStore {
  readonly file: string;
  /** Number of stored keys. */
  readonly size: number;
  /** The account of a key, or undefined. Compares against every stored hash in constant time. */
  verify(apikey: string): string | undefined;
  /** Stores a key's hash (idempotent) and returns its account id. */
  add(apikey: string): string;
  accounts(): string[];
}

/** A fresh key: 64 hex characters from 32 random bytes. */
export function generateApiKey(): string {
  return randomBytes(32).toString('hex');
}

export function hashApiKey(apikey: string): string {
  return createHash('sha256').update(apikey, 'utf8').digest('hex');
}

/** Stable account id of a key: the first 16 hex characters of its hash. */
export function accountIdOf(apikey: string): string {
  return hashApiKey(apikey).slice(0, 16);
}

function readKeyFile(file: string): KeyFile {
  if (!existsSync(file)) return { version: 1, keys: [] };
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error(`${file} is not a key store (no "keys" list)`);
  const out: StoredKey[] = [];
  for (const k of keys as unknown[]) {
    const r = k as Partial<StoredKey>;
    if (typeof r.hash !== 'string' || !/^[0-9a-f]{64}$/.test(r.hash)) {
      throw new Error(`${file} holds an entry without a SHA-256 hash`);
    }
    out.push({ hash: r.hash, account: r.hash.slice(0, 16), created: String(r.created ?? '') });
  }
  return { version: 1, keys: out };
}

/** Opens (creating the directory if needed) the key store of a data directory. */
export function openKeyStore(dataDir: string): KeyStore {
  ensurePrivateDir(dataDir);
  const file = join(dataDir, KEY_FILE);
  const data = readKeyFile(file);
  let hashes = data.keys.map((k) => Buffer.from(k.hash, 'hex'));
  // Keys already verified → account: every request carries its key, and keys are never removed.
  // Only known keys enter (bounded), so unknown keys cannot grow it; they still pay the hash.
  const verified = new Map<string, string>();
  const VERIFIED_MAX = 1024;

  const save = () => {
    // Write-then-rename so a crash never leaves a half-written store.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  };

  return {
    file,
    get size() {
      return data.keys.length;
    },
    verify(apikey) {
      const known = verified.get(apikey);
      if (known !== undefined) return known;
      if (apikey.length === 0 || apikey.length > 256) return undefined;
      const h = createHash('sha256').update(apikey, 'utf8').digest();
      let found = -1;
      // No early exit: every stored hash is compared so timing does not tell which one matched.
      for (let i = 0; i < hashes.length; i++) {
        const stored = hashes[i];
        if (stored && timingSafeEqual(stored, h) && found < 0) found = i;
      }
      const account = found >= 0 ? data.keys[found]?.account : undefined;
      if (account !== undefined && verified.size < VERIFIED_MAX) verified.set(apikey, account);
      return account;
    },
    add(apikey) {
      if (apikey.trim() === '' || apikey.length > 256) throw new Error('API key must be 1-256 characters');
      const hash = hashApiKey(apikey);
      if (!data.keys.some((k) => k.hash === hash)) {
        data.keys.push({ hash, account: hash.slice(0, 16), created: new Date().toISOString() });
        hashes = data.keys.map((k) => Buffer.from(k.hash, 'hex'));
        save();
      }
      return hash.slice(0, 16);
    },
    accounts() {
      return data.keys.map((k) => k.account);
    },
  };
}
