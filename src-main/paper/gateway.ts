// The paper gateway in-process: instrument master, simulated market, key store and HTTP server on
// loopback. Used by the CLI, by every integration test, and by the app when no broker is set up.
import type { InstrumentMaster } from './instruments/instrument.js';
import { buildMaster } from './instruments/master.js';
import { createSearchIndex } from './instruments/search-index.js';
import { rankedSearch } from './instruments/search-ranked.js';
import { listExpiries } from './instruments/expiry.js';
import { createMarket, systemClock, type Clock, type SimulatedMarket } from './market/index.js';
import type { MarketHours } from './market/sessions.js';
import { generateApiKey, openKeyStore, type KeyStore } from './auth/key-store.js';
import { createPaperServer, type PaperServer } from './http/server.js';
import { marketDataRoutes } from './http/routes/market-data.js';
import { tickerRoutes } from './http/routes/ticker.js';
import { optionRoutes } from './http/routes/options.js';
import { referenceRoutes } from './http/routes/reference.js';
import { istDate } from './http/ist.js';
import type { RateBucket, RoutePlugin } from './http/route-kit.js';
import { engineExtension } from './engine/extension.js';
import type { PaperContext, PaperExtension } from './extension-types.js';
import { createFeedServer, FEED_PATH, type FeedOptions, type FeedServer } from './feed/feed-server.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_HOST = '127.0.0.1';

export type { PaperAddOn, PaperContext, PaperExtension } from './extension-types.js';

export interface PaperGatewayOptions {
  dataDir: string;
  /** Added to the key store (idempotent). Without it a new store gets a fresh key. */
  apiKey?: string;
  seed?: number;
  /** The market's time and the HTTP rate windows' (default: the system clock). */
  clock?: Clock;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  rateLimits?: Partial<Record<RateBucket, number>>;
  /** Extra route modules, mounted after the market-data routes. */
  plugins?: RoutePlugin[];
  /** Add-ons that need the master/market (the order engine). */
  extensions?: PaperExtension[];
  /** Environment for *_RATE_LIMIT (default process.env). */
  env?: Record<string, string | undefined>;
  logger?: boolean;
  /**
   * Today's market hours for bars: 'clock' (default) keeps today open around the clock so the desk
   * works at any hour; 'exchange' follows the exchange's session. Past days always follow the
   * exchange calendar (no weekend or holiday bars, intraday bars only inside the session).
   */
  hours?: MarketHours;
  /** WebSocket feed tuning (auth grace, tick period, slow-reader limit); it is always on, at `/ws`. */
  feed?: Partial<FeedOptions>;
}

export interface PaperGateway {
  /** `http://host:port`, no trailing slash. */
  url: string;
  /** The WebSocket feed: `ws://host:port/ws` (same port as the HTTP API). */
  feedUrl: string;
  feed: FeedServer;
  host: string;
  port: number;
  /** The key given or created now; undefined when the store already had keys and none was given. */
  apiKey: string | undefined;
  keyStatus: 'created' | 'given' | 'existing';
  dataDir: string;
  seed: number;
  clock: Clock;
  master: InstrumentMaster;
  market: SimulatedMarket;
  keys: KeyStore;
  server: PaperServer;
  stop(): Promise<void>;
}

export async function startPaperGateway(opts: PaperGatewayOptions): Promise<PaperGateway> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const clock = opts.clock ?? systemClock;
  const host = opts.host ?? DEFAULT_HOST;
  const hours = opts.hours ?? 'clock';

  const keys = openKeyStore(opts.dataDir);
  let apiKey: string | undefined;
  let keyStatus: PaperGateway['keyStatus'];
  if (opts.apiKey !== undefined) {
    keys.add(opts.apiKey);
    apiKey = opts.apiKey;
    keyStatus = 'given';
  } else if (keys.size === 0) {
    apiKey = generateApiKey();
    keys.add(apiKey);
    keyStatus = 'created';
  } else {
    keyStatus = 'existing';
  }

  const master = buildMaster({ seed, today: istDate(Math.floor(clock.now() / 1000)) });
  const market = createMarket({ underlyings: master.underlyings, clock, seed });
  const searchIndex = createSearchIndex(master);
  const ctx: PaperContext = { dataDir: opts.dataDir, seed, clock, master, market, hours };
  // The order engine is on by default; pass `extensions` to replace it.
  const addOns = (opts.extensions ?? [engineExtension()]).map((ext) => ext(ctx));
  const analyzer = addOns.find((a) => a.analyzer)?.analyzer ?? (() => ({ mode_version: 1, total_logs: 0 }));
  const analyzerServed = addOns.some((a) => a.servesAnalyzer);

  const server = createPaperServer({
    keys,
    clock,
    rateLimits: opts.rateLimits,
    env: opts.env,
    logger: opts.logger,
    plugins: [
      marketDataRoutes({
        master,
        market,
        search: (query, exchange, limit) =>
          rankedSearch(searchIndex, master, query, exchange).slice(0, limit),
        expiries: (symbol, exchange, instrumenttype) =>
          listExpiries(master, {
            symbol,
            exchange,
            instrumenttype,
            today: istDate(Math.floor(clock.now() / 1000)),
          }),
        analyzer: analyzerServed ? undefined : analyzer,
        hours,
      }),
      tickerRoutes({ master, market, hours }),
      optionRoutes({ master, market }),
      referenceRoutes({ master, clock }),
      ...addOns.flatMap((a) => (a.plugin ? [a.plugin] : [])),
      ...(opts.plugins ?? []),
    ],
  });

  try {
    await server.app.listen({ host, port: opts.port ?? 0 });
  } catch (err) {
    await Promise.allSettled(addOns.map((a) => a.stop?.()));
    throw err;
  }
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const feed = createFeedServer({
    keys,
    master,
    market,
    clock,
    onOrderChange: addOns.find((a) => a.onOrderChange)?.onOrderChange,
    options: opts.feed,
  });
  feed.attach(server.app.server, FEED_PATH);

  let stopped: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    feedUrl: `ws://${urlHost}:${port}${FEED_PATH}`,
    feed,
    host,
    port,
    apiKey,
    keyStatus,
    dataDir: opts.dataDir,
    seed,
    clock,
    master,
    market,
    keys,
    server,
    stop() {
      stopped ??= (async () => {
        await feed.close();
        await server.app.close();
        for (const a of addOns) await a.stop?.();
      })();
      return stopped;
    },
  };
}
