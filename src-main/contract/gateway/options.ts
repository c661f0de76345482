// Option operations of the real gateway (not in the spec; gateway-behaviour §3.9, §3.10, §10):
// optionsymbol, optionchain, optiongreeks, syntheticfuture, optionsorder, optionsmultiorder. Strikes are
// named by an offset from the at-the-money strike; the gateway resolves the symbol.
import { z } from 'zod';
import { GatewayMode } from './books.js';
import { orderLeg, orderStrategy } from './orders.js';
import {
  ApiKey,
  EXCHANGES,
  PRICE_TYPES,
  SuccessStatus,
  num,
  oneOf,
  requestCount,
  requestNumber,
  requestPrice,
  str,
  symbolText,
  text,
} from './primitives.js';

// ---- requests ----
/** `ATM`, `ITM1`..`ITM50` or `OTM1`..`OTM50`, any case (§3.10). */
export const OptionOffset = z
  .string({ error: (iss) => (iss.input === undefined ? 'offset is required' : 'offset must be a string') })
  .trim()
  .toUpperCase()
  .regex(/^(ATM|(ITM|OTM)([1-9]|[1-4]\d|50))$/, 'Offset must be ATM, ITM1-ITM50, or OTM1-OTM50');
export const OPTION_TYPES = ['CE', 'PE'] as const;
const optionType = oneOf('option_type', OPTION_TYPES, true);
/** DDMMMYY, e.g. 25AUG26. */
const expiryDate = text('expiry_date', 16)
  .toUpperCase()
  .regex(/^\d{2}[A-Z]{3}\d{2}$/, 'expiry_date must be DDMMMYY, e.g. 25AUG26');
/** Options products: delivery (CNC) does not apply. */
const product = oneOf('product', ['MIS', 'NRML'] as const);

/** The underlying may carry its expiry (`NIFTY28OCT25FUT`); otherwise expiry_date names it. */
const underlying = {
  underlying: symbolText('underlying'),
  exchange: oneOf('exchange', EXCHANGES),
  expiry_date: expiryDate.optional(),
  strike_int: requestNumber('strike_int')
    .refine((n) => n > 0, 'strike_int must be a positive number')
    .optional(),
};

export const OptionSymbolRequest = z.object({
  apikey: ApiKey,
  ...underlying,
  offset: OptionOffset,
  option_type: optionType,
});
export type OptionSymbolRequest = z.infer<typeof OptionSymbolRequest>;

export const OptionChainRequest = z.object({
  apikey: ApiKey,
  ...underlying,
  expiry_date: expiryDate,
  strike_count: requestCount('strike_count', 1)
    .refine((n) => n <= 100, 'strike_count must be at most 100')
    .optional(),
  with_greeks: z.boolean({ error: 'with_greeks must be true or false' }).optional(),
});
export type OptionChainRequest = z.infer<typeof OptionChainRequest>;

export const SyntheticFutureRequest = z.object({ apikey: ApiKey, ...underlying, expiry_date: expiryDate });
export type SyntheticFutureRequest = z.infer<typeof SyntheticFutureRequest>;

export const OptionGreeksRequest = z.object({
  apikey: ApiKey,
  symbol: symbolText(),
  exchange: oneOf('exchange', EXCHANGES),
  interest_rate: requestNumber('interest_rate').optional(),
  forward_price: requestPrice('forward_price').optional(),
  underlying_symbol: symbolText('underlying_symbol').optional(),
  underlying_exchange: oneOf('underlying_exchange', EXCHANGES).optional(),
  expiry_time: text('expiry_time', 8).optional(),
});
export type OptionGreeksRequest = z.infer<typeof OptionGreeksRequest>;

/** Price fields of an options leg; the gateway fills in its defaults for those left out. */
const legPricing = {
  pricetype: oneOf('pricetype', PRICE_TYPES).optional(),
  product: product.optional(),
  price: requestPrice('price').optional(),
  trigger_price: requestPrice('trigger_price').optional(),
  splitsize: requestCount('splitsize').optional(),
};

export const OptionsOrderRequest = z.object({
  apikey: ApiKey,
  strategy: orderStrategy,
  ...underlying,
  offset: OptionOffset,
  option_type: optionType,
  action: orderLeg.action,
  quantity: orderLeg.quantity,
  ...legPricing,
  disclosed_quantity: requestCount('disclosed_quantity').optional(),
});
export type OptionsOrderRequest = z.infer<typeof OptionsOrderRequest>;

export const OptionsLeg = z.object({
  offset: OptionOffset,
  option_type: optionType,
  action: orderLeg.action,
  quantity: orderLeg.quantity,
  /** A leg may name its own expiry (diagonal and calendar spreads). */
  expiry_date: expiryDate.optional(),
  ...legPricing,
});
export const OptionsMultiOrderRequest = z.object({
  apikey: ApiKey,
  strategy: orderStrategy,
  ...underlying,
  legs: z
    .array(OptionsLeg, { error: 'legs must be a list of option legs' })
    .min(1, 'legs must hold at least one leg')
    .max(20, 'legs may hold at most 20 legs'),
});
export type OptionsMultiOrderRequest = z.infer<typeof OptionsMultiOrderRequest>;

// ---- responses ----
export const OptionSymbolResponse = z.looseObject({
  status: SuccessStatus,
  symbol: str,
  exchange: str,
  lotsize: num,
  tick_size: num,
  freeze_qty: num.optional(),
  underlying_ltp: num,
});
export type OptionSymbolResponse = z.infer<typeof OptionSymbolResponse>;

const greeks = {
  implied_volatility: num.optional(),
  delta: num.optional(),
  gamma: num.optional(),
  theta: num.optional(),
  vega: num.optional(),
};

/** One side of a strike; the quote fields are absent when the chain was asked without quotes. */
export const OptionChainLeg = z.looseObject({
  symbol: str,
  /** ATM, ITMn or OTMn. */
  label: str,
  ltp: num,
  bid: num.optional(),
  ask: num.optional(),
  bid_qty: num.optional(),
  ask_qty: num.optional(),
  open: num.optional(),
  high: num.optional(),
  low: num.optional(),
  prev_close: num.optional(),
  volume: num.optional(),
  oi: num.optional(),
  lotsize: num.optional(),
  tick_size: num.optional(),
  ...greeks,
});
export type OptionChainLeg = z.infer<typeof OptionChainLeg>;
export const OptionChainRow = z.looseObject({
  strike: num,
  // A strike may be listed for one side only.
  ce: OptionChainLeg.nullish(),
  pe: OptionChainLeg.nullish(),
});
export const OptionChainResponse = z.looseObject({
  status: SuccessStatus,
  underlying: str,
  underlying_ltp: num,
  underlying_prev_close: num.optional(),
  expiry_date: str,
  atm_strike: num,
  expiry_ts: num.optional(),
  server_ts: num.optional(),
  quotes_included: z.boolean().optional(),
  greeks_included: z.boolean().optional(),
  forward_price: num.optional(),
  chain: z.array(OptionChainRow),
});
export type OptionChainResponse = z.infer<typeof OptionChainResponse>;

export const OptionGreeksResponse = z.looseObject({
  status: SuccessStatus,
  symbol: str,
  exchange: str,
  underlying: str,
  strike: num,
  option_type: str,
  expiry_date: str,
  days_to_expiry: num,
  spot_price: num,
  option_price: num,
  interest_rate: num.optional(),
  implied_volatility: num,
  greeks: z.looseObject({ delta: num, gamma: num, theta: num, vega: num, rho: num.optional() }),
});
export type OptionGreeksResponse = z.infer<typeof OptionGreeksResponse>;

/** Greeks of up to 50 options in one call; the rate and expiry time apply to all. */
export const MultiOptionGreeksRequest = z.object({
  apikey: ApiKey,
  symbols: z
    .array(
      OptionGreeksRequest.pick({
        symbol: true,
        exchange: true,
        underlying_symbol: true,
        underlying_exchange: true,
      }),
    )
    .min(1, 'symbols must name at least one option')
    .max(50, 'symbols may name at most 50 options'),
  interest_rate: OptionGreeksRequest.shape.interest_rate,
  expiry_time: OptionGreeksRequest.shape.expiry_time,
});
export type MultiOptionGreeksRequest = z.infer<typeof MultiOptionGreeksRequest>;

/** A symbol's greeks (optiongreeks' answer), or why it has none. */
export const MultiOptionGreeksItem = z.union([
  OptionGreeksResponse,
  z.looseObject({ status: z.literal('error'), symbol: str, exchange: str, message: str }),
]);
/**
 * Always HTTP 200 upstream: `partial` when some symbols failed (each says why); `error` when all did,
 * which the client reads as a failure with the gateway's message.
 */
export const MultiOptionGreeksResponse = z.looseObject({
  status: z.enum(['success', 'partial']),
  data: z.array(MultiOptionGreeksItem),
  summary: z.looseObject({ total: num, success: num, failed: num }),
});
export type MultiOptionGreeksResponse = z.infer<typeof MultiOptionGreeksResponse>;

export const SyntheticFutureResponse = z.looseObject({
  status: SuccessStatus,
  underlying: str,
  underlying_ltp: num,
  expiry: str,
  atm_strike: num,
  synthetic_future_price: num,
});
export type SyntheticFutureResponse = z.infer<typeof SyntheticFutureResponse>;

/** The resolved option is named in the answer: what was actually ordered. */
export const OptionsOrderResponse = z.looseObject({
  status: SuccessStatus,
  // Absent when the order was split (splitsize > 0): the children are then in `results`.
  orderid: str.optional(),
  symbol: str,
  exchange: str,
  offset: str,
  option_type: str,
  underlying: str,
  underlying_ltp: num,
  mode: GatewayMode,
  results: z.array(z.looseObject({ orderid: str.optional(), status: str })).optional(),
  /** With `results`: the split asked for and the whole quantity, as the live server answers. */
  split_size: num.optional(),
  total_quantity: num.optional(),
});
export type OptionsOrderResponse = z.infer<typeof OptionsOrderResponse>;

/** Per leg: a failed leg has a message and no order id; the others are still placed. */
export const OptionsLegResult = z.looseObject({
  leg: num,
  action: str,
  exchange: str.optional(),
  offset: str,
  option_type: str,
  product: str.optional(),
  /** The live server answers null here. */
  strike: num.nullable().optional(),
  status: str,
  symbol: str.optional(),
  orderid: str.optional(),
  mode: GatewayMode,
  message: str.optional(),
});
export type OptionsLegResult = z.infer<typeof OptionsLegResult>;
export const OptionsMultiOrderResponse = z.looseObject({
  status: SuccessStatus,
  underlying: str,
  underlying_ltp: num,
  results: z.array(OptionsLegResult),
  mode: GatewayMode,
});
export type OptionsMultiOrderResponse = z.infer<typeof OptionsMultiOrderResponse>;
