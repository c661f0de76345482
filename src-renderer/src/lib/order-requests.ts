// The requests and words of the books' order actions, pure: an order's modify form checked as the
// ticket checks a new order (plus "not below what filled"), the modify, exit and reverse requests, and the
// notices that say how an action went. OrderActions (state/order-actions) sends them.
import type {
  Action,
  ChannelInput,
  IpcError,
  OrderExchange,
  OrderSnapshot,
  PositionView,
  PriceType,
  Product,
} from '@contract';
import { formatPrice, formatQty } from '@shared/format.js';
import { displayName, isOrderExchange, productsFor } from './instrument';
import {
  fieldsFor,
  validateTicket,
  type TicketDraft,
  type TicketInstrument,
  type TicketIssue,
  type TicketLimits,
} from './ticket-rules';

export type NoticeTone = 'ok' | 'error' | 'pending';
export interface Notice {
  tone: NoticeTone;
  text: string;
  /** The pane it belongs under: order actions under Orders, exits under Positions. */
  scope: 'orders' | 'positions';
  /** The refusal's kind, when the bridge refused (risk, duplicate, unknown_outcome…). */
  kind?: IpcError['kind'];
  /** A report's one line once it folds (cancel all): `Cancelled 3 of 3 · 0 failed`. */
  summary?: string;
  /** When the report was made (ms): it folds that long after, however often its pane is redrawn. */
  at?: number;
}

/** A refused action in words; an unknown outcome is pending, not an error. */
export const refusedNotice = (what: string, error: IpcError, scope: Notice['scope'] = 'orders'): Notice => ({
  scope,
  // An unknown outcome was sent and may have happened: the core settles it from the order book.
  tone: error.kind === 'unknown_outcome' ? 'pending' : 'error',
  text:
    error.kind === 'unknown_outcome'
      ? `${what}: no answer from the gateway; reconciling with the order book (${error.message})`
      : `${what} refused: ${error.message}`,
  kind: error.kind,
});

/** The modify form of one order, as typed. */
export interface ModifyDraft {
  order: OrderSnapshot;
  quantityText: string;
  priceText: string;
  triggerText: string;
}

/** What is wrong with a modify: the ticket's reasons, or a quantity under what already filled. */
export type ModifyIssue = TicketIssue | { field: 'quantity'; code: 'below_filled'; message: string };

const PRICE_TYPES: readonly PriceType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
const ACTIONS: readonly Action[] = ['BUY', 'SELL'];

const asPriceType = (s: string): PriceType | undefined => PRICE_TYPES.find((p) => p === s.toUpperCase());
const asAction = (s: string): Action | undefined => ACTIONS.find((a) => a === s.toUpperCase());
function asProduct(exchange: string, s: string): Product | undefined {
  return productsFor(exchange).find((p) => p === s.toUpperCase());
}

/** `BUY SBIN NSE`. */
export function describeOrder(order: Pick<OrderSnapshot, 'action' | 'symbol' | 'exchange'>): string {
  return `${order.action.toUpperCase()} ${displayName(order.symbol)} ${order.exchange}`;
}

/** The modify form of a working order, its fields set to the order's values. */
export function modifyDraftOf(order: OrderSnapshot): ModifyDraft {
  return {
    order,
    quantityText: String(order.quantity),
    priceText: order.price > 0 ? String(order.price) : '',
    triggerText: order.triggerPrice > 0 ? String(order.triggerPrice) : '',
  };
}

/** What is wrong with the form; without the instrument the numbers are judged alone (tick 0, lot 1). */
export function checkModify(
  d: ModifyDraft,
  instrument: TicketInstrument | undefined,
  limits: TicketLimits | undefined,
): ModifyIssue[] {
  const o = d.order;
  const side = asAction(o.action);
  const priceType = asPriceType(o.pricetype);
  const product = asProduct(o.exchange, o.product);
  if (!side || !priceType || !product)
    return [
      {
        field: 'instrument',
        code: 'not_tradable',
        message: `The order's ${!side ? 'side' : !priceType ? 'price type' : 'product'} is not one the desk can modify`,
      },
    ];
  const draft: TicketDraft = {
    side,
    quantityText: d.quantityText,
    quantityUnit: 'shares',
    product,
    priceType,
    priceText: d.priceText,
    triggerText: d.triggerText,
    disclosedText: '',
  };
  const judged: TicketInstrument = instrument ?? {
    symbol: o.symbol,
    exchange: o.exchange,
    lotSize: 1,
    tickSize: 0,
    freezeQuantity: null,
    instrumentType: '',
    strike: null,
  };
  const issues: ModifyIssue[] = validateTicket(draft, { instrument: judged, limits });
  const qty = Number(d.quantityText.trim());
  if (Number.isInteger(qty) && qty > 0 && qty < o.filledQuantity)
    issues.push({
      field: 'quantity',
      code: 'below_filled',
      message: `Quantity cannot go below the ${formatQty(o.filledQuantity)} already filled`,
    });
  return issues;
}

/** The modify request of a checked form and its words; undefined for an order the desk cannot modify. */
export function modifyRequest(
  d: ModifyDraft,
  tick: number | undefined,
): { input: ChannelInput<'orders.modify'>; what: string } | undefined {
  const o = d.order;
  const priceType = asPriceType(o.pricetype);
  const side = asAction(o.action);
  const product = asProduct(o.exchange, o.product);
  if (!priceType || !side || !product || !isOrderExchange(o.exchange)) return undefined;
  const fields = fieldsFor(priceType, o.exchange);
  const input: ChannelInput<'orders.modify'> = {
    orderid: o.orderid,
    exchange: o.exchange,
    symbol: o.symbol,
    action: side,
    product,
    pricetype: priceType,
    quantity: Number(d.quantityText.trim()),
    price: fields.price ? Number(d.priceText.trim()) : 0,
    trigger_price: fields.trigger ? Number(d.triggerText.trim()) : 0,
    disclosed_quantity: 0,
    ...(o.strategy ? { strategy: o.strategy } : {}),
  };
  const what = `Modify ${describeOrder(o)} to ${formatQty(input.quantity)}${fields.price ? ` @ ${formatPrice(input.price, tick)}` : ''}${fields.trigger ? ` trigger ${formatPrice(input.trigger_price, tick)}` : ''}`;
  return { input, what };
}

/**
 * The side, product and exchange of an order against one position's net, or why the desk cannot send
 * one: flat (`flat` says it), or a product or exchange it does not trade (`verb` names the action).
 */
function closingOrder(
  p: PositionView,
  flat: string,
  verb: string,
): { ok: true; side: Action; product: Product; exchange: OrderExchange } | { ok: false; reason: string } {
  const product = asProduct(p.exchange, p.product);
  if (p.quantity === 0 || !product || !isOrderExchange(p.exchange))
    return {
      ok: false,
      reason:
        p.quantity === 0
          ? `${displayName(p.symbol)} ${flat}`
          : `${displayName(p.symbol)} ${p.product} on ${p.exchange} cannot be ${verb} from the desk`,
    };
  return { ok: true, side: p.quantity > 0 ? 'SELL' : 'BUY', product, exchange: p.exchange };
}

/**
 * The exit of one position (a MARKET smart order to 0) and its words, or why the desk cannot send
 * one (flat, or a product or exchange it does not trade).
 */
export function exitRequest(
  p: PositionView,
):
  | { ok: true; side: Action; what: string; input: ChannelInput<'orders.smart'> }
  | { ok: false; reason: string } {
  const closing = closingOrder(p, 'is already flat', 'exited');
  if (!closing.ok) return closing;
  const { side, product, exchange } = closing;
  const what = `${side} ${formatQty(Math.abs(p.quantity))} ${displayName(p.symbol)} ${p.exchange} ${p.product} at market`;
  const input: ChannelInput<'orders.smart'> = {
    symbol: p.symbol,
    exchange,
    product,
    action: side,
    pricetype: 'MARKET',
    quantity: Math.abs(p.quantity),
    position_size: 0,
  };
  return { ok: true, side, what, input };
}

/**
 * Reverses one position: ONE market order of twice the net quantity on the other side (+75 → −75),
 * a plain order (not a smart one), so what goes is exactly what the confirmation said.
 */
export function reverseRequest(
  p: PositionView,
):
  | { ok: true; side: Action; what: string; target: number; input: ChannelInput<'orders.place'> }
  | { ok: false; reason: string } {
  const closing = closingOrder(p, 'is flat: nothing to reverse', 'reversed');
  if (!closing.ok) return closing;
  const { side, product, exchange } = closing;
  const quantity = Math.abs(p.quantity) * 2;
  const target = -p.quantity;
  const what =
    `${side} ${formatQty(quantity)} ${displayName(p.symbol)} ${p.exchange} ${product} MARKET: ` +
    `reverses ${formatQty(p.quantity, { signed: true })} to ${formatQty(target, { signed: true })}`;
  const input: ChannelInput<'orders.place'> = {
    symbol: p.symbol,
    exchange,
    product,
    action: side,
    pricetype: 'MARKET',
    quantity,
  };
  return { ok: true, side, what, target, input };
}

/** Cancel all's outcome in words: how many were cancelled, and which were not and why. */
export function cancelAllText(
  done: readonly string[],
  left: readonly { orderid: string; message: string }[],
): string {
  return (
    `Cancel all: ${formatQty(done.length)} cancelled` +
    (left.length > 0
      ? `, ${formatQty(left.length)} not: ${left.map((f) => `${f.orderid} (${f.message})`).join(', ')}`
      : '')
  );
}

/** Cancel all's report folded to one line: `Cancelled 3 of 3 · 0 failed`. */
export function cancelAllSummary(done: readonly string[], left: readonly unknown[]): string {
  return `Cancelled ${formatQty(done.length)} of ${formatQty(done.length + left.length)} · ${formatQty(left.length)} failed`;
}
