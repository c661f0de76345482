// Settings never hold secrets. Any field whose name looks like a credential is refused on write
// and dropped on read, wherever it is nested.

const SECRET_WORDS = ['apikey', 'secret', 'password', 'passphrase', 'token', 'authorization', 'credential'];

export function looksLikeSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[^a-z]/g, '');
  return SECRET_WORDS.some((w) => k.includes(w));
}

/** Paths (`profiles.1.apikey`) of every secret-looking key in a JSON value. */
export function findSecretKeys(value: unknown, path: string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => findSecretKeys(v, [...path, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    looksLikeSecretKey(k) ? [[...path, k].join('.')] : findSecretKeys(v, [...path, k]),
  );
}

/** A copy of a JSON value without secret-looking keys. */
export function withoutSecretKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !looksLikeSecretKey(k))
      .map(([k, v]) => [k, withoutSecretKeys(v)]),
  );
}
