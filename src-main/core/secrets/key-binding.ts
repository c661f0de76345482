// How a key is kept in its store together with the origin it was entered for (scheme://host:port of
// the profile's base URL then): one value, so the two are written and read in one step. A value
// without the envelope is a key stored before keys were bound (or the paper profile's own): unbound.

/** A stored key and, when bound, the origin it may be sent to. */
export interface BoundKey {
  key: string;
  origin?: string;
}

const MARK = 'orderdesk-bound-key';

export function encodeStoredKey(key: string, origin: string | undefined): string {
  return origin ? JSON.stringify({ [MARK]: 1, origin, key }) : key;
}

export function decodeStoredKey(value: string): BoundKey {
  if (!value.startsWith(`{"${MARK}"`)) return { key: value };
  try {
    const v = JSON.parse(value) as Record<string, unknown>;
    if (typeof v.key === 'string' && typeof v.origin === 'string') return { key: v.key, origin: v.origin };
  } catch {
    // Not our envelope after all: a key that happens to look like one.
  }
  return { key: value };
}
