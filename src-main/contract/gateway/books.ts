// Account reads: order book, order status, trade book, positions, holdings, funds, analyzer status.
import { z } from 'zod';
import { SuccessStatus, money2, num, str } from './primitives.js';

/**
 * `"analyze"` on account and order answers of a gateway in analyze (sandbox) mode; a gateway trading
 * live leaves it out. Kept on the answer so the desk can tell a sandbox from real money.
 */
export const GatewayMode = str.optional();

export const ORDER_STATUSES = ['open', 'trigger pending', 'complete', 'cancelled', 'rejected'] as const;
export type KnownOrderStatus = (typeof ORDER_STATUSES)[number];
const STATUS_SYNONYMS: Record<string, KnownOrderStatus> = {
  canceled: 'cancelled',
  completed: 'complete',
  filled: 'complete',
  trigger_pending: 'trigger pending',
  'trigger-pending': 'trigger pending',
  pending: 'open',
};

/** order_status is an open set upstream: known values are normalised, anything else becomes 'unknown'. */
export const OrderStatusValue = str.transform((s): KnownOrderStatus | 'unknown' => {
  const v = s.trim().toLowerCase();
  if ((ORDER_STATUSES as readonly string[]).includes(v)) return v as KnownOrderStatus;
  return STATUS_SYNONYMS[v] ?? 'unknown';
});
export type OrderStatusValue = z.infer<typeof OrderStatusValue>;

export const OrderRecord = z.looseObject({
  action: str,
  exchange: str,
  order_status: OrderStatusValue,
  orderid: str,
  price: num,
  pricetype: str,
  product: str,
  quantity: num,
  symbol: str,
  timestamp: str,
  trigger_price: num,
  filled_quantity: num.optional(),
  pending_quantity: num.optional(),
  average_price: num.optional(),
  rejection_reason: str.optional(),
  strategy: str.optional(),
});
export type OrderRecord = z.infer<typeof OrderRecord>;

export const OrderStatistics = z.looseObject({
  total_buy_orders: num,
  total_sell_orders: num,
  total_completed_orders: num,
  total_open_orders: num,
  total_rejected_orders: num,
});
export type OrderStatistics = z.infer<typeof OrderStatistics>;

export const OrderBookResponse = z.object({
  status: SuccessStatus,
  data: z.object({ orders: z.array(OrderRecord).default([]), statistics: OrderStatistics }),
  mode: GatewayMode,
});
export type OrderBookResponse = z.infer<typeof OrderBookResponse>;

export const OrderStatusResponse = z.object({ status: SuccessStatus, data: OrderRecord, mode: GatewayMode });
export type OrderStatusResponse = z.infer<typeof OrderStatusResponse>;

export const TradeRecord = z.looseObject({
  action: str,
  average_price: num,
  exchange: str,
  orderid: str,
  product: str,
  quantity: num,
  symbol: str,
  timestamp: str,
  trade_value: num,
  tradeid: str.optional(),
  strategy: str.optional(),
});
export type TradeRecord = z.infer<typeof TradeRecord>;
export const TradeBookResponse = z.object({
  status: SuccessStatus,
  data: z.array(TradeRecord),
  mode: GatewayMode,
});
export type TradeBookResponse = z.infer<typeof TradeBookResponse>;

export const PositionRecord = z.looseObject({
  average_price: money2,
  exchange: str,
  product: str,
  quantity: num,
  symbol: str,
  ltp: num.optional(),
  pnl: num.optional(),
  // The live sandbox's extras (absent on a gateway trading live).
  /** The contract-value multiplier (1 for Indian instruments), not the exchange lot. */
  lot_size: num.optional(),
  pnlpercent: num.optional(),
  unrealized_pnl: num.optional(),
  today_realized_pnl: num.optional(),
  total_pnl_today: num.optional(),
});
export type PositionRecord = z.infer<typeof PositionRecord>;
export const PositionBookResponse = z.object({
  status: SuccessStatus,
  data: z.array(PositionRecord),
  // The live sandbox's totals over the rows.
  total_pnl: num.optional(),
  total_pnl_today: num.optional(),
  total_today_realized_pnl: num.optional(),
  total_unrealized_pnl: num.optional(),
  mode: GatewayMode,
});
export type PositionBookResponse = z.infer<typeof PositionBookResponse>;

export const HoldingRecord = z.looseObject({
  exchange: str,
  symbol: str,
  product: str,
  quantity: num,
  pnl: num,
  pnlpercent: num,
  average_price: num.optional(),
  ltp: num.optional(),
});
export type HoldingRecord = z.infer<typeof HoldingRecord>;
export const HoldingStatistics = z.looseObject({
  totalholdingvalue: num,
  totalinvvalue: num,
  totalpnlpercentage: num,
  totalprofitandloss: num,
});
export const HoldingsResponse = z.object({
  status: SuccessStatus,
  data: z.object({ holdings: z.array(HoldingRecord).default([]), statistics: HoldingStatistics }),
  mode: GatewayMode,
});
export type HoldingsResponse = z.infer<typeof HoldingsResponse>;

export const FundsRecord = z.looseObject({
  availablecash: money2,
  collateral: money2,
  m2mrealized: money2,
  m2munrealized: money2,
  utiliseddebits: money2,
});
export type FundsRecord = z.infer<typeof FundsRecord>;
export const FundsResponse = z.object({ status: SuccessStatus, data: FundsRecord, mode: GatewayMode });
export type FundsResponse = z.infer<typeof FundsResponse>;

/** Mode status; the paper gateway adds the hosted snapshot fields checked by closeposition. */
export const AnalyzerResponse = z.object({
  status: SuccessStatus,
  data: z.looseObject({
    analyze_mode: z.boolean(),
    mode: str,
    total_logs: num.optional(),
    balance_type: str.optional(),
    mode_version: num.optional(),
  }),
});
export type AnalyzerResponse = z.infer<typeof AnalyzerResponse>;
