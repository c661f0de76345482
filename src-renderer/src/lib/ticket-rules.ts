// The order ticket's rules, pure: which fields a price type uses, shares ⇄ lots, tick and lot
// stepping, validation as the trader types (every reason in words, with a code to act on), order
// value and margin estimate, and the `orders.place` request. The core checks the same limits again
// before anything is sent (src-main/core/risk/check-order.ts); these exist so a mistake shows while
// typing, not as a refusal afterwards.
import type {
  Action,
  PlaceOrderIpcInput,
  PriceType,
  Product,
  RiskLimits,
  SymbolInfo,
} from '@contract';
import {
  compareDec,
  decOf,
  divDec,
  isMultipleOf,
  mulDec,
  parseDecimal,
  roundToStep,
  toFixedText,
  toNumber,
  toPlainText,
  addDec,
  type Dec,
} from './decimal';
import { formatMoney, formatPercent, formatPrice, formatPriceExact, formatQty, tickDecimals } from './format';
import { isEquityExchange, isOrderExchange, parseSymbol, productsFor } from './instrument';

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

export type TicketLimits = Pick<RiskLimits, 'maxQuantityPerOrder' | 'maxValuePerOrder' | 'priceBandPercent'>;

export interface TicketContext {
  instrument?: TicketInstrument;
  /** The risk limits of settings; their checks wait until they are loaded. */
  limits?: TicketLimits;
  lastPrice?: number;
}

export type TicketField = 'instrument' | 'quantity' | 'product' | 'price' | 'trigger' | 'disclosed' | 'value';

export type TicketIssueCode =
  | 'no_instrument'
  | 'not_tradable'
  | 'required'
  | 'not_number'
  | 'not_whole'
  | 'not_positive'
  | 'lot_multiple'
  | 'freeze'
  | 'max_quantity'
  | 'product'
  | 'tick'
  | 'stop_side'
  | 'price_band'
  | 'max_value'
  | 'value_unknown'
  | 'disclosed_above_quantity';

export interface TicketIssue {
  field: TicketField;
  code: TicketIssueCode;
  message: string;
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
  const price = priceType === 'LIMIT' || priceType === 'SL';
  return {
    price,
    trigger: priceType === 'SL' || priceType === 'SL-M',
    disclosed: price && isEquityExchange(exchange),
  };
}

/** A lot size the rules can use: a gateway's 0 or fraction means "no lot rule" (1). */
export function lotOf(instrument: Pick<TicketInstrument, 'lotSize'> | undefined): number {
  const lot = instrument?.lotSize ?? 1;
  return Number.isInteger(lot) && lot >= 1 ? lot : 1;
}

function tickOf(instrument: Pick<TicketInstrument, 'tickSize'> | undefined): Dec | undefined {
  const tick = instrument ? parseDecimal(instrument.tickSize) : undefined;
  return tick && tick.int > 0n ? tick : undefined;
}

// ---- quantity ----
const WHOLE = /^\d+$/;

/** A whole number typed in a field, or undefined (empty, fractional, signed, not a number). */
function wholeOf(text: string): number | undefined {
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
function priceOf(text: string): Dec | undefined {
  const t = text.trim();
  return PRICE.test(t) ? parseDecimal(t) : undefined;
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
  const tick = tickSize === undefined ? undefined : tickOf({ tickSize });
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

// ---- validation ----
function issue(field: TicketField, code: TicketIssueCode, message: string): TicketIssue {
  return { field, code, message };
}

interface Parsed {
  shares?: number;
  price?: Dec;
  trigger?: Dec;
}

function checkQuantity(draft: TicketDraft, ctx: TicketContext, out: TicketIssue[]): number | undefined {
  const lot = lotOf(ctx.instrument);
  const noun = draft.quantityUnit === 'lots' ? 'Lots' : 'Quantity';
  const text = draft.quantityText.trim();
  if (text === '') {
    out.push(issue('quantity', 'required', `${noun} is required`));
    return undefined;
  }
  const shares = sharesOf(draft, lot);
  if (shares === undefined) {
    out.push(issue('quantity', 'not_whole', `${noun} must be a positive whole number`));
    return undefined;
  }
  if (shares <= 0) {
    out.push(issue('quantity', 'not_positive', `${noun} must be above 0`));
    return undefined;
  }
  if (lot > 1 && shares % lot !== 0)
    out.push(
      issue('quantity', 'lot_multiple', `Quantity must be a multiple of the lot size ${formatQty(lot)}`),
    );
  const freeze = ctx.instrument?.freezeQuantity;
  if (freeze !== null && freeze !== undefined && freeze > 0 && shares > freeze)
    out.push(
      issue(
        'quantity',
        'freeze',
        `Quantity ${formatQty(shares)} exceeds the freeze quantity ${formatQty(freeze)}: use a split order`,
      ),
    );
  const max = ctx.limits?.maxQuantityPerOrder;
  if (max !== undefined && shares > max)
    out.push(
      issue(
        'quantity',
        'max_quantity',
        `Quantity ${formatQty(shares)} exceeds your limit of ${formatQty(max)} per order`,
      ),
    );
  return shares;
}

function checkPrice(
  field: 'price' | 'trigger',
  text: string,
  draft: TicketDraft,
  ctx: TicketContext,
  out: TicketIssue[],
): Dec | undefined {
  const label = field === 'price' ? 'Price' : 'Trigger price';
  if (text.trim() === '') {
    out.push(
      issue(
        field,
        'required',
        `${label} is required for ${draft.priceType === 'LIMIT' ? 'a' : 'an'} ${draft.priceType} order`,
      ),
    );
    return undefined;
  }
  const value = priceOf(text);
  if (value === undefined) {
    out.push(issue(field, 'not_number', `${label} must be a number`));
    return undefined;
  }
  if (value.int <= 0n) {
    out.push(issue(field, 'not_positive', `${label} must be above 0`));
    return undefined;
  }
  const tick = tickOf(ctx.instrument);
  if (tick && !isMultipleOf(value, tick))
    out.push(issue(field, 'tick', `${label} must be a multiple of the tick ${toPlainText(tick)}`));
  return value;
}

/** A typed price in a reason: every decimal it has, so an off-tick price never reads as valid. */
function exact(value: Dec, tickSize?: number): string {
  return formatPriceExact(toPlainText(value), tickSize);
}

function checkStopSide(draft: TicketDraft, p: Parsed, ctx: TicketContext, out: TicketIssue[]): void {
  if (draft.priceType !== 'SL' || !p.price || !p.trigger) return;
  const cmp = compareDec(p.trigger, p.price);
  // A stop-limit BUY triggers on the way up, so its limit must be at or above the trigger.
  const wrong = draft.side === 'BUY' ? cmp > 0 : cmp < 0;
  if (!wrong) return;
  const tick = ctx.instrument?.tickSize;
  out.push(
    issue(
      'trigger',
      'stop_side',
      `For a ${draft.side} SL order the trigger price ${exact(p.trigger, tick)} must be ${draft.side === 'BUY' ? 'at or below' : 'at or above'} the price ${exact(p.price, tick)}`,
    ),
  );
}

function checkBand(
  field: 'price' | 'trigger',
  value: Dec | undefined,
  ctx: TicketContext,
  out: TicketIssue[],
): void {
  const band = ctx.limits?.priceBandPercent;
  const last = ctx.lastPrice === undefined ? undefined : parseDecimal(ctx.lastPrice);
  // Without a last price the core refuses with its own reason; nothing to judge here yet.
  if (!value || !band || !last || last.int <= 0n) return;
  const bandDec = parseDecimal(band);
  if (!bandDec) return;
  const diff = addDec(value, mulDec(last, decOf(-1)));
  const away = diff.int < 0n ? mulDec(diff, decOf(-1)) : diff;
  // |p − last| · 100 > band · last, exactly.
  if (compareDec(mulDec(away, decOf(100)), mulDec(bandDec, last)) <= 0) return;
  const tick = ctx.instrument?.tickSize;
  const percent = divDec(mulDec(away, decOf(100)), last, 2);
  out.push(
    issue(
      field,
      'price_band',
      `${field === 'price' ? 'Price' : 'Trigger price'} ${exact(value, tick)} is ${formatPercent(toPlainText(percent), { signed: false })} away from the last price ${formatPrice(ctx.lastPrice ?? 0, tick)}; your limit is ${formatPercent(band, { signed: false })}`,
    ),
  );
}

/** Every reason the draft cannot be sent as it stands; empty when it can. */
export function validateTicket(draft: TicketDraft, ctx: TicketContext): TicketIssue[] {
  const out: TicketIssue[] = [];
  const inst = ctx.instrument;
  if (!inst) out.push(issue('instrument', 'no_instrument', 'Choose an instrument (/ to search)'));
  else if (!isOrderExchange(inst.exchange))
    out.push(
      issue(
        'instrument',
        'not_tradable',
        `${inst.symbol} on ${inst.exchange} is quote-only: trade its futures or options`,
      ),
    );
  else if (!productsFor(inst.exchange).includes(draft.product))
    out.push(
      issue(
        'product',
        'product',
        `${draft.product} is not offered on ${inst.exchange}: choose ${productsFor(inst.exchange).join(' or ')}`,
      ),
    );

  const p: Parsed = {};
  p.shares = checkQuantity(draft, ctx, out);
  const fields = fieldsFor(draft.priceType, inst?.exchange ?? '');
  if (fields.price) p.price = checkPrice('price', draft.priceText, draft, ctx, out);
  if (fields.trigger) p.trigger = checkPrice('trigger', draft.triggerText, draft, ctx, out);
  checkStopSide(draft, p, ctx, out);
  checkBand('price', p.price, ctx, out);
  checkBand('trigger', p.trigger, ctx, out);

  if (fields.disclosed && draft.disclosedText.trim() !== '') {
    const disclosed = wholeOf(draft.disclosedText);
    if (disclosed === undefined)
      out.push(issue('disclosed', 'not_whole', 'Disclosed quantity must be a whole number'));
    else if (p.shares !== undefined && disclosed > p.shares)
      out.push(
        issue('disclosed', 'disclosed_above_quantity', 'Disclosed quantity cannot exceed the quantity'),
      );
  }

  checkValue(draft, ctx, p, out);
  return out;
}

function checkValue(draft: TicketDraft, ctx: TicketContext, p: Parsed, out: TicketIssue[]): void {
  const max = ctx.limits?.maxValuePerOrder;
  if (max === undefined || p.shares === undefined || p.shares <= 0) return;
  const ref = referencePrice(draft.priceType, p.price, p.trigger, ctx.lastPrice);
  if (!ref) {
    // As the core: a MARKET order whose value cannot be known is not sent blind past a value limit.
    if (draft.priceType === 'MARKET')
      out.push(
        issue(
          'value',
          'value_unknown',
          `Order value cannot be checked against your limit of ${formatMoney(max)}: no last price for ${ctx.instrument?.symbol ?? 'the instrument'} yet`,
        ),
      );
    return;
  }
  const value = mulDec(decOf(p.shares), ref);
  const maxDec = parseDecimal(max);
  if (maxDec && compareDec(value, maxDec) > 0)
    out.push(
      issue(
        'value',
        'max_value',
        `Order value ${formatMoney(toPlainText(value))} exceeds your limit of ${formatMoney(max)}`,
      ),
    );
}

/** The price an order is valued at: its limit, its trigger (SL-M), or the last price (MARKET). */
function referencePrice(
  priceType: PriceType,
  price?: Dec,
  trigger?: Dec,
  lastPrice?: number,
): Dec | undefined {
  if (priceType === 'LIMIT' || priceType === 'SL') return price;
  if (priceType === 'SL-M') return trigger;
  const last = lastPrice === undefined ? undefined : parseDecimal(lastPrice);
  return last && last.int > 0n ? last : undefined;
}

// ---- value and margin ----
export type InstrumentKind = 'equity' | 'future' | 'option';

/** From the symbol's OpenAlgo form, or failing that the broker's instrument type and strike. */
export function instrumentKind(
  inst: Pick<TicketInstrument, 'symbol' | 'instrumentType' | 'strike'>,
): InstrumentKind {
  const parsed = parseSymbol(inst.symbol).kind;
  if (parsed !== 'equity') return parsed;
  const t = inst.instrumentType.toUpperCase();
  if (inst.strike !== null || t === 'CE' || t === 'PE' || t.startsWith('OPT')) return 'option';
  if (t.startsWith('FUT') || t.endsWith('FUT')) return 'future';
  return 'equity';
}

/**
 * Leverage of the paper gateway (src-main/paper/engine/margin.ts, the sandbox's defaults): equity MIS
 * 5×, CNC 1×, futures 10×, options the full premium. A broker's SPAN and exposure margins differ.
 */
export function leverageFor(kind: InstrumentKind, product: Product): number {
  if (kind === 'future') return 10;
  if (kind === 'option') return 1;
  return product === 'MIS' ? 5 : 1;
}

export interface OrderEstimate {
  /** Shares × the reference price, exact. */
  value: Dec;
  /** What the value was taken at. */
  basis: 'price' | 'trigger' | 'last price';
  /** Value ÷ leverage, rounded up to the paisa: an estimate, never the broker's figure. */
  margin: Dec;
  leverage: number;
}

/** Value and margin estimate of the draft; undefined until quantity and reference price are known. */
export function estimateOrder(draft: TicketDraft, ctx: TicketContext): OrderEstimate | undefined {
  const inst = ctx.instrument;
  if (!inst) return undefined;
  const shares = sharesOf(draft, lotOf(inst));
  if (shares === undefined || shares <= 0) return undefined;
  const fields = fieldsFor(draft.priceType, inst.exchange);
  const price = fields.price ? priceOf(draft.priceText) : undefined;
  const trigger = fields.trigger ? priceOf(draft.triggerText) : undefined;
  const ref = referencePrice(draft.priceType, price, trigger, ctx.lastPrice);
  if (!ref || ref.int <= 0n) return undefined;
  const value = mulDec(decOf(shares), ref);
  const leverage = leverageFor(instrumentKind(inst), draft.product);
  // Selling delivery shares one holds blocks no margin (as the paper gateway).
  const margin =
    draft.side === 'SELL' && draft.product === 'CNC' ? decOf(0) : divDec(value, decOf(leverage), 2, 'ceil');
  const basis =
    draft.priceType === 'MARKET' ? 'last price' : draft.priceType === 'SL-M' ? 'trigger' : 'price';
  return { value, basis, margin, leverage };
}

// ---- the request ----
/**
 * The `orders.place` input for a draft with no issues (undefined otherwise). It never holds a key:
 * the core adds it in main. Prices a price type does not use go as 0, as the gateway expects.
 */
export function buildPlaceRequest(
  draft: TicketDraft,
  ctx: TicketContext,
  strategy?: string,
): PlaceOrderIpcInput | undefined {
  const inst = ctx.instrument;
  if (!inst || !isOrderExchange(inst.exchange) || validateTicket(draft, ctx).length > 0) return undefined;
  const shares = sharesOf(draft, lotOf(inst));
  if (shares === undefined) return undefined;
  const fields = fieldsFor(draft.priceType, inst.exchange);
  const price = fields.price ? priceOf(draft.priceText) : undefined;
  const trigger = fields.trigger ? priceOf(draft.triggerText) : undefined;
  const disclosed = fields.disclosed ? (wholeOf(draft.disclosedText) ?? 0) : 0;
  return {
    exchange: inst.exchange,
    symbol: inst.symbol,
    action: draft.side,
    quantity: shares,
    pricetype: draft.priceType,
    product: draft.product,
    price: price ? toNumber(price) : 0,
    trigger_price: trigger ? toNumber(trigger) : 0,
    disclosed_quantity: disclosed,
    ...(strategy ? { strategy } : {}),
  };
}
