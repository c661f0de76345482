// Per-key, per-route moving-window rate limiting (gateway-behaviour §1.6 and Decisions 9): at most
// `limit` requests in any 1000 ms window. Each route has its own window, as upstream's per-route
// limiter decorators do, so polling five books cannot starve search; the bucket only picks the limit.
// Windows run on the gateway's Clock, so a test moves time past a window instead of waiting for it.
import { systemClock, type Clock } from '../../contract/clock.js';
import type { RateBucket } from './route-kit.js';

export const RATE_BUCKETS: readonly RateBucket[] = ['api', 'order', 'smart', 'ticker', 'expiry'];
export const DEFAULT_RATE_LIMIT = 10;
const WINDOW_MS = 1000;

export type RateLimits = Record<RateBucket, number>;

/**
 * Reads `"10 per second"`, `"10/second"`, `"10/s"` or a bare `"10"`. Compound values
 * (`"10 per second;40 per minute"`) use their per-second part. Anything else → undefined.
 */
export function parseRateLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  for (const part of value.split(/[;,]/)) {
    const m = /^\s*(\d+)\s*(?:(?:per|\/)\s*(second|sec|s))?\s*$/i.exec(part);
    if (m) {
      const n = Number(m[1]);
      if (Number.isSafeInteger(n) && n > 0) return n;
    }
  }
  return undefined;
}

/**
 * Limits from the environment (API_RATE_LIMIT, ORDER_RATE_LIMIT, SMART_ORDER_RATE_LIMIT, and
 * TICKER_RATE_LIMIT / EXPIRY_RATE_LIMIT falling back to API_RATE_LIMIT), then `overrides`.
 * Throws on a set but unreadable variable so a typo is not silently ignored.
 */
export function resolveRateLimits(
  env: Record<string, string | undefined>,
  overrides: Partial<RateLimits> = {},
): RateLimits {
  const read = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    const n = parseRateLimit(raw);
    if (n === undefined) throw new Error(`${name}="${raw}" is not a rate like "10 per second" or "10"`);
    return n;
  };
  const api = read('API_RATE_LIMIT') ?? DEFAULT_RATE_LIMIT;
  const limits: RateLimits = {
    api,
    order: read('ORDER_RATE_LIMIT') ?? DEFAULT_RATE_LIMIT,
    smart: read('SMART_ORDER_RATE_LIMIT') ?? DEFAULT_RATE_LIMIT,
    ticker: read('TICKER_RATE_LIMIT') ?? api,
    expiry: read('EXPIRY_RATE_LIMIT') ?? api,
  };
  for (const b of RATE_BUCKETS) {
    const o = overrides[b];
    if (o !== undefined) {
      if (!(o > 0)) throw new Error(`rate limit for ${b} must be positive, got ${o}`);
      limits[b] = o;
    }
  }
  return limits;
}

export interface RateLimiter {
  /**
   * Charges one request of `key` to `route`'s window, limited at `bucket`'s rate; returns 0 when
   * allowed, else the seconds to wait (≥ 1).
   */
  take(key: string, bucket: RateBucket, route: string): number;
  readonly limits: Readonly<RateLimits>;
}

export function createRateLimiter(limits: RateLimits, clock: Pick<Clock, 'now'> = systemClock): RateLimiter {
  // One ring of recent request times per key+route; a ring never holds more than `limit` entries.
  const windows = new Map<string, { times: number[]; head: number }>();
  let sweeps = 0;
  return {
    limits,
    take(key, bucket, route) {
      const limit = limits[bucket];
      const t = clock.now();
      // The bucket is part of the id so two buckets sharing a route never share a window.
      const id = `${bucket}\u0000${route}\u0000${key}`;
      let w = windows.get(id);
      if (!w) {
        w = { times: [], head: 0 };
        windows.set(id, w);
      }
      if (w.times.length < limit) {
        w.times.push(t);
      } else {
        const oldest = w.times[w.head] ?? t;
        if (t - oldest < WINDOW_MS) return Math.max(1, Math.ceil((oldest + WINDOW_MS - t) / 1000));
        w.times[w.head] = t;
        w.head = (w.head + 1) % limit;
      }
      // Forget idle windows now and then so a long-running server does not grow without bound.
      if (++sweeps % 10_000 === 0) {
        for (const [k, v] of windows) {
          const newest = v.times[(v.head + v.times.length - 1) % v.times.length] ?? 0;
          if (t - newest > WINDOW_MS) windows.delete(k);
        }
      }
      return 0;
    },
  };
}
