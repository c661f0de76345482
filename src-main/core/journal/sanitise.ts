// What the journal may store: the request and response with every key-bearing field removed and
// every known key value redacted (one redaction implementation: the gateway's `redact`).
import { redact } from '../../gateway/redact.js';

const KEY_FIELD = /^(api[-_]?key|x-api-key|authorization)$/i;

/** A deep copy without key-bearing fields; functions, symbols and cycles are dropped. */
export function stripKeyFields(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => stripKeyFields(v, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!KEY_FIELD.test(k)) out[k] = stripKeyFields(v, seen);
  return out;
}

/** The `apikey` value a request carries, so that it can be redacted wherever else it shows up. */
export function keyValuesIn(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value)
    .filter(([k, v]) => KEY_FIELD.test(k) && typeof v === 'string' && v !== '')
    .map(([, v]) => v as string);
}

export function sanitise<T>(value: T, secrets: readonly string[]): unknown {
  return redact(stripKeyFields(value), secrets);
}

/** Every order id a request or response names (orderid fields, canceled_orders lists). */
export function orderIdsIn(value: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) orderIdsIn(v, out, depth + 1);
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    const key = k.toLowerCase();
    if (key === 'orderid' && (typeof v === 'string' || typeof v === 'number') && String(v) !== '')
      out.add(String(v));
    else if (key === 'canceled_orders' && Array.isArray(v))
      for (const id of v)
        if (typeof id === 'string' || typeof id === 'number') out.add(String(id));
        else orderIdsIn(v, out, depth + 1);
  }
  return out;
}
