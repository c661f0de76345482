// Session-only secrets: the last resort when no OS-protected storage exists. Never persisted.
import type { SecretBackend } from '../ports.js';

export function memoryBackend(): SecretBackend {
  const map = new Map<string, string>();
  return {
    get: async (account) => map.get(account) ?? null,
    set: async (account, secret) => {
      map.set(account, secret);
    },
    delete: async (account) => map.delete(account),
  };
}
