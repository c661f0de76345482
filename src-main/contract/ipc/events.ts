// Every event main pushes to the renderer (and to any other listener of the core's event stream).
// None carries the API key.
import { z } from 'zod';
import { ProfileId, SecretStatus } from '../../contract/core/index.js';
import { FundsRecord, OrderBookResponse, TradeRecord } from '../../contract/gateway/index.js';
import { MarketDepthEvent, MarketErrorEvent, MarketLtpEvent, MarketQuoteEvent } from './market.js';
import { SessionMode } from './session-mode.js';
import { ShellCommandEvent } from './shell.js';

/** One order as the watcher saw it in the order book (camel-cased, numbers normalised). */
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

const orderEvent = <S extends z.ZodRawShape>(extra: S) =>
  z.object({ profileId: ProfileId, time: z.number(), order: OrderSnapshot, ...extra });

export const OrderAcceptedEvent = orderEvent({});
export const OrderPartialEvent = orderEvent({ lastFillQuantity: z.number() });
export const OrderFilledEvent = orderEvent({ lastFillQuantity: z.number() });
export const OrderRejectedEvent = orderEvent({ reason: z.string() });
export const OrderCancelledEvent = orderEvent({});
export const OrderModifiedEvent = orderEvent({
  previous: z.object({ quantity: z.number(), price: z.number(), triggerPrice: z.number() }),
});
export type OrderEvent =
  | z.infer<typeof OrderAcceptedEvent>
  | z.infer<typeof OrderPartialEvent>
  | z.infer<typeof OrderFilledEvent>
  | z.infer<typeof OrderRejectedEvent>
  | z.infer<typeof OrderCancelledEvent>
  | z.infer<typeof OrderModifiedEvent>;

/** Operations whose outcome can be unknown (a timed-out or dropped mutation). */
export const UnknownOperation = z.enum([
  'placeorder',
  'modifyorder',
  'cancelorder',
  'splitorder',
  'basketorder',
  'cancelallorder',
  'closeposition',
]);
export const OrderUnknownEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  journalId: z.string(),
  operation: UnknownOperation,
  orderid: z.string().optional(),
  message: z.string(),
});
export const OrderReconciledEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  journalId: z.string(),
  operation: UnknownOperation,
  /**
   * True when the order book shows the mutation took effect: every child of a split or leg of a
   * basket placed, every open order of a cancel-all cancelled, counter-orders of a close placed.
   * Partly (some children, some cancelled) is false, with the ones that did in `orderids`.
   */
  found: z.boolean(),
  orderid: z.string().optional(),
  /** Composite operations: the orders that show the effect (placed, cancelled, counter-orders). */
  orderids: z.array(z.string()).optional(),
  message: z.string(),
});
export type OrderReconciledEvent = z.infer<typeof OrderReconciledEvent>;

export const PositionView = z.object({
  symbol: z.string(),
  exchange: z.string(),
  product: z.string(),
  quantity: z.number(),
  averagePrice: z.number(),
  /** Null when no quote could be had within the rate budget. */
  ltp: z.number().nullable(),
  /** Unrealised P&L of the open quantity at `ltp`. */
  mtm: z.number().nullable(),
});
export type PositionView = z.infer<typeof PositionView>;

export const PositionChangedEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  position: PositionView,
  previousQuantity: z.number(),
});

export const ConnectionEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  state: z.enum(['connected', 'disconnected', 'no_key', 'unauthorised']),
  message: z.string().optional(),
});
export type ConnectionEvent = z.infer<typeof ConnectionEvent>;

export const ALERT_KINDS = ['fill', 'partial', 'rejection', 'cancellation', 'info', 'warning'] as const;
export const AlertEvent = z.object({
  id: z.string(),
  time: z.number(),
  kind: z.enum(ALERT_KINDS),
  title: z.string(),
  body: z.string(),
  /** Stays until dismissed (rejections). */
  sticky: z.boolean(),
  orderid: z.string().optional(),
});
export type AlertEvent = z.infer<typeof AlertEvent>;

export const AlertsState = z.object({
  paused: z.boolean(),
  muted: z.array(z.string()),
  /** Sticky alerts not yet dismissed. */
  sticky: z.array(AlertEvent),
});
export type AlertsState = z.infer<typeof AlertsState>;

/** The tray icon's state and tooltip; browser mode shows it in the page's status bar. */
export const TRAY_STATES = ['idle', 'open-orders', 'alert', 'disconnected', 'key-problem', 'paused'] as const;
export const TrayStateEvent = z.object({
  state: z.enum(TRAY_STATES),
  /** The desktop tray draws paper and live in different colours. */
  mode: SessionMode,
  tooltip: z.string(),
});
export type TrayStateEvent = z.infer<typeof TrayStateEvent>;

export const ApiKeyStatus = SecretStatus.extend({ profileId: ProfileId, present: z.boolean() });
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;

export const EVENTS = {
  'order.accepted': OrderAcceptedEvent,
  'order.partial': OrderPartialEvent,
  'order.filled': OrderFilledEvent,
  'order.rejected': OrderRejectedEvent,
  'order.cancelled': OrderCancelledEvent,
  'order.modified': OrderModifiedEvent,
  'order.unknown': OrderUnknownEvent,
  'order.reconciled': OrderReconciledEvent,
  'position.changed': PositionChangedEvent,
  'books.orders': z.object({ profileId: ProfileId, data: OrderBookResponse.shape.data }),
  'books.trades': z.object({ profileId: ProfileId, data: z.array(TradeRecord) }),
  'books.positions': z.object({ profileId: ProfileId, positions: z.array(PositionView) }),
  'books.funds': z.object({ profileId: ProfileId, data: FundsRecord }),
  connection: ConnectionEvent,
  alert: AlertEvent,
  'alerts.state': AlertsState,
  'apiKey.status': ApiKeyStatus,
  'profile.switched': z.object({ profileId: ProfileId }),
  /** Market subscriptions (`market.watch`): one event per instrument and update, in the watched mode. */
  'market.ltp': MarketLtpEvent,
  'market.quote': MarketQuoteEvent,
  'market.depth': MarketDepthEvent,
  'market.error': MarketErrorEvent,
  /** From the shell's TraySink, not the event bus: a transport forwards what its tray would show. */
  'tray.state': TrayStateEvent,
  /** From the desktop shell (tray menu, notification clicks): what the page should bring forward. */
  'shell.command': ShellCommandEvent,
} as const;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]>;
