// Order operations (spec §4.9-§4.15, plus the hosted closeposition variant and positionsopen).
import { z } from 'zod';
import { GatewayMode } from './books.js';
import {
  ACTIONS,
  ApiKey,
  ORDER_EXCHANGES,
  PRICE_TYPES,
  PRODUCTS,
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
const strategy = text('strategy', 64);
const leg = {
  exchange: oneOf('exchange', ORDER_EXCHANGES),
  symbol: symbolText(),
  action: oneOf('action', ACTIONS, true),
  quantity: requestCount('quantity', 1),
  pricetype: oneOf('pricetype', PRICE_TYPES).default('MARKET'),
  product: oneOf('product', PRODUCTS).default('MIS'),
  price: requestPrice('price').default(0),
  trigger_price: requestPrice('trigger_price').default(0),
  disclosed_quantity: requestCount('disclosed_quantity').default(0),
};
/** Shared with the other order-like requests (options orders, the margin calculator). */
export { strategy as orderStrategy, leg as orderLeg };

export const PlaceOrderRequest = z.object({ apikey: ApiKey, strategy, ...leg });
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;
export type PlaceOrderInput = z.input<typeof PlaceOrderRequest>;

export const SmartOrderRequest = z.object({
  apikey: ApiKey,
  strategy,
  ...leg,
  quantity: requestCount('quantity', 0),
  position_size: requestNumber('position_size').refine(
    Number.isInteger,
    'position_size must be a whole number',
  ),
});
export type SmartOrderRequest = z.infer<typeof SmartOrderRequest>;

export const SplitOrderRequest = z.object({
  apikey: ApiKey,
  strategy,
  ...leg,
  splitsize: requestCount('splitsize', 1),
});
export type SplitOrderRequest = z.infer<typeof SplitOrderRequest>;

export const BasketLeg = z.object(leg);
export type BasketLeg = z.infer<typeof BasketLeg>;
export const BasketOrderRequest = z.object({
  apikey: ApiKey,
  strategy,
  orders: z
    .array(BasketLeg, { error: 'orders must be a list of order legs' })
    .min(1, 'orders must hold at least one leg')
    .max(100, 'orders may hold at most 100 legs'),
});
export type BasketOrderRequest = z.infer<typeof BasketOrderRequest>;

export const ModifyOrderRequest = z.object({
  apikey: ApiKey,
  strategy,
  orderid: text('orderid', 64),
  exchange: leg.exchange,
  symbol: leg.symbol,
  action: leg.action,
  quantity: leg.quantity,
  pricetype: oneOf('pricetype', PRICE_TYPES),
  product: oneOf('product', PRODUCTS),
  price: requestPrice('price'),
  trigger_price: requestPrice('trigger_price'),
  disclosed_quantity: requestCount('disclosed_quantity'),
});
export type ModifyOrderRequest = z.infer<typeof ModifyOrderRequest>;

export const CancelOrderRequest = z.object({ apikey: ApiKey, strategy, orderid: text('orderid', 64) });
export type CancelOrderRequest = z.infer<typeof CancelOrderRequest>;
export const CancelAllOrderRequest = z.object({ apikey: ApiKey, strategy });
export type CancelAllOrderRequest = z.infer<typeof CancelAllOrderRequest>;
export const ClosePositionRequest = z.object({ apikey: ApiKey, strategy });
export type ClosePositionRequest = z.infer<typeof ClosePositionRequest>;
export const HostedClosePositionRequest = z.object({
  apikey: ApiKey,
  strategy,
  expected_mode: text('expected_mode', 32),
  expected_balance_type: text('expected_balance_type', 32),
  expected_mode_version: requestCount('expected_mode_version'),
  request_id: text('request_id', 128),
});
export type HostedClosePositionRequest = z.infer<typeof HostedClosePositionRequest>;

export const OrderStatusRequest = CancelOrderRequest;
export type OrderStatusRequest = CancelOrderRequest;
export const OpenPositionRequest = z.object({
  apikey: ApiKey,
  strategy,
  symbol: leg.symbol,
  exchange: leg.exchange,
  product: oneOf('product', PRODUCTS),
});
export type OpenPositionRequest = z.infer<typeof OpenPositionRequest>;
/** The hosted gateway also takes the mode snapshot and a request id; plain ones ignore them. */
export const PositionsOpenRequest = OpenPositionRequest.extend({
  expected_mode: text('expected_mode', 32).optional(),
  expected_balance_type: text('expected_balance_type', 32).optional(),
  expected_mode_version: requestCount('expected_mode_version').optional(),
  request_id: text('request_id', 128).optional(),
});
export type PositionsOpenRequest = z.infer<typeof PositionsOpenRequest>;

// ---- responses ----
/**
 * The order id a placeorder, modifyorder or cancelorder answer exists to return. A "success" without
 * one (missing, null, empty) does not parse, so the client reports an unknown outcome (settled from
 * the order book) instead of a done order with no id.
 */
const orderIdField = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z.string({ error: 'orderid is missing' }).trim().min(1, 'orderid is empty'),
);
export const OrderIdResponse = z.looseObject({ status: SuccessStatus, orderid: orderIdField });

/**
 * A gateway in semi-auto mode queues an order for approval in its Action Center instead of placing it
 * (gateway-behaviour §1.5): a success without an orderid, with the pending order's number instead.
 */
export const QueuedOrderResponse = z.looseObject({
  status: SuccessStatus,
  mode: z.literal('semi_auto'),
  pending_order_id: str.pipe(z.string().min(1)),
  message: str.optional(),
});
export type QueuedOrderResponse = z.infer<typeof QueuedOrderResponse>;
export type OrderIdResponse = z.infer<typeof OrderIdResponse>;

/** A smart order either places an order or answers "no action" with a message (gateway-behaviour §6). */
export const SmartOrderResponse = z.looseObject({
  status: SuccessStatus,
  orderid: str.optional(),
  message: str.optional(),
  mode: GatewayMode,
});
export type SmartOrderResponse = z.infer<typeof SmartOrderResponse>;

export const SplitChildResult = z.looseObject({
  order_num: num,
  orderid: str.optional(),
  quantity: num,
  status: str,
  message: str.optional(),
});
export const SplitOrderResponse = z.looseObject({
  status: SuccessStatus,
  split_size: num,
  total_quantity: num,
  results: z.array(SplitChildResult),
  mode: GatewayMode,
});
export type SplitOrderResponse = z.infer<typeof SplitOrderResponse>;

export const BasketLegResult = z.looseObject({
  orderid: str.optional(),
  status: str,
  symbol: str,
  exchange: str.optional(),
  product: str.optional(),
  message: str.optional(),
});
export const BasketOrderResponse = z.looseObject({
  status: SuccessStatus,
  results: z.array(BasketLegResult),
  mode: GatewayMode,
});
export type BasketOrderResponse = z.infer<typeof BasketOrderResponse>;

/** failed_cancellations items are bare ids on some gateways and {orderid, message|reason} on others. */
export const FailedCancellation = z
  .union([str, z.looseObject({ orderid: str, message: str.optional(), reason: str.optional() })])
  .transform((f) =>
    typeof f === 'string'
      ? { orderid: f, message: '' }
      : { orderid: f.orderid, message: f.message ?? f.reason ?? '' },
  );
export const CancelAllOrderResponse = z.looseObject({
  status: SuccessStatus,
  canceled_orders: z.array(str).default([]),
  failed_cancellations: z.array(FailedCancellation).default([]),
  message: str,
  mode: GatewayMode,
});
export type CancelAllOrderResponse = z.infer<typeof CancelAllOrderResponse>;

export const ClosePositionResponse = z.looseObject({
  status: SuccessStatus,
  message: str,
  code: z.string().optional(),
  mode: GatewayMode,
});
export type ClosePositionResponse = z.infer<typeof ClosePositionResponse>;

export const OpenPositionResponse = z.looseObject({ status: SuccessStatus, quantity: num });
export type OpenPositionResponse = z.infer<typeof OpenPositionResponse>;
export const PositionsOpenResponse = OpenPositionResponse;
export type PositionsOpenResponse = OpenPositionResponse;
