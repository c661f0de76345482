// Plugs the trading engine into the embedded gateway: builds the engine (and its GTT book) over the
// gateway's master, market and clock, mounts the single-order/account, composite and GTT routes,
// ticks in real time when the gateway runs on the system clock, and closes the ledger on stop.
import type { PaperAddOn, PaperContext, PaperExtension } from '../extension-types.js';
import { systemClock } from '../market/clock.js';
import { Ledger } from './ledger.js';
import { DEFAULT_LEVERAGE, type LeverageConfig } from './margin.js';
import { orderRoutes } from '../http/routes/orders.js';
import { compositeRoutes } from '../http/routes/composite.js';
import { optionOrderRoutes } from '../http/routes/options-orders.js';
import { accountExtraRoutes } from '../http/routes/account-extra.js';
import { gttRoutes } from '../http/routes/gtt.js';
import { GttBook } from './gtt-book.js';
import { DEFAULT_CAPITAL, createTradingEngine, type PaperTradingEngine } from './trading-engine.js';
import type { LimitFills } from './engine.js';
import { istDayOf } from './ist-time.js';
import { inSession } from '../instruments/exchange-calendar.js';
import { toUnits } from './units.js';

export interface EngineExtensionOptions {
  capital?: number;
  leverage?: Partial<LeverageConfig>;
  durability?: 'normal' | 'full';
  /** Share one commit among the requests of an event-loop turn (default true); see TradingEngineDeps. */
  groupCommit?: boolean;
  /** Real-time matching period with the system clock (default 250 ms; 0 disables the timer). */
  tickMs?: number;
  /** How a resting LIMIT fills once reached (default 'full'; tests of partial fills: 'depth'). */
  limitFills?: LimitFills;
  /** Receives the engine once built (tests, benches). */
  onEngine?: (engine: PaperTradingEngine) => void;
}

export function engineExtension(opts: EngineExtensionOptions = {}): PaperExtension {
  return (ctx: PaperContext): PaperAddOn => {
    const engine = createTradingEngine({
      dataDir: ctx.dataDir,
      master: ctx.master,
      market: ctx.market,
      clock: ctx.clock,
      capital: opts.capital,
      leverage: opts.leverage,
      durability: opts.durability,
      groupCommit: opts.groupCommit ?? true,
      limitFills: opts.limitFills,
      // Following exchange hours, orders rest outside the session and match once it opens.
      ...(ctx.hours === 'exchange' ? { marketOpen: (inst, nowMs) => inSession(inst.exchange, nowMs) } : {}),
    });
    const tickMs = opts.tickMs ?? 250;
    // With a ManualClock, tests drive matching themselves (lazily on each call, or engine.tick()).
    const gtt = new GttBook({
      engine,
      master: ctx.master,
      market: ctx.market,
      clock: ctx.clock,
      lev: { ...DEFAULT_LEVERAGE, ...opts.leverage },
      capital: toUnits(opts.capital ?? DEFAULT_CAPITAL),
    });
    if (ctx.clock === systemClock && tickMs > 0) {
      engine.startTicker(tickMs);
      gtt.startTicker(tickMs);
    }
    opts.onEngine?.(engine);
    const orders = orderRoutes(engine);
    const composite = compositeRoutes(engine);
    const optionOrders = optionOrderRoutes(engine, { master: ctx.master, market: ctx.market });
    const extras = accountExtraRoutes({
      engine,
      master: ctx.master,
      market: ctx.market,
      leverage: { ...DEFAULT_LEVERAGE, ...opts.leverage },
    });
    return {
      plugin: (app, kit) => {
        // No answer leaves before what it reports is committed: with group commit the handler's
        // writes sit in the turn's open transaction until setImmediate commits it.
        app.addHook('onSend', (_request, _reply, payload, done) => {
          const pending = engine.pendingCommit();
          if (!pending) {
            done(null, payload);
            return;
          }
          pending.then(
            () => done(null, payload),
            (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
          );
        });
        // GTTs whose trigger the price has reached fire before any request reads or changes the books.
        app.addHook('preHandler', (_request, _reply, done) => {
          try {
            gtt.check();
          } catch (err) {
            console.error('paper engine: GTT check failed', err);
          }
          done();
        });
        orders(app, kit);
        composite(app, kit);
        gttRoutes(gtt)(app, kit);
        optionOrders(app, kit);
        extras(app, kit);
      },
      servesAnalyzer: true,
      onOrderChange: (listener) => engine.onOrderChange(listener),
      analyzer: () => ({ mode_version: engine.mode().mode_version, total_logs: 0 }),
      stop: () => {
        gtt.stopTicker();
        engine.close();
      },
    };
  };
}

/** `--reset`: fresh books for every account of a data directory, mode version bumped. */
export function resetPaperBooks(dataDir: string, capital = DEFAULT_CAPITAL, nowMs = Date.now()): void {
  const ledger = new Ledger(dataDir);
  try {
    ledger.transaction(() => {
      const lastId = ledger.maxOrderId('000000', '999999~');
      if (lastId) ledger.setMeta('last_orderid', lastId);
      ledger.setMeta(
        'last_trade_seq',
        String(Math.max(ledger.maxTradeSeq(), Number(ledger.meta('last_trade_seq') ?? 0))),
      );
      ledger.clearBooks(toUnits(capital), istDayOf(nowMs));
      ledger.setMeta('mode_version', String(Number(ledger.meta('mode_version') ?? 1) + 1));
    });
  } finally {
    ledger.close();
  }
}
