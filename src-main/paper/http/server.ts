// The paper gateway's HTTP server: fastify on loopback, JSON bodies, the gateway's error envelope
// for every failure, and route modules plugged in as RoutePlugins (market data here, orders from
// the engine).
import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../../contract/clock.js';
import { HttpError, type RouteKit, type RoutePlugin } from './route-kit.js';
import { createRouteKit, type KeyVerifier } from './kit.js';
import { handleClientError, sendError, toHttpError } from './errors.js';
import { createRateLimiter, resolveRateLimits, type RateLimits } from './rate-limit.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface PaperServerDeps {
  keys: KeyVerifier;
  plugins: readonly RoutePlugin[];
  /** Per-bucket requests per second; unset buckets come from the environment (default 10). */
  rateLimits?: Partial<RateLimits>;
  /** Environment read for *_RATE_LIMIT; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Largest accepted request body in bytes (default 1 MiB); larger answers 413. */
  bodyLimit?: number;
  /** The time rate windows run on: the gateway's clock (default: the system's). */
  clock?: Pick<Clock, 'now'>;
  /** Fastify request logging (off by default). */
  logger?: boolean;
}

export interface PaperServer {
  app: FastifyInstance;
  kit: RouteKit;
  limits: Readonly<RateLimits>;
}

export function createPaperServer(deps: PaperServerDeps): PaperServer {
  const bodyLimit = deps.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const limits = resolveRateLimits(deps.env ?? process.env, deps.rateLimits);
  const limiter = createRateLimiter(limits, deps.clock);
  const kit = createRouteKit(deps.keys, limiter);

  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit,
    // Fastify's default, stated: the desk's client keeps its idle socket here 60 s, less than this.
    keepAliveTimeout: 72_000,
    // strict_slashes=False upstream: /api/v1/depth/ is /api/v1/depth.
    // The ticker's EXCHANGE:SYMBOL reaches its route whatever its length (Node caps the URL at 16 KiB),
    // so an overlong symbol is a 400 naming it, in the requested format.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    clientErrorHandler: handleClientError,
    // Malformed URLs (bad percent-encoding) get the envelope too, not fastify's own shape.
    frameworkErrors: (err, _req, reply) => {
      sendError(reply, toHttpError(err, bodyLimit));
    },
  });

  // Bodies are JSON only: a text/plain body is a client mistake worth naming, not a string to parse.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((err, req, reply) => {
    const httpErr = toHttpError(err, bodyLimit);
    if (httpErr.status >= 500) req.log.error({ err }, 'unhandled error');
    if (httpErr.status >= 500 && !deps.logger) console.error('paper gateway: unhandled error', err);
    return sendError(reply, httpErr);
  });

  // A wrong method on a known route is the unknown route's 404, as the live server answers (not 405).
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    return sendError(reply, new HttpError(404, 'Not found', { path }));
  });

  for (const plugin of deps.plugins) plugin(app, kit);
  return { app, kit, limits };
}
