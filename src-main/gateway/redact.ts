// Redaction for anything that leaves the core (the bridge, the journal, a log, an event): every field
// whose name says it holds a key (apikey, X-API-KEY, Authorization) is blanked whatever its value, and
// in every string each key is removed in any letter case, together with any run of KEY_RUN or more
// consecutive characters of it (a gateway echoing a 40-character prefix, or the key upper-cased).
// The one implementation: the gateway client, the router's results, the journal and the logger use it.

export const REDACTED = '[redacted]';
/** The shortest run of a key's characters that is removed wherever it appears. */
export const KEY_RUN = 12;

const SECRET_FIELD = /^(api[-_]?key|x-api-key|authorization|secret|password)$/i;
const QUERY_KEY = /([?&](?:api[-_]?key)=)[^&#\s]*/gi;

/**
 * Lower case, one UTF-16 unit for one: positions in the folded text are positions in the original
 * (a character whose lower case is longer, such as U+0130, stays as it is).
 */
function fold(s: string): string {
  const lower = s.toLowerCase();
  if (lower.length === s.length) return lower;
  let out = '';
  for (const unit of s.split('')) {
    const l = unit.toLowerCase();
    out += l.length === 1 ? l : unit;
  }
  return out;
}

/** The folded windows to look for: each KEY_RUN-long run of each key (a shorter key whole). */
function windowsOf(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    const k = fold(secret);
    if (k.length <= KEY_RUN) out.add(k);
    else for (let i = 0; i + KEY_RUN <= k.length; i++) out.add(k.slice(i, i + KEY_RUN));
  }
  return [...out];
}

/** The text with every stretch covered by a window replaced by one marker. */
function scrubWindows(s: string, windows: readonly string[], shortest: number): string {
  if (windows.length === 0 || s.length < shortest) return s;
  const folded = fold(s);
  let cover: Uint8Array | undefined;
  for (const w of windows) {
    let at = folded.indexOf(w);
    while (at !== -1) {
      cover ??= new Uint8Array(s.length);
      cover.fill(1, at, at + w.length);
      at = folded.indexOf(w, at + 1);
    }
  }
  if (!cover) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (cover[i]) {
      while (i < s.length && cover[i]) i++;
      out += REDACTED;
    } else {
      const from = i;
      while (i < s.length && !cover[i]) i++;
      out += s.slice(from, i);
    }
  }
  return out;
}

/** A redactor for these secrets: the windows are worked out once, not per string. */
function scrubber(secrets: readonly string[]): (s: string) => string {
  const windows = windowsOf(secrets);
  const shortest = windows.reduce((m, w) => Math.min(m, w.length), Infinity);
  return (s) => {
    const out = scrubWindows(s, windows, shortest);
    // Keys in query strings too (the client never puts one there; third-party URLs might).
    return out.includes('=') ? out.replace(QUERY_KEY, `$1${REDACTED}`) : out;
  };
}

/**
 * Returns a copy of `value` with each secret (and each long run of one) replaced in every string and
 * secret-named fields blanked (unless `fields` is false: the IPC answers and events, whose contract
 * has fields such as `apiKey` for the key's status, never its value). Handles strings, arrays, plain
 * objects, Maps, Headers, Errors and cycles; Headers and Errors come back as plain objects (that is
 * what a log line needs).
 */
export function redact<T>(value: T, secrets: readonly string[], options: { fields?: boolean } = {}): T {
  const scrub = scrubber(secrets);
  const secretField = (k: string) => options.fields !== false && SECRET_FIELD.test(k);
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
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
        out.set(k, typeof k === 'string' && secretField(k) ? REDACTED : walk(item));
      }
      return out;
    }
    if (typeof Headers !== 'undefined' && v instanceof Headers) {
      const out: Record<string, string> = {};
      seen.set(v, out);
      v.forEach((item, k) => {
        out[k] = secretField(k) ? REDACTED : scrub(item);
      });
      return out;
    }
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    if (v instanceof Error) {
      out.name = v.name;
      out.message = scrub(v.message);
      if (v.stack) out.stack = scrub(v.stack);
      if (v.cause !== undefined) out.cause = walk(v.cause);
    }
    for (const [k, item] of Object.entries(v)) {
      out[k] = secretField(k) ? REDACTED : walk(item);
    }
    return out;
  };
  return walk(value) as T;
}
