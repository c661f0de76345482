// The server's RouteKit: contract parsing with readable 400s, key → account resolution (403) and
// per-key rate limiting (429), in the real gateway's order (validation before auth).
import type { z } from 'zod';
import { INVALID_KEY, RATE_LIMITED, issueMessage } from './errors.js';
import type { RateLimiter } from './rate-limit.js';
import { HttpError, type RouteKit } from './route-kit.js';

export interface KeyVerifier {
  /** Account id of a key, or undefined when the key is unknown. */
  verify(apikey: string): string | undefined;
}

export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createRouteKit(keys: KeyVerifier, limiter: RateLimiter): RouteKit {
  return {
    parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
      if (!isJsonObject(body)) {
        throw new HttpError(400, 'Request body must be a JSON object (Content-Type: application/json)');
      }
      const result = schema.safeParse(body);
      if (!result.success) throw new HttpError(400, issueMessage(result.error));
      return result.data;
    },
    account(apikey, bucket, route) {
      if (apikey === undefined || apikey.trim() === '') throw new HttpError(400, 'apikey is required');
      const account = keys.verify(apikey);
      if (account === undefined) throw new HttpError(403, INVALID_KEY);
      const wait = limiter.take(account, bucket, route);
      if (wait > 0) throw new HttpError(429, RATE_LIMITED, { retry_after: wait });
      return account;
    },
  };
}
