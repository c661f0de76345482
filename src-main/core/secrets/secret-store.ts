// Over 300 lines: one store over three backends, each key's origin binding and its redaction values.
// The API key store: one key per profile (account = profile id), in the first backend that works:
// OS keychain via keytar → Electron safeStorage (never its basic_text backend) → session memory.
// There is no plaintext tier. The key flows in (set) from the renderer and out only to the gateway
// client, through a method whose name says so; the router must expose only the RouterSecretStore view.
// A gateway profile's key is stored with the origin it was entered for (key-binding.ts).
import { join } from 'node:path';
import { ApiKeyInput, ProfileId, errorMessage, type SecretStatus } from '../../contract/index.js';
import { CoreError } from '../core-error.js';
import type { Logger, Paths, SafeStoragePort, SecretBackend } from '../ports.js';
import { defaultKeytarLoader, keytarBackend, loadKeytar, type KeytarLoader } from './keytar-backend.js';
import { decodeStoredKey, encodeStoredKey, type BoundKey } from './key-binding.js';
import { memoryBackend } from './memory-backend.js';
import { safeStorageBackend, safeStorageUnusable, type SafeStorageBackend } from './safe-storage-backend.js';

/** invalid_input: a bad profile id or key (never echoed); secret_store: the store itself failed. */
export class SecretStoreError extends CoreError {
  override name = 'SecretStoreError';
  declare readonly kind: 'invalid_input' | 'secret_store';
  constructor(kind: 'invalid_input' | 'secret_store', message: string) {
    super(kind, message);
  }
}

export interface SecretStoreOptions {
  /** Keychain service name; stable so that a later backend (e.g. @napi-rs/keyring) can migrate. */
  service: string;
  /** Loads keytar; defaults to `import('keytar')`. Pass `null` to skip the keychain. */
  keytar?: KeytarLoader | null;
  safeStorage?: SafeStoragePort;
  paths: Paths;
  logger: Logger;
  /** Per keychain call; a hung D-Bus or unlock prompt must not hang the app. */
  timeoutMs?: number;
}

/** The part of the store the IPC router may expose: write-only for the key itself. */
export interface RouterSecretStore {
  /** `origin`: the scheme://host:port the key is for (gateway profiles); the key goes nowhere else. */
  set(profileId: string, key: string, origin?: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
  clear(profileId: string): Promise<void>;
  status(): Promise<SecretStatus>;
}

export interface SecretStore extends RouterSecretStore {
  /** Picks the backend now (otherwise the first call does). */
  init(): Promise<SecretStatus>;
  /**
   * The key in clear, for the gateway client in main ONLY (its `getApiKey`). Never route this to
   * IPC, never log its result.
   */
  revealForGatewayClient(profileId: string): Promise<string | undefined>;
  /** The same, with the origin the key was entered for (none: stored unbound). */
  revealBoundForGatewayClient(profileId: string): Promise<BoundKey | undefined>;
  /**
   * Binds a key stored unbound by an earlier session (a persistent store only) to `origin`, in place.
   * 'bound' when it did, 'unchanged' when there was nothing to bind. A failed write throws a
   * SecretStoreError and the key stays bound to `origin` in this session's memory all the same.
   */
  bindUnboundKey(profileId: string, origin: string): Promise<'bound' | 'unchanged'>;
  /** Key values seen this session, for log/journal redaction. */
  valuesForRedaction(): readonly string[];
  /**
   * Drops the keys held in memory (all, or one profile's), so the next reveal reads the backend
   * again: on a profile switch, a key changed by another process (the CLI) is picked up.
   */
  forget(profileId?: string): void;
}

export const SECRETS_FILE = 'secrets.enc.json';
const PROBE_ACCOUNT = '__orderdesk_probe__';

type Kind = SecretStatus['backend'];
const STORE_NAME: Record<Kind, string> = {
  keychain: 'the OS keychain',
  'safe-storage': 'the encrypted key file',
  memory: 'the in-memory key store',
};
/** What to check when a store loses a write: a sentence the user can act on. */
const READ_BACK_ADVICE: Record<Kind, string> = {
  keychain:
    'The OS keychain did not return the key just saved; check that the keyring is unlocked (gnome-keyring/KWallet/Keychain) and save the key again',
  'safe-storage': `The encrypted key file did not return the key just saved; check that ${SECRETS_FILE} in the data folder is writable and save the key again`,
  memory:
    'The in-memory key store did not return the key just saved; restart OrderDesk and save the key again',
};

interface Active {
  kind: Kind;
  backend: SecretBackend;
  warning?: string;
}

/** One line, bounded: error texts end up in a UI banner. */
function brief(err: unknown): string {
  const line = errorMessage(err);
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function checkProfileId(profileId: string): string {
  const r = ProfileId.safeParse(profileId);
  if (!r.success)
    throw new SecretStoreError('invalid_input', r.error.issues[0]?.message ?? 'invalid profile id');
  return r.data;
}

export function createSecretStore(options: SecretStoreOptions): SecretStore {
  const { service, logger } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  const loader = options.keytar === undefined ? defaultKeytarLoader : options.keytar;
  const filePath = join(options.paths.dataDir, SECRETS_FILE);
  const seen = new Set<string>();
  /** Why each tier was skipped, for the status warning. */
  const skipped: { keychain?: string; safeStorage?: string } = {};
  let active: Active | undefined;
  let selecting: Promise<Active> | undefined;
  let safe: SafeStorageBackend | undefined;
  // Every operation runs in turn: the file backend reads-modifies-writes, and a fallback in the
  // middle of one call must not race another.
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * Keys revealed to the gateway client, per profile, in this process's memory only: a keychain read
   * per order costs 0.2–0.8 ms on the acknowledgement path. Dropped on set, clear, forget (profile
   * switch) and any backend fallback; `generation` keeps a read that started before such a change
   * from putting the old key back.
   */
  const revealed = new Map<string, BoundKey>();
  let generation = 0;
  /**
   * Origins of unbound keys whose binding could not be written (bindUnboundKey): they hold for this
   * session; dropped when the profile's key is set or cleared.
   */
  const pinned = new Map<string, string>();
  function invalidate(account?: string): void {
    generation += 1;
    if (account === undefined) revealed.clear();
    else revealed.delete(account);
  }

  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = queue.then(task, task);
    queue = result.catch(() => undefined);
    return result;
  }

  async function tryKeychain(): Promise<Active | undefined> {
    if (!loader) {
      skipped.keychain = 'disabled';
      return undefined;
    }
    try {
      const keytar = await loadKeytar(loader);
      const backend = keytarBackend(keytar, service, timeoutMs);
      // The first call is where a missing Secret Service shows ("Cannot autolaunch D-Bus without X11
      // $DISPLAY"); a full round trip also catches a keyring that reads but cannot write.
      const probe = `probe-${Date.now()}`;
      await backend.set(PROBE_ACCOUNT, probe);
      const back = await backend.get(PROBE_ACCOUNT);
      await backend.delete(PROBE_ACCOUNT);
      if (back !== probe) throw new Error('keychain did not return what was written');
      return { kind: 'keychain', backend };
    } catch (err) {
      skipped.keychain = brief(err);
      logger.warn('OS keychain unavailable', { reason: skipped.keychain });
      return undefined;
    }
  }

  function trySafeStorage(): Active | undefined {
    if (!options.safeStorage) {
      skipped.safeStorage = 'not provided';
      return undefined;
    }
    const why = safeStorageUnusable(options.safeStorage);
    if (why) {
      skipped.safeStorage = why;
      logger.warn('safeStorage unusable', { reason: why });
      return undefined;
    }
    safe = safeStorageBackend(options.safeStorage, filePath);
    return {
      kind: 'safe-storage',
      backend: safe,
      warning: `OS keychain unavailable (${skipped.keychain}); the API key is encrypted with the system's safe storage (${safe.backendName}) instead`,
    };
  }

  function memory(): Active {
    const warning = `No OS keychain or secure storage available (keychain: ${skipped.keychain}; safe storage: ${skipped.safeStorage}). The API key is kept in memory only and must be entered again at next start.`;
    logger.warn('API key kept in memory only', {
      keychain: skipped.keychain,
      safeStorage: skipped.safeStorage,
    });
    return { kind: 'memory', backend: memoryBackend(), warning };
  }

  async function select(from: Kind = 'keychain'): Promise<Active> {
    if (from === 'keychain') {
      const k = await tryKeychain();
      if (k) return k;
    }
    if (from !== 'memory') {
      const s = trySafeStorage();
      if (s) return s;
    }
    return memory();
  }

  async function current(): Promise<Active> {
    if (active) return active;
    selecting ??= select().then((a) => (active = a));
    return selecting;
  }

  /** A backend's failure as the typed error the router answers with (a read-back one already is). */
  function storeFailure(
    what: string,
    kind: Kind,
    err: unknown,
    earlier?: { kind: Kind; reason: string },
  ): SecretStoreError {
    // A read-back failure already says what to check; any other throw is described here.
    const said =
      err instanceof SecretStoreError
        ? err.message
        : `The API key could not be ${what}: ${STORE_NAME[kind]} failed (${brief(err)})`;
    // The tier tried first failed too: its reason is usually the one to act on.
    const before = earlier ? `. Before that, ${STORE_NAME[earlier.kind]} failed: ${earlier.reason}` : '';
    return new SecretStoreError('secret_store', `${said}${before}`);
  }

  /**
   * Runs `op` on the active backend; if a persistent backend fails, falls to the next tier and retries
   * once. A failure that remains is a SecretStoreError of kind secret_store, whatever was thrown.
   */
  async function run<T>(what: string, op: (b: SecretBackend, kind: Kind) => Promise<T>): Promise<T> {
    const a = await current();
    try {
      return await op(a.backend, a.kind);
    } catch (err) {
      if (a.kind === 'memory') throw storeFailure(what, a.kind, err);
      const reason = brief(err);
      if (a.kind === 'keychain') skipped.keychain = reason;
      else skipped.safeStorage = reason;
      logger.warn('secret backend failed; falling back', { backend: a.kind, reason });
      const next = await select(a.kind === 'keychain' ? 'safe-storage' : 'memory');
      active = next;
      // Another store may hold other keys (or none): nothing read from the old one stays valid.
      invalidate();
      try {
        return await op(next.backend, next.kind);
      } catch (again) {
        throw storeFailure(what, next.kind, again, { kind: a.kind, reason });
      }
    }
  }

  /** The safeStorage file, when usable, as a place an earlier session may have left a key. */
  function olderFile(): SafeStorageBackend | undefined {
    if (!options.safeStorage || safeStorageUnusable(options.safeStorage)) return undefined;
    return safeStorageBackend(options.safeStorage, filePath);
  }

  /**
   * Reads a key from the active backend. When the keychain is active but lacks it, a key an earlier
   * session stored with safeStorage (keychain unavailable then) is moved into the keychain.
   */
  async function lookup(account: string): Promise<string | null> {
    const key = await run('read', (b) => b.get(account));
    if (key !== null || active?.kind !== 'keychain') return key;
    const file = olderFile();
    const older = await file?.get(account).catch(() => null);
    if (!file || older === undefined || older === null) return null;
    try {
      await active.backend.set(account, older);
      if ((await active.backend.get(account)) === older) {
        await file.delete(account);
        logger.info('moved an API key from safe storage to the OS keychain', { profileId: account });
      }
    } catch (err) {
      logger.warn('could not move an API key to the OS keychain', { profileId: account, reason: brief(err) });
    }
    return older;
  }

  async function status(): Promise<SecretStatus> {
    const a = await current();
    const problem = a.kind === 'safe-storage' ? safe?.problem() : undefined;
    const warning = [a.warning, problem].filter(Boolean).join('. ');
    return { backend: a.kind, persistent: a.kind !== 'memory', ...(warning ? { warning } : {}) };
  }

  async function revealBound(profileId: string): Promise<BoundKey | undefined> {
    const account = checkProfileId(profileId);
    const held = revealed.get(account);
    if (held !== undefined) return held;
    const asked = generation;
    return enqueue(async () => {
      const value = await lookup(account);
      if (value === null) return undefined;
      const decoded = decodeStoredKey(value);
      const pin = pinned.get(account);
      const bound = decoded.origin === undefined && pin !== undefined ? { ...decoded, origin: pin } : decoded;
      seen.add(bound.key);
      // Not when a set, clear or forget came in meanwhile: what was read may be the old key.
      if (asked === generation) revealed.set(account, bound);
      return bound;
    });
  }

  return {
    init: () => enqueue(status),
    status: () => enqueue(status),
    async set(profileId, key, origin) {
      const account = checkProfileId(profileId);
      const parsed = ApiKeyInput.safeParse(key);
      // The message never echoes the key.
      if (!parsed.success)
        throw new SecretStoreError('invalid_input', parsed.error.issues[0]?.message ?? 'invalid API key');
      seen.add(parsed.data);
      const value = encodeStoredKey(parsed.data, origin);
      // Before queueing: a reveal called from now on waits for this write instead of using the old key.
      invalidate(account);
      pinned.delete(account);
      return enqueue(() =>
        run('saved', async (b, kind) => {
          await b.set(account, value);
          // Read back before reporting success: a keyring that silently drops writes is caught here.
          if ((await b.get(account)) !== value)
            throw new SecretStoreError('secret_store', READ_BACK_ADVICE[kind]);
        }),
      );
    },
    async has(profileId) {
      const account = checkProfileId(profileId);
      return enqueue(async () => (await lookup(account)) !== null);
    },
    async clear(profileId) {
      const account = checkProfileId(profileId);
      invalidate(account);
      pinned.delete(account);
      return enqueue(async () => {
        await run('removed', (b) => b.delete(account));
        // "Clear key" means everywhere: also a copy left by an earlier session's fallback.
        if (active?.kind === 'keychain')
          await olderFile()
            ?.delete(account)
            .catch(() => false);
      });
    },
    async revealForGatewayClient(profileId) {
      return (await revealBound(profileId))?.key;
    },
    revealBoundForGatewayClient: revealBound,
    async bindUnboundKey(profileId, origin) {
      const account = checkProfileId(profileId);
      return enqueue(async () => {
        // A memory store starts empty: what it holds was given this session, never by an earlier one.
        const a = await current();
        if (a.kind === 'memory' || pinned.has(account)) return 'unchanged';
        // Pinned first: if the store cannot be read now, a key read later still goes to `origin` only.
        pinned.set(account, origin);
        invalidate(account);
        const value = await lookup(account);
        const found = value === null ? undefined : decodeStoredKey(value);
        if (!found || found.origin !== undefined) {
          pinned.delete(account);
          return 'unchanged';
        }
        seen.add(found.key);
        const next = encodeStoredKey(found.key, origin);
        // Where the key was found (the read may have fallen back a tier), and no fallback from there:
        // a refusal of this write must not move every profile's key to another tier.
        const { backend, kind } = await current();
        try {
          await backend.set(account, next);
          if ((await backend.get(account)) !== next) throw new Error('it did not return what was written');
        } catch (err) {
          throw storeFailure('saved with its address', kind, err);
        }
        pinned.delete(account);
        return 'bound';
      });
    },
    valuesForRedaction: () => [...seen],
    forget(profileId) {
      invalidate(profileId === undefined ? undefined : checkProfileId(profileId));
    },
  };
}
