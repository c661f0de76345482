// What an add-on to the paper gateway (the order engine) is given and returns. Its own module so the
// gateway and its extensions do not import each other.
import type { InstrumentMaster } from './instruments/instrument.js';
import type { Clock, SimulatedMarket } from './market/index.js';
import type { AnalyzerStatus } from './http/routes/market-data.js';
import type { RoutePlugin } from './http/route-kit.js';
import type { PaperOrder } from './engine/engine.js';
import type { MarketHours } from './market/sessions.js';

/** What an extension (the order engine) gets to build its routes from. */
export interface PaperContext {
  dataDir: string;
  seed: number;
  clock: Clock;
  master: InstrumentMaster;
  market: SimulatedMarket;
  /** 'clock': open around the clock; 'exchange': today follows the exchange's hours. */
  hours: MarketHours;
}

/** An add-on built once the master and market exist: routes, analyzer status, shutdown. */
export interface PaperAddOn {
  plugin?: RoutePlugin;
  /** Replaces the default analyzer status (mode_version 1, no logs). */
  analyzer?: () => AnalyzerStatus;
  /** True when `plugin` serves POST /api/v1/analyzer itself. */
  servesAnalyzer?: boolean;
  /** Committed order transitions, for the WebSocket feed's order_update; returns an unsubscribe. */
  onOrderChange?: (listener: (order: PaperOrder) => void) => () => void;
  stop?: () => void | Promise<void>;
}
export type PaperExtension = (ctx: PaperContext) => PaperAddOn;
