// Basket arithmetic, pure: a leg's value at its limit, trigger or last price, the margin estimate (value
// ÷ the paper gateway's leverage for the instrument and product, as the ticket's own estimate), the
// basket's totals, and which gateway result answers which leg.
import type { BasketLeg, BasketOrderResponse } from '@contract';
import { addDec, decOf, divDec, mulDec, parseDecimal, ZERO, type Dec } from '@shared/decimal.js';
import {
  instrumentKind,
  leverageFor,
  validateTicket,
  type TicketInstrument,
  type TicketLimits,
} from './ticket-rules';

export type LegResult = BasketOrderResponse['results'][number];

export interface BasketTotals {
  /** Σ quantity × (limit price, trigger, or last price for a market leg). */
  value: Dec;
  /** Σ value ÷ the paper gateway's leverage per leg (SELL CNC blocks none): an estimate. */
  margin: Dec;
  /** Market legs with no last price yet: their value is not in the totals. */
  unpriced: number;
}

/** The price a leg is valued at: its limit, its trigger (SL-M), or the last price (MARKET). */
export function legPrice(leg: BasketLeg, ltp: number | undefined): Dec | undefined {
  const p =
    leg.pricetype === 'LIMIT' || leg.pricetype === 'SL'
      ? leg.price
      : leg.pricetype === 'SL-M'
        ? leg.trigger_price
        : ltp;
  const d = p === undefined ? undefined : parseDecimal(p);
  return d && d.int > 0n ? d : undefined;
}

export function legValue(leg: BasketLeg, ltp: number | undefined): Dec | undefined {
  const p = legPrice(leg, ltp);
  return p ? mulDec(decOf(leg.quantity), p) : undefined;
}

export function legMargin(leg: BasketLeg, value: Dec): Dec {
  if (leg.action === 'SELL' && leg.product === 'CNC') return ZERO;
  const kind = instrumentKind({ symbol: leg.symbol, instrumentType: '', strike: null });
  return divDec(value, decOf(leverageFor(kind, leg.product)), 2, 'ceil');
}

export function basketTotals(
  legs: readonly BasketLeg[],
  ltpOf: (leg: BasketLeg) => number | undefined,
): BasketTotals {
  let value = ZERO;
  let margin = ZERO;
  let unpriced = 0;
  for (const leg of legs) {
    const v = legValue(leg, ltpOf(leg));
    if (!v) {
      unpriced += 1;
      continue;
    }
    value = addDec(value, v);
    margin = addDec(margin, legMargin(leg, v));
  }
  return { value, margin, unpriced };
}

/**
 * Each leg's result. The paper gateway places BUY legs first, then SELL legs, and answers in that
 * order (composite-orders), without the action; results are matched by symbol (and exchange when
 * given) in that placement order, so two legs of one symbol still pair with their own results.
 */
export function matchResults(
  legs: readonly BasketLeg[],
  results: readonly LegResult[],
): (LegResult | undefined)[] {
  const order = [...legs.keys()].sort(
    (a, b) => Number(legs[a]?.action === 'SELL') - Number(legs[b]?.action === 'SELL'),
  );
  const out: (LegResult | undefined)[] = legs.map(() => undefined);
  const taken = new Set<number>();
  for (const r of results) {
    const i = order.find((k) => {
      const leg = legs[k];
      return (
        !taken.has(k) &&
        leg !== undefined &&
        leg.symbol.toUpperCase() === r.symbol.toUpperCase() &&
        (r.exchange === undefined || r.exchange === leg.exchange)
      );
    });
    if (i === undefined) continue;
    taken.add(i);
    out[i] = r;
  }
  return out;
}

/**
 * What one child's or leg's row says: the order book's status once the order is there (else
 * "placed"), or the gateway's reason it was not placed.
 */
export function resultText(
  r: { status: string; message?: string | undefined } | undefined,
  bookStatus: string | undefined,
): { tone: 'ok' | 'bad'; text: string; reason?: string } {
  if (!r) return { tone: 'bad', text: 'no answer' };
  if (r.status === 'success') return { tone: 'ok', text: bookStatus ?? 'placed' };
  // The gateway's sentence goes on a line of its own: it does not fit a status cell.
  return { tone: 'bad', text: 'not placed', ...(r.message ? { reason: r.message } : {}) };
}

/**
 * Why a leg would be refused, by the ticket's own rules (lot, tick, freeze, product, price band, the
 * per-order limits) for the instrument as market.symbol describes it; the core checks them again.
 */
export function legIssues(
  leg: BasketLeg,
  instrument: TicketInstrument | undefined,
  limits: TicketLimits | undefined,
  lastPrice: number | undefined,
): string[] {
  if (!instrument) return [];
  const draft = {
    side: leg.action,
    quantityText: String(leg.quantity),
    quantityUnit: 'shares' as const,
    product: leg.product,
    priceType: leg.pricetype,
    priceText: leg.price > 0 ? String(leg.price) : '',
    triggerText: leg.trigger_price > 0 ? String(leg.trigger_price) : '',
    disclosedText: leg.disclosed_quantity > 0 ? String(leg.disclosed_quantity) : '',
  };
  // A market leg with no last price here is still valued by the core, from its own quote.
  return validateTicket(draft, { instrument, limits, lastPrice })
    .filter((i) => i.code !== 'value_unknown')
    .map((i) => i.message);
}
