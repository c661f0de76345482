// Position sizing from risk, as a pure rule in exact decimals: the trader gives a stop (a price, or
// points from the entry) and the rupees they accept to lose; the quantity is the whole lots that
// risk covers, floor(risk / (|entry − stop| × lot)) lots, and the risk those lots really carry.
// It refuses, in words, a stop on the wrong side (a BUY's stop must be under the entry, a SELL's
// over it), a stop at the entry, and a risk that does not cover one lot.
import type { Action } from '@contract';
import {
  ZERO,
  addDec,
  compareDec,
  decOf,
  divDec,
  mulDec,
  parseDecimal,
  toPlainText,
  type Dec,
} from '@shared/decimal.js';
import { formatMoney, formatPriceExact } from '@shared/format.js';

export type StopMode = 'price' | 'points';

export interface SizingInput {
  side: Action;
  /** The entry: the ticket's price, or the LTP for a market order; undefined when not known yet. */
  entry: number | string | undefined;
  stopMode: StopMode;
  /** The stop price, or its distance from the entry in points. */
  stopText: string;
  /** Rupees the trader accepts to lose on the trade. */
  riskText: string;
  lotSize: number;
  tickSize?: number;
}

export type Sizing =
  | {
      ok: true;
      lots: number;
      /** Shares: lots × lot size. */
      quantity: number;
      /** The stop price (the entry ∓ points in points mode). */
      stop: string;
      /** |entry − stop| × lot: what one lot risks. */
      perLot: string;
      /** What the lots risk: lots × per lot (never above the risk given). */
      risk: string;
    }
  | { ok: false; reason: SizingRefusal; message: string };

export type SizingRefusal =
  'no_entry' | 'bad_stop' | 'bad_risk' | 'wrong_side' | 'zero_distance' | 'below_one_lot';

const refuse = (reason: SizingRefusal, message: string): Sizing => ({ ok: false, reason, message });
const negate = (d: Dec): Dec => ({ int: -d.int, scale: d.scale });
const positive = (text: string): Dec | undefined => {
  const d = parseDecimal(text);
  return d && compareDec(d, ZERO) > 0 ? d : undefined;
};

export function sizeFromRisk(input: SizingInput): Sizing {
  const entry = input.entry === undefined ? undefined : parseDecimal(input.entry);
  if (!entry || compareDec(entry, ZERO) <= 0)
    return refuse('no_entry', 'No entry price yet: type the price, or wait for the last price');
  const given = positive(input.stopText);
  if (!given)
    return refuse(
      'bad_stop',
      input.stopMode === 'price' ? 'Stop must be a price above 0' : 'Stop points must be above 0',
    );
  const risk = positive(input.riskText);
  if (!risk) return refuse('bad_risk', 'Risk must be an amount above ₹0');
  const buy = input.side === 'BUY';
  const stop = input.stopMode === 'price' ? given : addDec(entry, buy ? negate(given) : given);
  const price = (d: Dec) => formatPriceExact(toPlainText(d), input.tickSize);
  if (compareDec(stop, ZERO) <= 0) return refuse('bad_stop', `The stop would be at ${price(stop)}: below 0`);
  const side = compareDec(stop, entry);
  if (side === 0)
    return refuse('zero_distance', `The stop is at the entry ${price(entry)}: no distance to size on`);
  if ((buy && side > 0) || (!buy && side < 0))
    return refuse(
      'wrong_side',
      `A ${buy ? 'BUY' : 'SELL'}'s stop must be ${buy ? 'below' : 'above'} the entry ${price(entry)}`,
    );
  const distance = side > 0 ? addDec(stop, negate(entry)) : addDec(entry, negate(stop));
  const lot = decOf(Math.max(1, Math.trunc(input.lotSize)));
  const perLot = mulDec(distance, lot);
  const lots = Number(divDec(risk, perLot, 0, 'floor').int);
  if (lots < 1)
    return refuse(
      'below_one_lot',
      `${formatMoney(toPlainText(risk))} does not cover one lot: one lot risks ${formatMoney(toPlainText(perLot))} at this stop`,
    );
  const quantity = lots * Number(lot.int);
  return {
    ok: true,
    lots,
    quantity,
    stop: toPlainText(stop),
    perLot: toPlainText(perLot),
    risk: toPlainText(mulDec(perLot, decOf(lots))),
  };
}
