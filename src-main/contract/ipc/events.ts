// Every event main pushes to the renderer (and to any other listener of the core's event stream).
// None carries the API key. Names follow the convention at the top of channels.ts.
import { z } from 'zod';
import { ProfileId, SecretStatus, Settings } from '../../contract/core/index.js';
import { FundsView, OrderSnapshot, OrdersView, PositionView, PositionsView, TradesView } from './views.js';
import { MarketDepthEvent, MarketErrorEvent, MarketLtpEvent, MarketQuoteEvent } from './market.js';
import { SessionGatewayEvent, SessionMode } from './session-mode.js';
import { ShellCommandEvent } from './shell.js';
import { StorageStatus } from './storage.js';
import { CloseAllProgressEvent } from './close-all.js';
import { BracketsView } from './protection.js';
import { GuardView } from './guard.js';
import { StrategiesView } from './strategies.js';

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
  // GTT orders (gtt.place/modify/cancel): settled from the GTT order book, never resent.
  'placegttorder',
  'modifygttorder',
  'cancelgttorder',
]);
export const OrderUnknownEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  journalId: z.string(),
  operation: UnknownOperation,
  orderid: z.string().optional(),
  /** A GTT's modify or cancel: the GTT it names. */
  triggerId: z.string().optional(),
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
  /** A GTT action: the GTT the GTT order book shows it as. */
  triggerId: z.string().optional(),
  /** Composite operations: the orders that show the effect (placed, cancelled, counter-orders). */
  orderids: z.array(z.string()).optional(),
  message: z.string(),
});
export type OrderReconciledEvent = z.infer<typeof OrderReconciledEvent>;

export const PositionChangedEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  position: PositionView,
  previousQuantity: z.number(),
});

export const CONNECTION_STATES = ['connected', 'disconnected', 'no_key', 'unauthorised'] as const;
export const ConnectionState = z.enum(CONNECTION_STATES);
export type ConnectionState = z.infer<typeof ConnectionState>;

export const ConnectionEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  state: ConnectionState,
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
  /**
   * The rule it was raised under (settings.alerts): `os` a system notification went out too, `sound`
   * the desk chimes, `in_app` the toast alone. Absent on alerts from before the rules.
   */
  delivery: z.enum(['os', 'sound', 'in_app']).optional(),
  /**
   * `unknown_outcome`: the toast for an order action whose outcome is not known yet; the Alerts
   * list has its own entry for it (from `orders.unknown`), settled by `orders.reconciled`.
   */
  about: z.enum(['unknown_outcome']).optional(),
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
export const TRAY_STATES = [
  'idle',
  'open-orders',
  'alert',
  'disconnected',
  'key-problem',
  'paused',
  /** The account guard has locked the day (guard.state). */
  'locked',
] as const;
export const TrayStateEvent = z.object({
  state: z.enum(TRAY_STATES),
  /** The desktop tray draws paper and live in different colours. */
  mode: SessionMode,
  tooltip: z.string(),
});
export type TrayStateEvent = z.infer<typeof TrayStateEvent>;

export const ApiKeyStatus = SecretStatus.extend({ profileId: ProfileId, present: z.boolean() });
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;

/** The settings after a saved change, whoever made it (another window, the bench, the shell). */
export const SettingsChangedEvent = z.object({ settings: Settings });
export type SettingsChangedEvent = z.infer<typeof SettingsChangedEvent>;

/**
 * The envelope field of every event the core's bus emits: its number in this core's lifetime (1, 2,
 * 3… with no gap), so a client that sees a jump knows it missed one and reloads `session.snapshot`,
 * whose own `seq` is the last event the snapshot already reflects.
 */
export const EventSeq = z.number().int().positive();
const sequenced = <S extends z.ZodRawShape>(event: z.ZodObject<S>) =>
  z.object({ ...event.shape, seq: EventSeq });

/** A book's new view (the schema its `books.*` channel answers), for one profile. */
const bookEvent = <V extends z.ZodType>(view: V) => z.object({ profileId: ProfileId, view });

export const EVENTS = {
  'orders.accepted': sequenced(OrderAcceptedEvent),
  'orders.partial': sequenced(OrderPartialEvent),
  'orders.filled': sequenced(OrderFilledEvent),
  'orders.rejected': sequenced(OrderRejectedEvent),
  'orders.cancelled': sequenced(OrderCancelledEvent),
  'orders.modified': sequenced(OrderModifiedEvent),
  'orders.unknown': sequenced(OrderUnknownEvent),
  'orders.reconciled': sequenced(OrderReconciledEvent),
  /** A close all's steps so far (`orders.closeAll`), sent whole at each change; the last has the verdict. */
  'orders.closeAllProgress': sequenced(CloseAllProgressEvent),
  'positions.changed': sequenced(PositionChangedEvent),
  /** The active profile's brackets, sent whole at each change (`protection.brackets`). */
  'protection.brackets': sequenced(BracketsView),
  /** The active profile's account guard, sent whole at each change (`guard.state`). */
  'guard.state': sequenced(GuardView),
  /** The active profile's options strategies, sent whole at each change (`strategies.list`). */
  'strategies.list': sequenced(StrategiesView),
  'books.orders': sequenced(bookEvent(OrdersView)),
  'books.trades': sequenced(bookEvent(TradesView)),
  'books.positions': sequenced(bookEvent(PositionsView)),
  'books.funds': sequenced(bookEvent(FundsView)),
  'session.connection': sequenced(ConnectionEvent),
  /** The journal salvaged at start, the paper ledger unavailable (or reset): sent whole at each change. */
  'session.storage': sequenced(StorageStatus),
  /** The active profile's mode (paper, sandbox, live) and feed (streaming, polling): sent whole at each change. */
  'session.gateway': sequenced(SessionGatewayEvent),
  'alerts.raised': sequenced(AlertEvent),
  'alerts.state': sequenced(AlertsState),
  'apiKey.status': sequenced(ApiKeyStatus),
  'profiles.switched': sequenced(z.object({ profileId: ProfileId })),
  'settings.changed': sequenced(SettingsChangedEvent),
  /** Market subscriptions (`market.watch`): one event per instrument and update, in the watched mode. */
  'market.ltp': sequenced(MarketLtpEvent),
  'market.quote': sequenced(MarketQuoteEvent),
  'market.depth': sequenced(MarketDepthEvent),
  'market.error': sequenced(MarketErrorEvent),
  /** From the shell's TraySink, not the event bus: a transport forwards what its tray would show. */
  'tray.state': TrayStateEvent,
  /** From the desktop shell (tray menu, notification clicks): what the page should bring forward. */
  'shell.command': ShellCommandEvent,
} as const;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]>;
/** The events the core's bus emits (every one but those a transport adds itself), each with a `seq`. */
export type BusEventName = {
  [E in EventName]: EventPayload<E> extends { seq: number } ? E : never;
}[EventName];
/** What an emitter hands the bus: the payload less the `seq` the bus adds. */
export type EmitPayload<E extends BusEventName> = Omit<EventPayload<E>, 'seq'>;
