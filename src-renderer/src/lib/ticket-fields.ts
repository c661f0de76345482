// The ticket's fields: which ones a price type uses, the quantity in shares or lots (conversion and
// stepping), and prices as typed (reading and stepping on the tick). Pure; validation and the
// request are ticket-rules.ts.
import type { Action, PriceType, Product, RiskLimits, SymbolInfo } from '@contract';
import {
  addDec,
  compareDec,
  decOf,
  isMultipleOf,
  mulDec,
  parseDecimal,
  roundToStep,
  toFixedText,
  type Dec,
} from '@shared/decimal.js';
import { formatQty, tickDecimals } from '@shared/format.js';
import { tickOf, usesPrice, usesTrigger } from '@shared/order-checks.js';
import { isEquityExchange } from './instrument';

export type QuantityUnit = 'shares' | 'lots';

/** What the ticket knows of its instrument (`market.symbol`). */
export type TicketInstrument = Pick<
  SymbolInfo,
  'symbol' | 'exchange' | 'lotSize' | 'tickSize' | 'freezeQuantity' | 'instrumentType' | 'strike'
>;

/** The ticket's fields as typed: text, so that what is on screen is what is judged. */
export interface TicketDraft {
  side: Action;
  quantityText: string;
  quantityUnit: QuantityUnit;
  product: Product;
  priceType: PriceType;
  priceText: string;
  triggerText: string;
  disclosedText: string;
}

// ---- fields ----
export interface FieldRules {
  /** Limit price: LIMIT and SL. */
  price: boolean;
  /** Trigger price: SL and SL-M. */
  trigger: boolean;
  /** Disclosed quantity: LIMIT and SL on the equity segments. */
  disclosed: boolean;
}

export function fieldsFor(priceType: PriceType, exchange: string): FieldRules {
  const price = usesPrice(priceType);
  return { price, trigger: usesTrigger(priceType), disclosed: price && isEquityExchange(exchange) };
}

/** The risk limits the ticket checks as you type. */
export type TicketLimits = Pick<RiskLimits, 'maxQuantityPerOrder' | 'maxValuePerOrder' | 'priceBandPercent'>;

export interface TicketContext {
  instrument?: TicketInstrument;
  /** The risk limits of settings; their checks wait until they are loaded. */
  limits?: TicketLimits;
  lastPrice?: number;
}

/** A lot size the rules can use: a gateway's 0 or fraction means "no lot rule" (1). */
export function lotOf(instrument: Pick<TicketInstrument, 'lotSize'> | undefined): number {
  const lot = instrument?.lotSize ?? 1;
  return Number.isInteger(lot) && lot >= 1 ? lot : 1;
}

// ---- quantity ----
const WHOLE = /^\d+$/;

/** A whole number typed in a field, or undefined (empty, fractional, signed, not a number). */
export function wholeOf(text: string): number | undefined {
  const t = text.trim();
  if (!WHOLE.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The order quantity in shares (units) the draft stands for; undefined while it is not whole. */
export function sharesOf(
  draft: Pick<TicketDraft, 'quantityText' | 'quantityUnit'>,
  lotSize: number,
): number | undefined {
  const n = wholeOf(draft.quantityText);
  if (n === undefined) return undefined;
  return draft.quantityUnit === 'lots' ? n * lotSize : n;
}

export type Conversion = { ok: true; text: string } | { ok: false; message: string };

/**
 * The quantity text in the other unit: lots → shares always; shares → lots only for a whole number of
 * lots (otherwise refused: 100 shares must not silently become 1 lot of 65). Text that is not a whole
 * number stays as typed, still marked invalid.
 */
export function convertQuantity(
  text: string,
  from: QuantityUnit,
  to: QuantityUnit,
  lotSize: number,
): Conversion {
  if (from === to) return { ok: true, text };
  const n = wholeOf(text);
  if (n === undefined) return { ok: true, text };
  if (to === 'shares') return { ok: true, text: String(n * lotSize) };
  if (n % lotSize !== 0)
    return {
      ok: false,
      message: `${formatQty(n)} is not a whole number of lots (lot size ${formatQty(lotSize)})`,
    };
  return { ok: true, text: String(n / lotSize) };
}

/** One lot up or down (one unit in lots); an off-lot quantity moves to the next lot multiple. */
export function stepQuantity(text: string, unit: QuantityUnit, lotSize: number, direction: 1 | -1): string {
  const step = unit === 'lots' ? 1 : lotSize;
  const n = wholeOf(text);
  if (n === undefined) return String(step);
  const onGrid = n % step === 0;
  const next = onGrid
    ? n + direction * step
    : direction > 0
      ? Math.ceil(n / step) * step
      : Math.floor(n / step) * step;
  return String(Math.max(step, next));
}

// ---- prices ----
const PRICE = /^(\d+\.?\d*|\.\d+)$/;

/** A price typed in a field; undefined when it is not a plain non-negative decimal. */
export function priceOf(text: string): Dec | undefined {
  const t = text.trim();
  return PRICE.test(t) ? parseDecimal(t) : undefined;
}

/** A typed price with a minus sign (`-905.30`): a number, but never a price (it must be above 0). */
export function isNegativePrice(text: string): boolean {
  const t = text.trim();
  return t.startsWith('-') && PRICE.test(t.slice(1).trim());
}

/**
 * The price one tick up or down, as the field should then read (tick decimals). An off-tick price
 * moves to the next grid point in that direction; an empty field starts from `start` (the last
 * price) on the grid. Never below one tick. Undefined when the tick is not known yet.
 */
export function stepPrice(
  text: string,
  tickSize: number | undefined,
  direction: 1 | -1,
  start?: number,
): string | undefined {
  const tick = tickOf(tickSize);
  if (!tick) return undefined;
  const places = tickDecimals(tickSize);
  const current = priceOf(text);
  let next: Dec;
  if (current === undefined) {
    const from = start === undefined ? undefined : parseDecimal(start);
    next = from && from.int > 0n ? roundToStep(from, tick) : tick;
  } else if (isMultipleOf(current, tick)) {
    next = addDec(current, mulDec(tick, decOf(direction)));
  } else {
    next = roundToStep(current, tick, direction > 0 ? 'ceil' : 'floor');
  }
  if (compareDec(next, tick) < 0) next = tick;
  return toFixedText(next, places);
}
