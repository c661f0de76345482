// The market subscription channels: straight to the core's market watch (which outlives profile
// switches, so the subscription ids the renderer holds stay valid).
import type { MarketWatch } from '../market/index.js';
import type { Handlers } from './router.js';

export type MarketChannels = 'market.watch' | 'market.unwatch';

export function marketHandlers(d: { market: MarketWatch }): Pick<Handlers, MarketChannels> {
  return {
    'market.watch': (input) => d.market.watch(input),
    'market.unwatch': async (input) => d.market.unwatch(input.id),
  };
}
