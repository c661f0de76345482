// The desk's view models: one per book, shared by the channel that reads the book (`books.orders`)
// and the event that updates it (`books.orders` carries `{ profileId, view }`), so the desk renders
// one shape whichever way it arrived. Rows are camel-cased with numbers normalised; money the gateway
// sends as two-decimal text (funds) stays decimal text, never a binary float.
import { z } from 'zod';

/** A decimal number as text ("-12.50"), exactly as the gateway stated it. */
export const DecimalText = z.string().regex(/^[+-]?(\d+(\.\d*)?|\.\d+)$/, 'not a decimal number');
export type DecimalText = z.infer<typeof DecimalText>;

// ---- orders ----
/** One order as the order book shows it (camel-cased, numbers normalised). */
export const OrderSnapshot = z.object({
  orderid: z.string(),
  symbol: z.string(),
  exchange: z.string(),
  action: z.string(),
  product: z.string(),
  pricetype: z.string(),
  quantity: z.number(),
  filledQuantity: z.number(),
  price: z.number(),
  triggerPrice: z.number(),
  averagePrice: z.number(),
  /** open, trigger pending, complete, cancelled, rejected or unknown. */
  status: z.string(),
  rejectionReason: z.string().optional(),
  strategy: z.string().optional(),
  timestamp: z.string(),
});
export type OrderSnapshot = z.infer<typeof OrderSnapshot>;

/** The order book's own counts, as the gateway gave them. */
export const OrderStatisticsView = z.object({
  totalBuyOrders: z.number(),
  totalSellOrders: z.number(),
  totalCompletedOrders: z.number(),
  totalOpenOrders: z.number(),
  totalRejectedOrders: z.number(),
});
export type OrderStatisticsView = z.infer<typeof OrderStatisticsView>;

export const OrdersView = z.object({ orders: z.array(OrderSnapshot), statistics: OrderStatisticsView });
export type OrdersView = z.infer<typeof OrdersView>;

// ---- trades ----
export const TradeRow = z.object({
  orderid: z.string(),
  tradeid: z.string().optional(),
  symbol: z.string(),
  exchange: z.string(),
  action: z.string(),
  product: z.string(),
  quantity: z.number(),
  averagePrice: z.number(),
  tradeValue: z.number(),
  strategy: z.string().optional(),
  timestamp: z.string(),
});
export type TradeRow = z.infer<typeof TradeRow>;

export const TradesView = z.object({ trades: z.array(TradeRow) });
export type TradesView = z.infer<typeof TradesView>;

// ---- positions ----
/** One position with its mark-to-market from the last price known. */
export const PositionView = z.object({
  symbol: z.string(),
  exchange: z.string(),
  product: z.string(),
  quantity: z.number(),
  averagePrice: z.number(),
  /** Null when no quote could be had within the rate budget. */
  ltp: z.number().nullable(),
  /** Unrealised P&L of the open quantity at `ltp`, exact to the paisa. */
  mtm: z.number().nullable(),
  /**
   * The day's realised P&L as the gateway states it (`today_realized_pnl`, or a flat row's `pnl`);
   * absent where the row does not say.
   */
  realised: z.number().optional(),
});
export type PositionView = z.infer<typeof PositionView>;

export const PositionsView = z.object({
  positions: z.array(PositionView),
  /** Sum of the rows' MTM; null while an open position has no price. */
  totalMtm: z.number().nullable(),
});
export type PositionsView = z.infer<typeof PositionsView>;

// ---- holdings ----
export const HoldingRow = z.object({
  symbol: z.string(),
  exchange: z.string(),
  product: z.string(),
  quantity: z.number(),
  /** Null where the gateway does not say. */
  averagePrice: z.number().nullable(),
  ltp: z.number().nullable(),
  pnl: z.number(),
  pnlPercent: z.number(),
});
export type HoldingRow = z.infer<typeof HoldingRow>;

export const HoldingsView = z.object({
  holdings: z.array(HoldingRow),
  statistics: z.object({
    totalHoldingValue: z.number(),
    totalInvestmentValue: z.number(),
    totalPnl: z.number(),
    totalPnlPercent: z.number(),
  }),
});
export type HoldingsView = z.infer<typeof HoldingsView>;

// ---- funds ----
export const FundsView = z.object({
  availableCash: DecimalText,
  collateral: DecimalText,
  realisedMtm: DecimalText,
  unrealisedMtm: DecimalText,
  /** Margin in use. */
  utilisedDebits: DecimalText,
});
export type FundsView = z.infer<typeof FundsView>;

// ---- instruments ----
/** What the ticket needs to know of an instrument (`market.symbol`). */
export const SymbolInfo = z.object({
  symbol: z.string(),
  exchange: z.string(),
  name: z.string(),
  /** The broker's word (EQ, FUT, CE, OPTIDX…); empty for equities on some brokers. */
  instrumentType: z.string(),
  token: z.string(),
  /** `DD-MMM-YY`; empty for instruments that do not expire. */
  expiry: z.string(),
  /** Null for anything but options (gateways send -0.01 or 0 there). */
  strike: z.number().nullable(),
  lotSize: z.number(),
  tickSize: z.number(),
  /** The largest quantity one order may carry; null where the gateway does not say. */
  freezeQuantity: z.number().nullable(),
});
export type SymbolInfo = z.infer<typeof SymbolInfo>;
