// What every route module gets from the server: parsing with the contract's schemas, key
// resolution with rate limiting, and one error type that becomes `{status:"error", message}`.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** A failure answered as `{status:"error", message, ...extra}` with this HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Rate-limit families (gateway-behaviour §1.6 and Decisions 9): each sets the rate of its routes. */
export type RateBucket = 'api' | 'order' | 'smart' | 'ticker' | 'expiry';

export interface RouteKit {
  /** Validates `body` with a contract schema; throws HttpError 400 naming the first bad field. */
  parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S>;
  /**
   * Resolves an API key to its account id (each key is its own account), charging one request to the
   * key's window for `route` (its path), limited at `bucket`'s rate. Throws HttpError 403
   * `Invalid openalgo apikey` or 429 with `retry_after`.
   */
  account(apikey: string | undefined, bucket: RateBucket, route: string): string;
}

export type RoutePlugin = (app: FastifyInstance, kit: RouteKit) => void;
