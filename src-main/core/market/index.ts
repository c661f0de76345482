// Market subscriptions (`market.watch` / `market.unwatch` → `market.*` events).
export { createMarketWatch, MAX_PER_MODE, MAX_SUBSCRIPTIONS } from './market-watch.js';
export type {
  MarketClient,
  MarketFeedPort,
  MarketStats,
  MarketWatch,
  MarketWatchOptions,
} from './market-watch.js';
export { DEFAULT_PLAN, periods } from './plan.js';
export type { MarketPlan } from './plan.js';
export { createPageWatches } from './page-watches.js';
export type { PageWatches } from './page-watches.js';
export { createLastPrices, FRESH_PRICE_MS } from './last-prices.js';
export type { LastPrices } from './last-prices.js';
