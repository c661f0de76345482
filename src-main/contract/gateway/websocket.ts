// The real gateway's WebSocket feed (ws://127.0.0.1:8765, gateway-behaviour §13): what a client sends
// and every message the server answers with. Shapes follow websocket_proxy/server.py; the per-mode
// docs' `instruments` key and `type: "ltp"|"quote"|"depth"` ticks (doc≠code) are read too.
import { z } from 'zod';
import { OrderStatusValue } from './books.js';
import { EXCHANGES, num, oneOf, str, symbolText, text } from './primitives.js';

// ---- client → server ----
/** 1|2|3 or LTP|Quote|Depth in any case; normalised to the number. */
export const WS_MODES = { LTP: 1, QUOTE: 2, DEPTH: 3 } as const;
export const WsMode = z.union([z.literal(1), z.literal(2), z.literal(3), z.string()]).transform((m, ctx) => {
  if (typeof m === 'number') return m;
  const n = WS_MODES[m.trim().toUpperCase() as keyof typeof WS_MODES];
  if (n === undefined) {
    ctx.addIssue({ code: 'custom', message: 'mode must be 1, 2, 3, LTP, Quote or Depth' });
    return z.NEVER;
  }
  return n;
});
export type WsMode = z.infer<typeof WsMode>;

export const WsAuthenticate = z
  .object({
    action: z.literal('authenticate'),
    api_key: text('api_key', 256).optional(),
    apikey: text('apikey', 256).optional(),
  })
  .refine((m) => m.api_key !== undefined || m.apikey !== undefined, 'api_key is required');

/** Depth levels asked for (the live server accepts 5, 20 and 50). */
const WsDepth = z.union([z.literal(5), z.literal(20), z.literal(30), z.literal(50)]);

const instrument = z.object({ symbol: symbolText(), exchange: oneOf('exchange', EXCHANGES) });
/** `symbols`, or one `symbol` + `exchange`, or the docs' `instruments`; all read as `symbols`. */
export const WsSubscribe = z
  .object({
    action: z.enum(['subscribe', 'unsubscribe']),
    symbols: z.array(instrument).min(1).optional(),
    instruments: z.array(instrument).min(1).optional(),
    symbol: symbolText().optional(),
    exchange: oneOf('exchange', EXCHANGES).optional(),
    mode: WsMode.default(2),
    depth: WsDepth.optional(),
    /** The legacy name of `depth`, still read by the live server. */
    depth_level: WsDepth.optional(),
    request_id: str.optional(),
  })
  .transform((m, ctx) => {
    const one =
      m.symbol !== undefined && m.exchange !== undefined ? [{ symbol: m.symbol, exchange: m.exchange }] : [];
    const symbols = m.symbols ?? m.instruments ?? one;
    if (symbols.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'symbols (or symbol and exchange) are required' });
      return z.NEVER;
    }
    const depth = m.depth ?? m.depth_level;
    return {
      action: m.action,
      symbols,
      mode: m.mode,
      ...(depth !== undefined ? { depth } : {}),
      ...(m.request_id !== undefined ? { request_id: m.request_id } : {}),
    };
  });

export const WsSimpleAction = z.object({
  action: z.enum([
    'unsubscribe_all',
    'subscribe_orders',
    'unsubscribe_orders',
    'get_broker_info',
    'get_supported_brokers',
    'ping',
  ]),
  request_id: str.optional(),
});

export const WsClientMessage = z.union([WsAuthenticate, WsSubscribe, WsSimpleAction]);
export type WsClientMessage = z.infer<typeof WsClientMessage>;

// ---- server → client ----
export const WsAuthMessage = z.looseObject({
  type: z.literal('auth'),
  status: str,
  message: str,
  broker: str.optional(),
  user_id: str.optional(),
  supported_features: z.record(z.string(), z.boolean()).optional(),
});

export const WsSubscription = z.looseObject({
  symbol: str,
  exchange: str,
  status: str,
  mode: z.union([z.number(), z.string()]).optional(),
  /** The depth asked for, echoed. */
  depth: num.optional(),
  /** Levels the ticks carry when fewer than asked (the paper feed serves 5). */
  depth_served: num.optional(),
  broker: str.optional(),
  message: str.optional(),
});
/** status is `success`, `partial` (some symbols failed: see each subscription) or `error`. */
export const WsSubscribeAck = z.looseObject({
  type: z.enum(['subscribe', 'unsubscribe']),
  status: str,
  subscriptions: z.array(WsSubscription).default([]),
  message: str.optional(),
  broker: str.optional(),
  request_id: str.optional(),
});

export const WsDepthLevel = z.looseObject({ price: num, quantity: num, orders: num.optional() });
/** The tick payload is broker-adapter specific; ltp is always there, the rest by mode. */
export const WsTickData = z.looseObject({
  ltp: num,
  symbol: str.optional(),
  exchange: str.optional(),
  mode: z.union([z.number(), z.string()]).optional(),
  ltt: num.optional(),
  timestamp: num.optional(),
  volume: num.optional(),
  open: num.optional(),
  high: num.optional(),
  low: num.optional(),
  close: num.optional(),
  last_quantity: num.optional(),
  average_price: num.optional(),
  total_buy_quantity: num.optional(),
  total_sell_quantity: num.optional(),
  oi: num.optional(),
  depth: z
    .looseObject({ buy: z.array(WsDepthLevel).default([]), sell: z.array(WsDepthLevel).default([]) })
    .optional(),
});
export type WsTickData = z.infer<typeof WsTickData>;
/** `mode` is the subscriber's mode: a Depth subscription also feeds Quote and LTP subscribers. */
export const WsMarketData = z.looseObject({
  type: z.literal('market_data'),
  symbol: str,
  exchange: str,
  mode: WsMode,
  data: WsTickData,
  broker: str.optional(),
});
export type WsMarketData = z.infer<typeof WsMarketData>;

/** The per-mode docs' tick shape (bids/asks); the server code does not send it. */
export const WsDocTick = z.looseObject({
  type: z.enum(['ltp', 'quote', 'depth']),
  data: WsTickData.extend({
    bids: z.array(WsDepthLevel).optional(),
    asks: z.array(WsDepthLevel).optional(),
    ltq: num.optional(),
    totalbuyqty: num.optional(),
    totalsellqty: num.optional(),
  }),
});

export const WsOrdersAck = z.looseObject({
  type: z.enum(['subscribe_orders', 'unsubscribe_orders']),
  status: str,
  message: str.optional(),
  request_id: str.optional(),
});

/** Dedupe on orderid + order_status + filled_quantity (events may repeat). */
export const WsOrderUpdate = z.looseObject({
  type: z.literal('order_update'),
  mode: str.optional(),
  broker: str.optional(),
  user_id: str.optional(),
  orderid: str,
  symbol: str,
  exchange: str,
  action: str,
  quantity: num,
  price: num,
  trigger_price: num,
  pricetype: str,
  product: str,
  order_status: OrderStatusValue,
  filled_quantity: num,
  pending_quantity: num,
  average_price: num,
  rejection_reason: str,
});
export type WsOrderUpdate = z.infer<typeof WsOrderUpdate>;

export const WsPong = z.looseObject({
  type: z.literal('pong'),
  status: str,
  server_timestamp: str.optional(),
});

/** AUTHENTICATION_ERROR, BROKER_ERROR, NOT_AUTHENTICATED, INVALID_MODE, INVALID_PARAMETERS, … */
export const WsError = z.looseObject({
  status: z.literal('error'),
  code: str.optional(),
  message: str,
  type: str.optional(),
  /** The request's own request_id, echoed on errors too. */
  request_id: str.optional(),
});

export const WsServerMessage = z.union([
  WsAuthMessage,
  WsSubscribeAck,
  WsMarketData,
  WsDocTick,
  WsOrdersAck,
  WsOrderUpdate,
  WsPong,
  WsError,
]);
export type WsServerMessage = z.infer<typeof WsServerMessage>;
