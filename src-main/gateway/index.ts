// The gateway client's public surface.
export { createGatewayClient } from './client.js';
export type {
  ApiKeyLookup,
  BudgetLoad,
  GatewayClient,
  GatewayClientOptions,
  GatewayMethods,
  ReadPriority,
  TickerInput,
} from './client.js';
export type { GatewayError, GatewayErrorKind, GatewayResult } from './errors.js';
export { UNKNOWN_OUTCOME_MESSAGE, ok, fail } from './errors.js';
export { redact, REDACTED, KEY_RUN } from './redact.js';
export { ManualClock, systemClock, sleep } from './clock.js';
export type { Clock } from './clock.js';
export { RateBudget, RateWindow } from './rate-budget.js';
export type { Priority, Release } from './rate-budget.js';
export { LIMITER_CLASS_OF_OPERATION, limiterClassOfPath } from './limiter-classes.js';
export type { LimiterClass } from './limiter-classes.js';
export type { FetchFn } from './http.js';
export { nodeHttpFetch, EMBEDDED_IDLE_SOCKET_MS } from './node-http.js';
export { createFeedClient } from './feed-client.js';
export type {
  FeedClient,
  FeedClientOptions,
  FeedMode,
  FeedState,
  FeedStatus,
  FeedSymbol,
} from './feed-client.js';
export { deriveFeedUrl, feedUrlProblem, DEFAULT_FEED_PORT } from './feed-url.js';
