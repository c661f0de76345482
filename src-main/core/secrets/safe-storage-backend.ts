// Electron safeStorage as a SecretBackend: each key encrypted by the OS-protected app key, the
// ciphertexts kept in one 0600 JSON file written atomically. The backend that encrypted them is
// recorded, so a change (e.g. gnome-libsecret → kwallet) is detected instead of decrypting garbage.
import { readFile } from 'node:fs/promises';
import { errorCode, errorMessage } from '../../contract/index.js';
import type { SafeStoragePort, SecretBackend } from '../ports.js';
import { writeFileAtomic } from '../settings/atomic-file.js';

const FORMAT = 'orderdesk-secrets/1';
/** Linux backends that are not secure: basic_text uses a hard-coded password; unknown means "not ready". */
const INSECURE_BACKENDS = new Set(['basic_text', 'unknown']);

interface SecretsFile {
  format: typeof FORMAT;
  /** getSelectedStorageBackend() at write time; 'default' on macOS/Windows. */
  backend: string;
  /** account → base64 ciphertext. */
  entries: Record<string, string>;
}

/** Why safeStorage cannot be used, or undefined when it can. */
export function safeStorageUnusable(port: SafeStoragePort): string | undefined {
  let available: boolean;
  let backend: string | undefined;
  try {
    available = port.isEncryptionAvailable();
    backend = port.getSelectedStorageBackend?.();
  } catch (err) {
    return `safeStorage failed: ${errorMessage(err)}`;
  }
  if (!available) return 'safeStorage encryption is not available';
  if (backend !== undefined && INSECURE_BACKENDS.has(backend))
    return `safeStorage backend is ${backend} (not secure)`;
  return undefined;
}

export interface SafeStorageBackend extends SecretBackend {
  /** Set when the file was written by another backend and its entries cannot be read. */
  readonly problem: () => string | undefined;
  readonly backendName: string;
}

export function safeStorageBackend(port: SafeStoragePort, filePath: string): SafeStorageBackend {
  const backendName = port.getSelectedStorageBackend?.() ?? 'default';
  let problem: string | undefined;

  async function readEntries(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return {};
      throw err;
    }
    let parsed: Partial<SecretsFile>;
    try {
      parsed = JSON.parse(text) as Partial<SecretsFile>;
    } catch {
      problem = `${filePath} is not valid JSON; stored keys are lost`;
      return {};
    }
    if (parsed.format !== FORMAT || typeof parsed.entries !== 'object' || parsed.entries === null) {
      problem = `${filePath} has an unknown format; stored keys are lost`;
      return {};
    }
    if (parsed.backend !== backendName) {
      problem = `stored keys were encrypted by safeStorage backend ${String(parsed.backend)}, now ${backendName}; enter the key again`;
      return {};
    }
    return parsed.entries;
  }

  async function writeEntries(entries: Record<string, string>): Promise<void> {
    const file: SecretsFile = { format: FORMAT, backend: backendName, entries };
    await writeFileAtomic(filePath, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  }

  return {
    backendName,
    problem: () => problem,
    async get(account) {
      const blob = (await readEntries())[account];
      if (blob === undefined) return null;
      try {
        return port.decryptString(Buffer.from(blob, 'base64'));
      } catch (err) {
        problem = `the stored key for ${account} cannot be decrypted (${errorMessage(err)}); enter it again`;
        return null;
      }
    },
    async set(account, secret) {
      const entries = { ...(await readEntries()), [account]: port.encryptString(secret).toString('base64') };
      await writeEntries(entries);
    },
    async delete(account) {
      const entries = await readEntries();
      if (!(account in entries)) return false;
      delete entries[account];
      await writeEntries(entries);
      return true;
    },
  };
}
