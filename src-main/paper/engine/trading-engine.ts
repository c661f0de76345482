// Over 300 lines: the engine's whole public surface (orders, eight reads, replay, reset, ticker).
// The paper trading engine: places, modifies and cancels orders over the SQLite ledger, matching
// them against the simulated book. Every mutation is one transaction that commits before the caller
// answers (group-commit.ts), so an acknowledged order survives a SIGKILL. The parts: order-rules.ts
// (what may be placed or changed), order-entry.ts (place, modify, cancel), fills.ts (matching, fills,
// settlement), read-views.ts (books).
import type { Product } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import type { Clock, Market } from '../market/market.js';
import { ActiveIndex } from './active-index.js';
import type {
  EngineResult,
  ModifyOutcome,
  OrderInput,
  OrderModification,
  PaperFunds,
  PaperHolding,
  PaperOrder,
  PaperPosition,
  PaperTrade,
  PaperTradingEngine,
  StrategyExposure,
  TradingEngineDeps,
} from './engine.js';
import { DEFAULT_CAPITAL } from './engine.js';
import { Fills } from './fills.js';
import { GroupCommit } from './group-commit.js';
import { istDayOf } from './ist-time.js';
import { Ledger } from './ledger.js';
import { DEFAULT_LEVERAGE, type LeverageConfig } from './margin.js';
import { OrderIds, idFloor } from './order-ids.js';
import { cancelOrder, modifyOrder, placeOrder, type OrderEntry } from './order-entry.js';
import { OrderEvents, type OrderListener } from './order-events.js';
import { ReadViews } from './read-views.js';
import { replayOrRemember } from './request-replay.js';
import { toUnits } from './units.js';
import { normaliseSymbol } from './validation.js';

export type { PaperTradingEngine, TradingEngineDeps } from './engine.js';
export { DEFAULT_CAPITAL } from './engine.js';

export function createTradingEngine(deps: TradingEngineDeps): PaperTradingEngine {
  return new Engine(deps);
}

class Engine implements PaperTradingEngine {
  readonly ledger: Ledger;
  private readonly master: InstrumentMaster;
  private readonly market: Market;
  private readonly clock: Clock;
  private readonly capital: number;
  private readonly lev: LeverageConfig;
  private readonly ids: OrderIds;
  private readonly commits: GroupCommit;
  private readonly fills: Fills;
  private readonly marketOpen: (inst: Instrument, nowMs: number) => boolean;
  private readonly views: ReadViews;
  /** In-memory mirror of open/trigger-pending orders; null after a rollback (reloaded on use). */
  private active: ActiveIndex | null = null;
  private knownAccounts = new Set<string>();
  private settledThrough = -1;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The ticker's period while it is wanted (startTicker); it runs only while orders rest. */
  private tickMs: number | undefined;
  private readonly events = new OrderEvents();
  private readonly entry: OrderEntry;

  constructor(deps: TradingEngineDeps) {
    this.ledger = new Ledger(deps.dataDir, { durability: deps.durability ?? 'normal' });
    this.master = deps.master;
    this.market = deps.market;
    this.clock = deps.clock ?? deps.market.clock;
    this.capital = toUnits(deps.capital ?? DEFAULT_CAPITAL);
    this.lev = { ...DEFAULT_LEVERAGE, ...deps.leverage };
    this.marketOpen = deps.marketOpen ?? (() => true);
    this.ids = new OrderIds(idFloor(this.ledger));
    this.commits = new GroupCommit(
      this.ledger,
      deps.groupCommit ?? false,
      (wholeGroup) => this.invalidate(wholeGroup),
      () => this.events.flush(),
    );
    this.ledger.onOrderWrite = (row) => this.events.record(row);
    const instrument = (exchange: string, symbol: string) => this.instrument(exchange, symbol);
    this.fills = new Fills({
      ledger: this.ledger,
      market: this.market,
      lev: this.lev,
      instrument,
      active: () => this.active,
      limitFills: deps.limitFills,
    });
    this.views = new ReadViews({
      ledger: this.ledger,
      market: this.market,
      clock: this.clock,
      capital: this.capital,
      instrument,
    });
    this.entry = {
      ledger: this.ledger,
      market: this.market,
      clock: this.clock,
      lev: this.lev,
      ids: this.ids,
      fills: this.fills,
      views: this.views,
      instrument,
      sync: () => this.sync(),
      transaction: (fn) => this.transaction(fn),
      ensureAccount: (account, now) => this.ensureAccount(account, now),
      activeOrders: () => this.activeOrders(),
      isOpen: (order, now) => this.isOpen(order, now),
      armTicker: () => this.armTicker(),
    };
    if (this.ledger.meta('mode_version') === undefined) this.ledger.setMeta('mode_version', '1');
  }

  // ---- transactions and mirrors ----

  transaction<T>(fn: () => T): T {
    const mark = this.events.mark();
    let out: T;
    try {
      out = this.commits.transaction(fn);
    } catch (err) {
      this.events.truncate(mark);
      throw err;
    }
    // Outside a group the outermost transaction has committed here; a group tells onCommit.
    if (!this.ledger.inTransaction) this.events.flush();
    return out;
  }

  onOrderChange(listener: OrderListener): () => void {
    return this.events.on(listener);
  }

  pendingCommit(): Promise<void> | undefined {
    return this.commits.pending();
  }

  /** SQLite rolled back: the in-memory mirrors may hold undone state. */
  private invalidate(wholeGroup: boolean): void {
    this.active = null;
    this.armTicker();
    if (wholeGroup) this.events.clear();
    this.knownAccounts = new Set();
    this.settledThrough = -1;
    this.ids.resync();
    this.fills.resync();
    if (wholeGroup) this.fills.clearLiquidity();
  }

  private activeOrders(): ActiveIndex {
    if (!this.active) {
      const index = new ActiveIndex();
      for (const o of this.ledger.activeOrders()) index.put(o);
      this.active = index;
    }
    return this.active;
  }

  private ensureAccount(account: string, now: number): void {
    if (this.knownAccounts.has(account)) return;
    if (!this.ledger.account(account)) {
      this.ledger.insertAccount({
        account,
        capital: this.capital,
        settled_day: istDayOf(now),
        created_ms: now,
      });
    }
    this.knownAccounts.add(account);
  }

  private instrument(exchange: string, symbol: string): Instrument | undefined {
    return this.master.get(exchange, normaliseSymbol(symbol));
  }

  // ---- matching ----

  /** An order's market trades now (always, unless the gateway follows exchange hours). */
  private isOpen(order: { exchange: string; symbol: string }, now: number): boolean {
    const inst = this.instrument(order.exchange, order.symbol);
    return inst === undefined || this.marketOpen(inst, now);
  }

  tick(): void {
    this.sync();
  }

  /**
   * Matching at the clock's time; lazily before each call and from the ticker. Only orders that can
   * act are visited: open MARKET/SL-M orders, and resting limits/stops the last price has reached
   * (popped from the per-instrument heaps), in placement order as a full scan would have.
   */
  private sync(): void {
    const now = this.clock.now();
    const day = istDayOf(now);
    if (day > this.settledThrough) {
      this.transaction(() => this.fills.settleAll(day, now));
      this.settledThrough = day;
    }
    const active = this.activeOrders();
    if (active.size === 0) return;
    const ltpCache = new Map<string, number>();
    const due = active.due((exchange, symbol) => {
      const inst = this.instrument(exchange, symbol);
      if (!inst) return 0;
      const ltp = toUnits(this.market.lastPrice(inst));
      ltpCache.set(`${inst.exchange}:${inst.symbol}`, ltp);
      return ltp;
    });
    if (due.length === 0) return;
    try {
      this.transaction(() => {
        for (const order of due) if (this.isOpen(order, now)) this.fills.match(order, now, false, ltpCache);
      });
    } finally {
      // Re-file what is still active (a rollback dropped the whole index instead).
      for (const order of due) if (active.byId.get(order.orderid) === order) active.put(order);
    }
    this.fills.pruneLiquidity(Math.floor(now / 1000));
  }

  // ---- orders ----

  placeOrder(account: string, raw: OrderInput): EngineResult<PaperOrder> {
    return placeOrder(this.entry, account, raw);
  }

  modifyOrder(account: string, orderid: string, req: OrderModification): EngineResult<ModifyOutcome> {
    return modifyOrder(this.entry, account, orderid, req);
  }

  cancelOrder(account: string, orderid: string): EngineResult<PaperOrder> {
    return cancelOrder(this.entry, account, orderid);
  }

  // ---- reads (matching first, so they are current) ----

  order(account: string, orderid: string): PaperOrder | undefined {
    this.sync();
    return this.views.order(account, orderid);
  }

  orders(account: string): readonly PaperOrder[] {
    this.sync();
    return this.views.orders(account);
  }

  trades(account: string): PaperTrade[] {
    this.sync();
    return this.views.trades(account);
  }

  positions(account: string): PaperPosition[] {
    this.sync();
    return this.views.positions(account);
  }

  holdings(account: string): PaperHolding[] {
    this.sync();
    return this.views.holdings(account);
  }

  funds(account: string): PaperFunds {
    this.sync();
    return this.views.funds(account);
  }

  strategyQuantity(
    account: string,
    strategy: string,
    symbol: string,
    exchange: string,
    product: Product,
  ): number {
    this.sync();
    return this.views.strategyQuantity(account, strategy, symbol, exchange, product);
  }

  strategyExposure(account: string, strategy: string): StrategyExposure[] {
    this.sync();
    return this.views.strategyExposure(account, strategy);
  }

  // ---- misc ----

  rememberResponse(
    account: string,
    requestId: string,
    request: string,
    compute: () => unknown,
  ): EngineResult<unknown> {
    return this.transaction(() =>
      replayOrRemember(this.ledger, account, requestId, request, this.clock.now(), compute),
    );
  }

  mode(): { mode: 'analyze'; balance_type: 'sandbox'; mode_version: number } {
    return {
      mode: 'analyze',
      balance_type: 'sandbox',
      mode_version: Number(this.ledger.meta('mode_version') ?? 1),
    };
  }

  reset(): void {
    const now = this.clock.now();
    this.transaction(() => {
      // Ids stay unique across resets: remember the high-water marks before the rows go.
      const lastId = this.ledger.maxOrderId('000000', '999999~');
      if (lastId) this.ledger.setMeta('last_orderid', lastId);
      this.ledger.setMeta('last_trade_seq', String(this.fills.tradeSeq));
      this.ledger.clearBooks(this.capital, istDayOf(now));
      this.ledger.setMeta('mode_version', String(this.mode().mode_version + 1));
    });
    this.active = new ActiveIndex();
    this.fills.clearLiquidity();
  }

  startTicker(intervalMs = 250): void {
    this.stopTicker();
    this.tickMs = intervalMs;
    this.armTicker();
  }

  /**
   * Runs the ticker while orders rest (or the index is to be reloaded). With none, nothing can match:
   * four wake-ups a second of an idle gateway (in the always-on app's own process) are saved, and a
   * new day is settled lazily by the next call.
   */
  private armTicker(): void {
    if (this.tickMs === undefined || this.timer || this.active?.size === 0) return;
    this.timer = setInterval(() => {
      try {
        this.tick();
      } catch (err) {
        console.error('paper engine: tick failed', err);
      }
      if (this.active?.size === 0) this.clearTimer();
    }, this.tickMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  stopTicker(): void {
    this.tickMs = undefined;
    this.clearTimer();
  }

  close(): void {
    this.stopTicker();
    this.commits.commit();
    this.ledger.close();
  }
}
