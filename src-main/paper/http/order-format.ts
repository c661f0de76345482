// Engine records → the gateway's response rows (spec §2.2-§2.7, Decision 1): IST timestamps,
// two-decimal strings for funds and position average price, numbers elsewhere, plus the extra keys
// the real sandbox adds to order rows.
import type {
  FundsRecord,
  HoldingRecord,
  OrderRecord,
  OrderStatistics,
  PositionBookResponse,
  PositionRecord,
  TradeRecord,
} from '../../contract/index.js';
import type { PaperFunds, PaperHolding, PaperOrder, PaperPosition, PaperTrade } from '../engine/engine.js';
import { formatIstTimestamp } from '../engine/ist-time.js';
import { formatMoney, toUnits } from '../engine/units.js';

/** The top-level `mode` of every account and order answer: the paper gateway is always a sandbox. */
export const ANALYZE = 'analyze';

/** Money/price numbers: 2 decimals, or up to 4 when the price needs them (CDS ticks are ₹0.0025). */
export function price(n: number): number {
  const r2 = Math.round(n * 100) / 100;
  return Math.abs(r2 - n) < 1e-9 ? r2 : Math.round(n * 10_000) / 10_000;
}

const money = (n: number): number => Math.round(n * 100) / 100;
const money2 = (n: number): string => formatMoney(toUnits(n));

export function orderRecord(o: PaperOrder): OrderRecord {
  const active = o.status === 'open' || o.status === 'trigger pending';
  return {
    action: o.action,
    exchange: o.exchange,
    order_status: o.status,
    orderid: o.orderid,
    // Live gateways show 0 for MARKET rows (format_order_data).
    price: o.pricetype === 'MARKET' ? 0 : price(o.price),
    pricetype: o.pricetype,
    product: o.product,
    quantity: o.quantity,
    symbol: o.symbol,
    timestamp: formatIstTimestamp(o.created_ms),
    trigger_price: price(o.trigger_price),
    filled_quantity: o.filled_quantity,
    pending_quantity: active ? o.quantity - o.filled_quantity : 0,
    average_price: price(o.average_price),
    rejection_reason: o.rejection_reason,
    strategy: o.strategy,
  };
}

/** Each record's JSON, kept while the engine hands out the same (unchanged) record. */
const orderJson = new WeakMap<PaperOrder, string>();

/**
 * The order book answer as JSON text, exactly JSON.stringify of {status, data: {orders, statistics}},
 * joined from each order's kept JSON: a desk polling 5,000 orders re-formats only what changed.
 */
export function orderBookJson(orders: readonly PaperOrder[]): string {
  const rows = new Array<string>(orders.length);
  for (let n = 0; n < orders.length; n++) {
    const o = orders[n]!;
    let json = orderJson.get(o);
    if (json === undefined) {
      json = JSON.stringify(orderRecord(o));
      orderJson.set(o, json);
    }
    rows[n] = json;
  }
  const statistics = JSON.stringify(orderStatistics(orders));
  return `{"status":"success","data":{"orders":[${rows.join(',')}],"statistics":${statistics}},"mode":"${ANALYZE}"}`;
}

/**
 * The last order book answer of each account as bytes, sent again while the engine hands out the
 * very same records (an unchanged book): polling an idle book costs a comparison, not a render.
 */
export class OrderBookAnswers {
  private readonly last = new Map<string, { orders: readonly PaperOrder[]; body: Buffer }>();

  body(account: string, orders: readonly PaperOrder[]): Buffer {
    const prev = this.last.get(account);
    if (prev && sameRecords(prev.orders, orders)) return prev.body;
    const body = Buffer.from(orderBookJson(orders));
    this.last.set(account, { orders, body });
    return body;
  }
}

function sameRecords(a: readonly PaperOrder[], b: readonly PaperOrder[]): boolean {
  if (a.length !== b.length) return false;
  for (let n = 0; n < a.length; n++) if (a[n] !== b[n]) return false;
  return true;
}

export function orderStatistics(orders: readonly PaperOrder[]): OrderStatistics {
  const count = (f: (o: PaperOrder) => boolean): number => orders.reduce((n, o) => (f(o) ? n + 1 : n), 0);
  return {
    total_buy_orders: count((o) => o.action === 'BUY'),
    total_sell_orders: count((o) => o.action === 'SELL'),
    total_completed_orders: count((o) => o.status === 'complete'),
    total_open_orders: count((o) => o.status === 'open'),
    total_rejected_orders: count((o) => o.status === 'rejected'),
    total_trigger_pending_orders: count((o) => o.status === 'trigger pending'),
  };
}

export function tradeRecord(t: PaperTrade): TradeRecord {
  return {
    action: t.action,
    average_price: price(t.price),
    exchange: t.exchange,
    orderid: t.orderid,
    product: t.product,
    quantity: t.quantity,
    symbol: t.symbol,
    timestamp: formatIstTimestamp(t.time_ms),
    trade_value: money(t.quantity * t.price),
    tradeid: t.tradeid,
    strategy: t.strategy,
    price: price(t.price),
  };
}

export function positionRecord(p: PaperPosition): PositionRecord {
  const today = p.realised_pnl + p.unrealised_pnl;
  // As the live sandbox: the day's P&L over what the open quantity cost; 0 once flat.
  const invested = Math.abs(p.average_price * p.quantity);
  return {
    average_price: money2(p.average_price),
    exchange: p.exchange,
    product: p.product,
    quantity: p.quantity,
    symbol: p.symbol,
    ltp: price(p.ltp),
    pnl: money(today),
    unrealized_pnl: money(p.unrealised_pnl),
    // The live sandbox's extras: lot_size is its contract-value multiplier, 1 for Indian instruments.
    lot_size: 1,
    pnlpercent: p.quantity !== 0 && invested > 0 ? money((today / invested) * 100) : 0,
    today_realized_pnl: money(p.realised_pnl),
    total_pnl_today: money(today),
  };
}

/** The positionbook answer: rows, the live sandbox's totals over them, and its mode. */
export function positionBook(positions: readonly PaperPosition[]): PositionBookResponse {
  const data = positions.map(positionRecord);
  const sum = (f: (r: PositionRecord) => number | undefined) =>
    money(data.reduce((a, r) => a + (f(r) ?? 0), 0));
  return {
    status: 'success',
    data,
    total_pnl: sum((r) => r.total_pnl_today),
    total_pnl_today: sum((r) => r.total_pnl_today),
    total_today_realized_pnl: sum((r) => r.today_realized_pnl),
    total_unrealized_pnl: sum((r) => r.unrealized_pnl),
    mode: ANALYZE,
  };
}

export function holdingRecord(h: PaperHolding): HoldingRecord {
  return {
    exchange: h.exchange,
    symbol: h.symbol,
    product: 'CNC',
    quantity: h.quantity,
    pnl: money(h.pnl),
    pnlpercent: money(h.pnlpercent),
    average_price: price(h.average_price),
    ltp: price(h.ltp),
  };
}

/** Spec §2.5 statistics: Σ ltp×qty, Σ avg×qty, Σ pnl and pnl / invested × 100. */
export function holdingStatistics(holdings: readonly PaperHolding[]): {
  totalholdingvalue: number;
  totalinvvalue: number;
  totalpnlpercentage: number;
  totalprofitandloss: number;
} {
  let value = 0;
  let invested = 0;
  let pnl = 0;
  for (const h of holdings) {
    value += h.ltp * h.quantity;
    invested += h.average_price * h.quantity;
    pnl += h.pnl;
  }
  return {
    totalholdingvalue: money(value),
    totalinvvalue: money(invested),
    totalpnlpercentage: invested === 0 ? 0 : money((pnl / invested) * 100),
    totalprofitandloss: money(pnl),
  };
}

export function fundsRecord(f: PaperFunds): FundsRecord {
  return {
    availablecash: money2(f.availablecash),
    collateral: money2(f.collateral),
    m2mrealized: money2(f.m2mrealized),
    m2munrealized: money2(f.m2munrealized),
    utiliseddebits: money2(f.utiliseddebits),
  };
}
