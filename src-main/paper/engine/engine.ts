// The order engine's surface, shared by the single-order routes and the composite operations
// (smart, split, basket, cancel-all, close), and the paper engine's (PaperTradingEngine) with its
// options. Implemented in trading-engine.ts over the SQLite ledger.
import type { Action, ModifyOrderRequest, PriceType, Product } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import type { Clock, Market } from '../market/market.js';
import type { Ledger } from './ledger.js';
import type { LeverageConfig } from './margin.js';

export type PaperOrderStatus = 'open' | 'trigger pending' | 'complete' | 'cancelled' | 'rejected';

/** A validated order request (contract-parsed), before instrument checks. */
export interface OrderInput {
  strategy: string;
  exchange: string;
  symbol: string;
  action: Action;
  quantity: number;
  pricetype: PriceType;
  product: Product;
  price: number;
  trigger_price: number;
  disclosed_quantity: number;
}

/** A strategy's net filled quantity in one (symbol, exchange, product). */
export interface StrategyExposure {
  symbol: string;
  exchange: string;
  product: Product;
  quantity: number;
}

export interface PaperOrder extends OrderInput {
  orderid: string;
  account: string;
  status: PaperOrderStatus;
  filled_quantity: number;
  /** Volume-weighted fill price so far; 0 before the first fill. */
  average_price: number;
  rejection_reason: string;
  /** Margin still blocked by the unfilled part, rupees. */
  margin_blocked: number;
  created_ms: number;
  updated_ms: number;
}

export interface PaperTrade {
  tradeid: string;
  orderid: string;
  account: string;
  strategy: string;
  exchange: string;
  symbol: string;
  product: Product;
  action: Action;
  quantity: number;
  price: number;
  time_ms: number;
}

export interface PaperPosition {
  exchange: string;
  symbol: string;
  product: Product;
  /** Net signed quantity; 0 keeps the row for the day (spec §3). */
  quantity: number;
  average_price: number;
  realised_pnl: number;
  unrealised_pnl: number;
  ltp: number;
}

export interface PaperFunds {
  availablecash: number;
  collateral: number;
  m2mrealized: number;
  m2munrealized: number;
  utiliseddebits: number;
}

export interface PaperHolding {
  exchange: string;
  symbol: string;
  quantity: number;
  average_price: number;
  ltp: number;
  pnl: number;
  pnlpercent: number;
}

/** A modify request as parsed by the contract, without the key and order id. */
export type OrderModification = Omit<ModifyOrderRequest, 'apikey' | 'orderid'>;

/** A modified order and the fields that changed (none: the order already had these values). */
export interface ModifyOutcome {
  order: PaperOrder;
  changed: readonly string[];
}

/** An accepted order, or a refusal with the HTTP status and message to answer with. */
export type EngineResult<T> =
  { ok: true; value: T } | { ok: false; status: number; message: string; orderid?: string };

export interface TradingEngine {
  /** Validates against the instrument, funds and rules, records it, and tries to fill at once. */
  placeOrder(account: string, input: OrderInput): EngineResult<PaperOrder>;
  /** Changes a working order (see the implementation for what may change), then matches it. */
  modifyOrder(account: string, orderid: string, req: OrderModification): EngineResult<ModifyOutcome>;
  cancelOrder(account: string, orderid: string): EngineResult<PaperOrder>;
  order(account: string, orderid: string): PaperOrder | undefined;
  /** Today's orders, newest first; shared records (do not mutate), the same object while unchanged. */
  orders(account: string): readonly PaperOrder[];
  trades(account: string): PaperTrade[];
  positions(account: string): PaperPosition[];
  holdings(account: string): PaperHolding[];
  funds(account: string): PaperFunds;
  /** Net quantity attributed to one strategy for (symbol, exchange, product). */
  strategyQuantity(
    account: string,
    strategy: string,
    symbol: string,
    exchange: string,
    product: Product,
  ): number;
  /** Non-zero net exposures of one strategy, per (symbol, exchange, product). */
  strategyExposure(account: string, strategy: string): StrategyExposure[];
  /** Runs matching for resting orders at the clock's current time (the server also calls it on a timer). */
  tick(): void;
  /** Runs `fn` in one SQLite transaction: everything it does is committed together or not at all. */
  transaction<T>(fn: () => T): T;
  /**
   * Stores/returns the first answer for (account, request id) (hosted closeposition replay).
   * `request` fingerprints what was asked: the same id with another request is refused (409).
   */
  rememberResponse(
    account: string,
    requestId: string,
    request: string,
    compute: () => unknown,
  ): EngineResult<unknown>;
  /** Mode snapshot for the hosted variant; the version changes on every reset. */
  mode(): { mode: 'analyze'; balance_type: 'sandbox'; mode_version: number };
  /** Starts a fresh book for every account and bumps the mode version. */
  reset(): void;
  close(): void;
}

export const DEFAULT_CAPITAL = 10_000_000;

export interface TradingEngineDeps {
  /** Directory holding `paper.db`. */
  dataDir: string;
  master: InstrumentMaster;
  market: Market;
  /** Defaults to the market's clock. */
  clock?: Clock;
  /** Starting capital per account in rupees (default ₹1 crore). */
  capital?: number;
  leverage?: Partial<LeverageConfig>;
  /** See LedgerOptions.durability. */
  durability?: 'normal' | 'full';
  /**
   * Group commit (the HTTP gateway turns it on): the mutations of one event-loop turn each run in a
   * savepoint of one shared transaction, committed by setImmediate. Callers must not answer before
   * pendingCommit() settles. Off: every mutation commits before it returns.
   */
  groupCommit?: boolean;
  /**
   * Whether `inst` trades at `nowMs` (`--hours exchange`); default always. Outside it orders are
   * accepted and rest, and are matched once the session opens.
   */
  marketOpen?: (inst: Instrument, nowMs: number) => boolean;
  /** How a resting LIMIT fills once the last price reaches it (default 'full'); see LimitFills. */
  limitFills?: LimitFills;
}

/**
 * 'full' (as the sandbox): a resting LIMIT fills in full at its limit once the last price reaches
 * it. 'depth': at its limit, but each second only what the other side's best level shows and no
 * earlier order took, so a large order (a bracket's target) fills in parts over several seconds.
 */
export type LimitFills = 'full' | 'depth';

export interface PaperTradingEngine extends TradingEngine {
  readonly ledger: Ledger;
  /** Runs `tick()` every `intervalMs` (default 250) on a timer that does not keep the process alive. */
  startTicker(intervalMs?: number): void;
  stopTicker(): void;
  /**
   * With group commit, the commit of the open group (rejects if it fails, and then nothing of the
   * group was kept); undefined when everything done so far is committed.
   */
  pendingCommit(): Promise<void> | undefined;
  /**
   * Calls `listener` with every order's new state once it is committed (placed, triggered, filled in
   * part or whole, modified, cancelled, rejected), in order. Returns the function that stops it.
   */
  onOrderChange(listener: (order: PaperOrder) => void): () => void;
}
