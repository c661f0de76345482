// The key store a CLI run hands the core: ORDERDESK_API_KEY in a memory-only store (it never reaches
// the keychain or a file), else the profile's entry in the OS keychain, as the app keeps it.
import { ApiKeyInput, type Profile } from '../contract/index.js';
import { KEYCHAIN_SERVICE, type Logger } from '../core/index.js';
import {
  createSecretStore,
  SecretStoreError,
  type KeytarLoader,
  type SecretStore,
} from '../core/secrets/index.js';
import { API_KEY_ENV } from './args.js';

export type OpenedKeyStore =
  | { ok: true; store: SecretStore }
  | { ok: false; kind: 'invalid_input' | 'no_key' | 'secret_store'; message: string };

export async function openKeyStore(o: {
  env: Record<string, string | undefined>;
  profile: Profile;
  dataDir: string;
  logger: Logger;
  /** keytar loader; `null` skips the keychain. */
  keytar?: KeytarLoader | null;
}): Promise<OpenedKeyStore> {
  const envKey = o.env[API_KEY_ENV]?.trim();
  const fromEnv = envKey !== undefined && envKey !== '';
  const store = createSecretStore({
    service: KEYCHAIN_SERVICE,
    paths: { dataDir: o.dataDir },
    logger: o.logger,
    // The environment's key stays in memory: no keychain tier, no safe-storage file.
    ...(fromEnv ? { keytar: null } : o.keytar !== undefined ? { keytar: o.keytar } : {}),
  });
  try {
    if (fromEnv) {
      // Checked here so that the refusal names the variable; the schema's message never echoes the key.
      const key = ApiKeyInput.safeParse(envKey);
      if (!key.success)
        return {
          ok: false,
          kind: 'invalid_input',
          message: `${API_KEY_ENV}: ${key.error.issues[0]?.message ?? 'not a valid API key'}`,
        };
      await store.set(o.profile.id, key.data);
    } else if (!(await store.has(o.profile.id))) {
      return {
        ok: false,
        kind: 'no_key',
        message: `no API key for profile ${o.profile.id}: set ${API_KEY_ENV} or store the key for profile ${o.profile.id} in the keychain`,
      };
    }
  } catch (err) {
    if (err instanceof SecretStoreError) return { ok: false, kind: err.kind, message: err.message };
    throw err;
  }
  return { ok: true, store };
}
