// Account reads of the real gateway that are not in the spec: the margin calculator (§5.6) and the
// analyzer's per-symbol P&L (§10, analyze mode only: a live gateway answers 400).
import { z } from 'zod';
import { orderLeg } from './orders.js';
import {
  ApiKey,
  PRICE_TYPES,
  PRODUCTS,
  SuccessStatus,
  num,
  oneOf,
  requestPrice,
  str,
  symbolText,
} from './primitives.js';

// ---- requests ----
/**
 * Upstream reads quantity, price and trigger_price as strings only (a JSON number is refused); the
 * client sends every number as a string, so a number is accepted here.
 */
export const MarginPosition = z.object({
  symbol: symbolText('symbol', 50),
  exchange: orderLeg.exchange,
  action: orderLeg.action,
  quantity: orderLeg.quantity,
  product: oneOf('product', PRODUCTS),
  pricetype: oneOf('pricetype', PRICE_TYPES),
  price: requestPrice('price').optional(),
  trigger_price: requestPrice('trigger_price').optional(),
});
export type MarginPosition = z.infer<typeof MarginPosition>;
export const MarginRequest = z.object({
  apikey: ApiKey,
  positions: z
    .array(MarginPosition, { error: 'positions must be a list of positions' })
    .min(1, 'positions must hold at least one position')
    .max(50, 'positions may hold at most 50 positions'),
});
export type MarginRequest = z.infer<typeof MarginRequest>;

// ---- responses ----
export const MarginResponse = z.object({
  status: SuccessStatus,
  data: z.looseObject({
    total_margin_required: num,
    span_margin: num,
    exposure_margin: num,
    /** Present when the positions hedge each other (broker-dependent). */
    margin_benefit: num.optional(),
  }),
});
export type MarginResponse = z.infer<typeof MarginResponse>;

export const PnlSymbolRecord = z.looseObject({
  symbol: str,
  exchange: str,
  product: str,
  quantity: num,
  pnl: num,
  unrealized_pnl: num,
  today_realized_pnl: num,
  total_pnl_today: num,
});
export type PnlSymbolRecord = z.infer<typeof PnlSymbolRecord>;
export const PnlSymbolsResponse = z.looseObject({
  status: SuccessStatus,
  data: z.array(PnlSymbolRecord).default([]),
  total_pnl: num,
  total_unrealized_pnl: num,
  total_today_realized_pnl: num,
  total_pnl_today: num,
  mode: str.optional(),
});
export type PnlSymbolsResponse = z.infer<typeof PnlSymbolsResponse>;
