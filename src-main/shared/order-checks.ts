// The checks an order's quantity and prices pass, exact and pure, shared by the ticket (as the trader
// types) and the core's risk gate (before anything is sent): tick, lot and freeze, the stop side, the
// price band, and the order's value against a limit, with the reasons both sides word alike. The
// ticket shows prices bare (`905.30`), the risk gate with the rupee sign: `currency` says which.
import {
  addDec,
  compareDec,
  decOf,
  divDec,
  isMultipleOf,
  mulDec,
  parseDecimal,
  toPlainText,
  type Dec,
} from './decimal.js';
import { formatMoney, formatPercent, formatPriceExact, formatQty } from './format.js';

export type OrderSide = 'BUY' | 'SELL';

/** LIMIT and SL orders carry a limit price. */
export const usesPrice = (priceType: string): boolean => priceType === 'LIMIT' || priceType === 'SL';
/** SL and SL-M orders carry a trigger price. */
export const usesTrigger = (priceType: string): boolean => priceType === 'SL' || priceType === 'SL-M';

/** The price an order is valued at: its limit (LIMIT, SL), its trigger (SL-M), or the last price (MARKET). */
export function referencePrice<T>(
  priceType: string,
  price: T | undefined,
  trigger: T | undefined,
  lastPrice: T | undefined,
): T | undefined {
  if (usesPrice(priceType)) return price;
  if (priceType === 'SL-M') return trigger;
  return lastPrice;
}

/** A tick size the checks can use: a positive decimal, else undefined (no tick rule). */
export function tickOf(tickSize: number | string | undefined): Dec | undefined {
  const tick = tickSize === undefined ? undefined : parseDecimal(tickSize);
  return tick && tick.int > 0n ? tick : undefined;
}

/** True when `price` is a whole number of ticks. */
export const isOnTick = (price: Dec, tick: Dec): boolean => isMultipleOf(price, tick);

/** True when a lot rule applies (lot above 1) and `quantity` is not a multiple of it. */
export const isOffLot = (quantity: number, lotSize: number): boolean =>
  lotSize > 1 && quantity % lotSize !== 0;

/** True when the exchange's freeze quantity is known and `quantity` is above it. */
export const isOverFreeze = (quantity: number, freezeQty: number | null | undefined): boolean =>
  freezeQty !== null && freezeQty !== undefined && freezeQty > 0 && quantity > freezeQty;

/** A stop-limit BUY triggers on the way up, so its limit must be at or above the trigger (SELL: below). */
export function isStopSideWrong(side: OrderSide, trigger: Dec, price: Dec): boolean {
  const cmp = compareDec(trigger, price);
  return side === 'BUY' ? cmp > 0 : cmp < 0;
}

/** |price − last| · 100 > band · last, exactly (band in percent). */
export function isBeyondBand(price: Dec, last: Dec, band: Dec): boolean {
  return compareDec(mulDec(distance(price, last), decOf(100)), mulDec(band, last)) > 0;
}

/** |price − last| as a percentage of last, two decimals (half up). */
export function bandDistance(price: Dec, last: Dec): Dec {
  return divDec(mulDec(distance(price, last), decOf(100)), last, 2);
}

function distance(a: Dec, b: Dec): Dec {
  const diff = addDec(a, mulDec(b, decOf(-1)));
  return diff.int < 0n ? mulDec(diff, decOf(-1)) : diff;
}

/** True when quantity × price is above `max`, exactly. */
export function isOverValue(value: Dec, max: number): boolean {
  const limit = parseDecimal(max);
  return limit !== undefined && compareDec(value, limit) > 0;
}

// ---- reasons ----
/** A price in a reason: every decimal it has (an off-tick price never reads as valid), at least the tick's. */
export function exactPrice(value: number | string, tickSize?: number | string, currency = false): string {
  return formatPriceExact(value, tickSize, { currency });
}

export function maxQuantityReason(quantity: number, max: number, yours: string): string {
  return `Quantity ${formatQty(quantity)} exceeds ${yours} of ${formatQty(max)} per order`;
}

/** `trigger` and `price` already written (exactPrice). */
export function stopSideReason(side: OrderSide, trigger: string, price: string): string {
  return `For a ${side} SL order the trigger price ${trigger} must be ${side === 'BUY' ? 'at or below' : 'at or above'} the price ${price}`;
}

/** `price` and `last` already written; `label` is `Price` or `Trigger price`. */
export function bandReason(
  label: string,
  price: string,
  away: Dec,
  last: string,
  yours: string,
  band: number,
): string {
  const percent = (v: number | string): string => formatPercent(v, { signed: false });
  return `${label} ${price} is ${percent(toPlainText(away))} away from the last price ${last}; ${yours} is ${percent(band)}`;
}

export function valueReason(value: Dec, max: number, yours: string): string {
  return `Order value ${formatMoney(toPlainText(value))} exceeds ${yours} of ${formatMoney(max)}`;
}

/** A MARKET order whose value cannot be known is not sent blind past a value limit. */
export function valueUnknownReason(max: number, yours: string, symbol: string, suffix = ''): string {
  return `Order value cannot be checked against ${yours} of ${formatMoney(max)}: no last price for ${symbol}${suffix}`;
}
