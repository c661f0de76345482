// Redaction for anything that may reach a log: the key's value anywhere in strings, and every field
// whose name says it holds a key (apikey, X-API-KEY, Authorization), whatever its value.

export const REDACTED = '[redacted]';

const SECRET_FIELD = /^(api[-_]?key|x-api-key|authorization|secret|password)$/i;

function scrub(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  // Keys in query strings too (the client never puts one there; third-party URLs might).
  return out.replace(/([?&](?:api[-_]?key)=)[^&#\s]*/gi, `$1${REDACTED}`);
}

/**
 * Returns a copy of `value` with every occurrence of each secret replaced and secret-named fields
 * blanked. Handles strings, arrays, plain objects, Maps, Headers, Errors and cycles; Headers and
 * Errors come back as plain objects (that is what a log line needs).
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v, secrets);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const item of v) out.push(walk(item));
      return out;
    }
    if (v instanceof Map) {
      const out = new Map<unknown, unknown>();
      seen.set(v, out);
      for (const [k, item] of v) {
        out.set(k, typeof k === 'string' && SECRET_FIELD.test(k) ? REDACTED : walk(item));
      }
      return out;
    }
    if (typeof Headers !== 'undefined' && v instanceof Headers) {
      const out: Record<string, string> = {};
      seen.set(v, out);
      v.forEach((item, k) => {
        out[k] = SECRET_FIELD.test(k) ? REDACTED : scrub(item, secrets);
      });
      return out;
    }
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    if (v instanceof Error) {
      out.name = v.name;
      out.message = scrub(v.message, secrets);
      if (v.stack) out.stack = scrub(v.stack, secrets);
      if (v.cause !== undefined) out.cause = walk(v.cause);
    }
    for (const [k, item] of Object.entries(v)) {
      out[k] = SECRET_FIELD.test(k) ? REDACTED : walk(item);
    }
    return out;
  };
  return walk(value) as T;
}
