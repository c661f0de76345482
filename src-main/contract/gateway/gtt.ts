// GTT (good-till-triggered) orders: placegttorder, modifygttorder, cancelgttorder, gttorderbook, in the
// live server's flat request shape (gateway-behaviour "Live server, recorded"; upstream
// restx_api/schemas.py PlaceGTTOrderSchema). A GTT rests with one trigger (SINGLE) or two (OCO: a
// stoploss leg below the price and a target leg above it); when the price crosses a trigger, that leg's
// order is placed. Unknown request fields are dropped, as upstream's GTT schemas do (unknown=EXCLUDE).
import { z } from 'zod';
import {
  ACTIONS,
  ApiKey,
  ORDER_EXCHANGES,
  SuccessStatus,
  num,
  oneOf,
  requestCount,
  requestPrice,
  str,
  symbolText,
  text,
} from './primitives.js';

export const GTT_TRIGGER_TYPES = ['SINGLE', 'OCO'] as const;
export type GttTriggerType = (typeof GTT_TRIGGER_TYPES)[number];
export const GTT_PRODUCTS = ['CNC', 'NRML'] as const;
export type GttProduct = (typeof GTT_PRODUCTS)[number];
export const GTT_PRICE_TYPES = ['LIMIT', 'MARKET'] as const;
/** The statuses a GTT row can carry; the live server lists active and cancelled, the sandbox adds the rest. */
export const GTT_STATUSES = ['active', 'triggered', 'cancelled', 'rejected', 'expired'] as const;
/** The book's status filter: the live server accepts these two only (any other is a 400). */
export const GTT_BOOK_FILTERS = ['active', 'all'] as const;

export const GTT_PRODUCT_MESSAGE =
  'product: GTT supports only CNC (delivery) or NRML (overnight F&O); MIS is intraday-only';

/** A trigger id as the paper gateway (and the live sandbox) issues it: GTT-YYMMDD-<8 hex>. */
export const GTT_ID_PATTERN = /^GTT-\d{6}-[0-9a-f]{8}$/;

const triggerType = z
  .string({
    error: (iss) => (iss.input === undefined ? 'trigger_type is required' : 'trigger_type must be a string'),
  })
  .transform((s, ctx) => {
    const v = s.trim().toUpperCase();
    if (v !== 'SINGLE' && v !== 'OCO') {
      ctx.addIssue({ code: 'custom', message: "trigger_type must be 'SINGLE' or 'OCO'" });
      return z.NEVER;
    }
    return v as GttTriggerType;
  });

const gttProduct = z
  .string({ error: (iss) => (iss.input === undefined ? 'product is required' : 'product must be a string') })
  .transform((s, ctx) => {
    const v = s.trim();
    if (v !== 'CNC' && v !== 'NRML') {
      ctx.addIssue({ code: 'custom', message: GTT_PRODUCT_MESSAGE });
      return z.NEVER;
    }
    return v as GttProduct;
  });

/** An optional trigger or leg price: absent, null or "" is 0 (upstream's coerce_empty_to_none). */
function optionalPrice(field: string) {
  return z
    .union([z.literal(''), z.null(), requestPrice(field)], { error: `${field} must be a number` })
    .optional()
    .transform((v) => (typeof v === 'number' ? v : 0));
}

const gttFields = {
  apikey: ApiKey,
  strategy: text('strategy', 64),
  trigger_type: triggerType,
  exchange: oneOf('exchange', ORDER_EXCHANGES),
  symbol: symbolText(),
  action: oneOf('action', ACTIONS, true),
  product: gttProduct,
  quantity: requestCount('quantity', 1),
  pricetype: oneOf('pricetype', GTT_PRICE_TYPES).default('LIMIT'),
  /** The SINGLE leg's limit price (OCO: the price at placement, echoed as the book's reference). */
  price: requestPrice('price'),
  /** The stoploss trigger: fires when the price falls to it. */
  triggerprice_sl: optionalPrice('triggerprice_sl'),
  /** The target trigger: fires when the price rises to it. */
  triggerprice_tg: optionalPrice('triggerprice_tg'),
  /** OCO: the stoploss leg's limit price. */
  stoploss: optionalPrice('stoploss'),
  /** OCO: the target leg's limit price. */
  target: optionalPrice('target'),
};

interface GttShape {
  trigger_type: string;
  triggerprice_sl: number;
  triggerprice_tg: number;
  stoploss: number;
  target: number;
}

/**
 * The live server's rules between fields: SINGLE takes exactly one of triggerprice_sl and
 * triggerprice_tg; OCO takes all four prices, with the stoploss trigger below the target trigger.
 */
function checkTriggers(r: GttShape, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (r.trigger_type === 'OCO') {
    if (r.triggerprice_sl <= 0)
      issue('triggerprice_sl', 'triggerprice_sl is required for OCO (stoploss trigger)');
    else if (r.stoploss <= 0) issue('stoploss', 'stoploss is required for OCO (stoploss leg limit)');
    else if (r.triggerprice_tg <= 0)
      issue('triggerprice_tg', 'triggerprice_tg is required for OCO (target trigger)');
    else if (r.target <= 0) issue('target', 'target is required for OCO (target leg limit)');
    else if (r.triggerprice_sl >= r.triggerprice_tg)
      issue(
        'triggerprice_sl',
        'triggerprice_sl (stoploss trigger) must be less than triggerprice_tg (target trigger)',
      );
    return;
  }
  if (r.triggerprice_sl <= 0 && r.triggerprice_tg <= 0)
    issue(
      'triggerprice_sl',
      'triggerprice_sl: a SINGLE GTT needs a positive triggerprice_sl or triggerprice_tg',
    );
  else if (r.triggerprice_sl > 0 && r.triggerprice_tg > 0)
    issue('triggerprice_tg', 'triggerprice_tg: a SINGLE GTT takes one trigger; send both as an OCO');
}

export const PlaceGttOrderRequest = z.object(gttFields).superRefine(checkTriggers);
export type PlaceGttOrderRequest = z.infer<typeof PlaceGttOrderRequest>;
export type PlaceGttOrderInput = z.input<typeof PlaceGttOrderRequest>;

/** A modify replaces the GTT's prices and quantity; action, symbol, exchange and trigger_type stay. */
export const ModifyGttOrderRequest = z
  .object({ ...gttFields, trigger_id: text('trigger_id', 64) })
  .superRefine(checkTriggers);
export type ModifyGttOrderRequest = z.infer<typeof ModifyGttOrderRequest>;
export type ModifyGttOrderInput = z.input<typeof ModifyGttOrderRequest>;

export const CancelGttOrderRequest = z.object({
  apikey: ApiKey,
  strategy: text('strategy', 64),
  trigger_id: text('trigger_id', 64),
});
export type CancelGttOrderRequest = z.infer<typeof CancelGttOrderRequest>;

export const GttOrderBookRequest = z.object({
  apikey: ApiKey,
  status: oneOf('status', GTT_BOOK_FILTERS).default('active'),
});
export type GttOrderBookRequest = z.infer<typeof GttOrderBookRequest>;
export type GttOrderBookInput = z.input<typeof GttOrderBookRequest>;

// ---- responses ----
/** place/modify/cancel answer `{status, trigger_id, mode}`; a broker's own ids may be numeric. */
export const GttIdResponse = z.looseObject({
  status: SuccessStatus,
  trigger_id: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string({ error: 'trigger_id is missing' }).trim().min(1, 'trigger_id is empty'),
  ),
  mode: str.optional(),
});
export type GttIdResponse = z.infer<typeof GttIdResponse>;

export const GttLeg = z.looseObject({
  action: str,
  quantity: num,
  price: num,
  pricetype: str,
  product: str,
  /** The order a fired leg placed; null while it rests (the live broker mappers omit it). */
  triggered_order_id: z
    .preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().nullable())
    .optional()
    .transform((v) => v ?? null),
});
export type GttLeg = z.infer<typeof GttLeg>;

export const GttRecord = z.looseObject({
  trigger_id: str,
  /** 'single' or 'two-leg' (an OCO). */
  trigger_type: str,
  /** 'active', 'triggered', 'cancelled', … (an open set, lower case). */
  status: str.transform((s) => s.trim().toLowerCase()),
  symbol: str,
  exchange: str,
  trigger_prices: z.array(num),
  last_price: num,
  legs: z.array(GttLeg),
  /** ISO local time (IST) without a zone, as the live server writes it. */
  created_at: str,
  updated_at: str,
  expires_at: str,
  strategy: str.optional(),
  /** Margin the GTT holds while active (sandbox only; 0 once cancelled or triggered). */
  margin_blocked: num.optional(),
});
export type GttRecord = z.infer<typeof GttRecord>;

export const GttOrderBookResponse = z.looseObject({
  status: SuccessStatus,
  data: z.array(GttRecord).default([]),
  mode: str.optional(),
});
export type GttOrderBookResponse = z.infer<typeof GttOrderBookResponse>;
