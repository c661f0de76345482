// The ledger's row shapes: what each table holds, as the engine reads and writes it. Money is in
// integer units of ₹0.0001 (units.ts); see ledger-schema.ts for the tables.
import type { Product } from '../../contract/index.js';
import type { PaperOrder, PaperTrade } from './engine.js';

/**
 * An orders row: a PaperOrder with `price`, `trigger_price` and `margin_blocked` in units, and the
 * fill value (units, Σ price × quantity) kept instead of the average price; `seq` is the insertion
 * order; `claimed` the unfilled quantity that reduces an opposite position (it blocks no margin).
 */
export interface OrderRow extends Omit<PaperOrder, 'average_price'> {
  seq: number;
  fill_value: number;
  claimed: number;
}
export type NewOrderRow = Omit<OrderRow, 'seq'>;

/** A trades row: a PaperTrade with `price` in units; `seq` is the insertion order. */
export interface TradeRow extends PaperTrade {
  seq: number;
}

export interface PositionRow {
  account: string;
  exchange: string;
  symbol: string;
  product: Product;
  quantity: number;
  cost: number;
  realised: number;
  margin: number;
  updated_ms: number;
}

export interface HoldingRow {
  account: string;
  exchange: string;
  symbol: string;
  quantity: number;
  cost: number;
  updated_ms: number;
}

export interface AccountRow {
  account: string;
  capital: number;
  settled_day: number;
  created_ms: number;
  /** Available cash (units). */
  available: number;
  /** Order blocks + position margin (units). */
  used_margin: number;
  /** Realised P&L since the last reset (units). */
  realised: number;
}

/** One change of an account's balances; `available` is what the journal records. */
export interface FundDelta {
  available: number;
  used?: number;
  realised?: number;
}

export interface FundTotals {
  /** Σ position realised P&L (units). */
  realised: number;
  /** Σ margin held by open positions. */
  positionMargin: number;
  /** Σ margin blocked by unfilled order quantity. */
  orderMargin: number;
  /** Σ cost of settled holdings. */
  holdingsCost: number;
  /** Σ fund_movements amounts. */
  movements: number;
}

/** A remembered answer (JSON) and the request (a caller-made fingerprint) it answered. */
export interface StoredResponse {
  request: string;
  body: string;
}
