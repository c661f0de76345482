// The market simulator's public entry points.
export * from './market.js';
export { systemClock, ManualClock } from './clock.js';
export { createMarket, type MarketOptions, type PricePoint, type SimulatedMarket } from './simulator.js';
export type { CorporateAction } from './corporate-actions.js';
