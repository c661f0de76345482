// The words of an order alert: side, quantity, symbol and price in en-IN format, then what happened
// (`BUY 1,500 SBIN @ ₹812.35 filled`). Pure.
import type { OrderSnapshot } from '../../contract/index.js';
import { decimalsOf } from '../../shared/decimal.js';
import { formatMoney, formatQty } from '../../shared/format.js';

export type AlertableEvent =
  | { type: 'order.filled'; order: OrderSnapshot; lastFillQuantity: number }
  | { type: 'order.partial'; order: OrderSnapshot; lastFillQuantity: number }
  | { type: 'order.rejected'; order: OrderSnapshot; reason: string }
  | { type: 'order.cancelled'; order: OrderSnapshot };

/** Prices keep the decimals they have (a ₹0.0025 tick shows four), at least two, at most four. */
function price(value: number): string {
  const places = Math.min(4, decimalsOf(value));
  return formatMoney(value, places > 2 ? { tickSize: Number(`1e-${places}`) } : {});
}

/** ` @ ₹812.35`, or nothing when there is no price to show (an unfilled MARKET order). */
function at(value: number): string {
  return value > 0 ? ` @ ${price(value)}` : '';
}

/** Currency segments trade in ₹0.0025 ticks; every other segment's ticks have two decimals at most. */
const FOUR_DECIMAL_EXCHANGES: ReadonlySet<string> = new Set(['CDS', 'BCD']);

/**
 * An average of fills is off the tick (905.4501): shown at the segment's tick decimals, as the
 * trader reads prices there; the value itself is not changed.
 */
function atAverage(value: number, exchange: string): string {
  if (!(value > 0)) return '';
  return ` @ ${formatMoney(value, FOUR_DECIMAL_EXCHANGES.has(exchange) ? { tickSize: 0.0001 } : {})}`;
}

export function alertTitle(e: AlertableEvent): string {
  const o = e.order;
  const side = o.action.toUpperCase();
  const traded = o.averagePrice > 0 ? atAverage(o.averagePrice, o.exchange) : at(o.price);
  switch (e.type) {
    case 'order.filled':
      return `${side} ${formatQty(o.quantity)} ${o.symbol}${traded} filled`;
    case 'order.partial':
      return `${side} ${formatQty(o.filledQuantity)} of ${formatQty(o.quantity)} ${o.symbol}${traded} partially filled`;
    case 'order.rejected':
      return `${side} ${formatQty(o.quantity)} ${o.symbol}${at(o.price)} rejected`;
    case 'order.cancelled':
      return `${side} ${formatQty(o.quantity)} ${o.symbol}${at(o.price)} cancelled`;
  }
}

export function alertBody(e: AlertableEvent): string {
  const o = e.order;
  const where = `${o.exchange} · ${o.pricetype} · ${o.product} · order ${o.orderid}`;
  if (e.type === 'order.rejected') return `${e.reason || 'no reason given'} (${where})`;
  if (e.type === 'order.cancelled' && o.filledQuantity > 0)
    return `${formatQty(o.filledQuantity)} filled before the cancel (${where})`;
  return where;
}
