// keytar (libsecret / Keychain / Credential Manager) as a SecretBackend. keytar is an optional
// native module: it is loaded lazily so that a missing or broken build degrades instead of crashing.
import type { SecretBackend } from '../ports.js';

export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Returns the keytar module (or anything keytar-shaped); may reject. */
export type KeytarLoader = () => Promise<unknown>;

// A variable specifier keeps bundlers and tsc from resolving the optional module at build time.
const KEYTAR_MODULE = 'keytar';
export const defaultKeytarLoader: KeytarLoader = () => import(KEYTAR_MODULE);

function isKeytar(m: unknown): m is KeytarLike {
  if (m === null || (typeof m !== 'object' && typeof m !== 'function')) return false;
  const k = m as Record<string, unknown>;
  return (
    typeof k.getPassword === 'function' &&
    typeof k.setPassword === 'function' &&
    typeof k.deletePassword === 'function'
  );
}

/** keytar is CommonJS: under ESM the functions sit on `default` as well as (maybe) the namespace. */
export async function loadKeytar(loader: KeytarLoader): Promise<KeytarLike> {
  const mod = await loader();
  const candidate = isKeytar(mod) ? mod : (mod as { default?: unknown } | null)?.default;
  if (!isKeytar(candidate)) throw new Error('keytar module has no getPassword/setPassword/deletePassword');
  return candidate;
}

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** The native call cannot be cancelled; the caller treats a timeout as "keychain unusable". */
function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function keytarBackend(keytar: KeytarLike, service: string, timeoutMs: number): SecretBackend {
  return {
    get: (account) => withTimeout(keytar.getPassword(service, account), timeoutMs, 'keychain read'),
    set: (account, secret) =>
      withTimeout(keytar.setPassword(service, account, secret), timeoutMs, 'keychain write'),
    delete: (account) => withTimeout(keytar.deletePassword(service, account), timeoutMs, 'keychain delete'),
  };
}
