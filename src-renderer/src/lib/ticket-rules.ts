// Over 300 lines: every field of the ticket is validated here, in words, with one request builder.
// The order ticket's rules, pure: validation as the trader types (every reason in words, with a code
// to act on) and the `orders.place` request. The checks and their words are the risk gate's own
// (src-main/shared/order-checks.ts), so a mistake shows while typing, not as a refusal afterwards;
// the fields (ticket-fields.ts) and the value and margin estimate (order-estimate.ts) are re-exported.
import type { PlaceOrderIpcInput } from '@contract';
import { decOf, mulDec, parseDecimal, toNumber, toPlainText, type Dec } from '@shared/decimal.js';
import { formatPrice, formatQty } from '@shared/format.js';
import {
  bandDistance,
  bandReason,
  exactPrice,
  isBeyondBand,
  isOffLot,
  isOnTick,
  isOverFreeze,
  isOverValue,
  isStopSideWrong,
  maxQuantityReason,
  referencePrice,
  stopSideReason,
  tickOf,
  valueReason,
  valueUnknownReason,
} from '@shared/order-checks.js';
import { isOrderExchange, productsFor } from './instrument';
import { lastPriceOf } from './order-estimate';
import {
  fieldsFor,
  isNegativePrice,
  lotOf,
  priceOf,
  sharesOf,
  wholeOf,
  type TicketContext,
  type TicketDraft,
} from './ticket-fields';

export {
  convertQuantity,
  fieldsFor,
  lotOf,
  sharesOf,
  stepPrice,
  stepQuantity,
  type Conversion,
  type FieldRules,
  type QuantityUnit,
  type TicketContext,
  type TicketDraft,
  type TicketInstrument,
  type TicketLimits,
} from './ticket-fields';
export {
  estimateOrder,
  instrumentKind,
  leverageFor,
  type InstrumentKind,
  type OrderEstimate,
} from './order-estimate';

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

// ---- validation ----
function issue(field: TicketField, code: TicketIssueCode, message: string): TicketIssue {
  return { field, code, message };
}

/** Whose limits the ticket checks: the settings' (a symbol's own limits are merged in by the caller). */
const YOURS = 'your limit';

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
  if (isOffLot(shares, lot))
    out.push(
      issue('quantity', 'lot_multiple', `Quantity must be a multiple of the lot size ${formatQty(lot)}`),
    );
  const freeze = ctx.instrument?.freezeQuantity;
  if (isOverFreeze(shares, freeze))
    out.push(
      issue(
        'quantity',
        'freeze',
        `Quantity ${formatQty(shares)} exceeds the freeze quantity ${formatQty(freeze ?? 0)}: use a split order`,
      ),
    );
  const max = ctx.limits?.maxQuantityPerOrder;
  if (max !== undefined && shares > max)
    out.push(issue('quantity', 'max_quantity', maxQuantityReason(shares, max, YOURS)));
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
    if (isNegativePrice(text)) out.push(issue(field, 'not_positive', `${label} must be above 0`));
    else out.push(issue(field, 'not_number', `${label} must be a number`));
    return undefined;
  }
  if (value.int <= 0n) {
    out.push(issue(field, 'not_positive', `${label} must be above 0`));
    return undefined;
  }
  const tick = tickOf(ctx.instrument?.tickSize);
  if (tick && !isOnTick(value, tick))
    out.push(issue(field, 'tick', `${label} must be a multiple of the tick ${toPlainText(tick)}`));
  return value;
}

/** A typed price in a reason: every decimal it has, so an off-tick price never reads as valid. */
function exact(value: Dec, tickSize?: number): string {
  return exactPrice(toPlainText(value), tickSize);
}

function checkStopSide(draft: TicketDraft, p: Parsed, ctx: TicketContext, out: TicketIssue[]): void {
  if (draft.priceType !== 'SL' || !p.price || !p.trigger) return;
  if (!isStopSideWrong(draft.side, p.trigger, p.price)) return;
  const tick = ctx.instrument?.tickSize;
  out.push(
    issue('trigger', 'stop_side', stopSideReason(draft.side, exact(p.trigger, tick), exact(p.price, tick))),
  );
}

function checkBand(
  field: 'price' | 'trigger',
  value: Dec | undefined,
  ctx: TicketContext,
  out: TicketIssue[],
): void {
  const band = ctx.limits?.priceBandPercent;
  const last = lastPriceOf(ctx.lastPrice);
  // Without a last price the core refuses with its own reason; nothing to judge here yet.
  if (!value || !band || !last) return;
  const bandDec = parseDecimal(band);
  if (!bandDec || !isBeyondBand(value, last, bandDec)) return;
  const tick = ctx.instrument?.tickSize;
  const label = field === 'price' ? 'Price' : 'Trigger price';
  const lastText = formatPrice(ctx.lastPrice ?? 0, tick);
  out.push(
    issue(
      field,
      'price_band',
      bandReason(label, exact(value, tick), bandDistance(value, last), lastText, YOURS, band),
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
  const ref = referencePrice(draft.priceType, p.price, p.trigger, lastPriceOf(ctx.lastPrice));
  if (!ref) {
    // As the core: a MARKET order whose value cannot be known is not sent blind past a value limit.
    if (draft.priceType === 'MARKET') {
      const symbol = ctx.instrument?.symbol ?? 'the instrument';
      out.push(issue('value', 'value_unknown', valueUnknownReason(max, YOURS, symbol, ' yet')));
    }
    return;
  }
  const value = mulDec(decOf(p.shares), ref);
  if (isOverValue(value, max)) out.push(issue('value', 'max_value', valueReason(value, max, YOURS)));
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
