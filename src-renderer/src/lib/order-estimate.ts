// The ticket's value and margin estimate: shares × the reference price, and the margin at the paper
// gateway's leverage. An estimate shown while typing, never the broker's figure.
import type { Product } from '@contract';
import { decOf, divDec, mulDec, parseDecimal, type Dec } from '@shared/decimal.js';
import { referencePrice } from '@shared/order-checks.js';
import { parseSymbol } from './instrument';
import {
  fieldsFor,
  lotOf,
  priceOf,
  sharesOf,
  type TicketContext,
  type TicketDraft,
  type TicketInstrument,
} from './ticket-fields';

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
  const ref = referencePrice(draft.priceType, price, trigger, lastPriceOf(ctx.lastPrice));
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

/** The last price as a decimal, when it is a usable one (above 0). */
export function lastPriceOf(lastPrice: number | undefined): Dec | undefined {
  const last = lastPrice === undefined ? undefined : parseDecimal(lastPrice);
  return last && last.int > 0n ? last : undefined;
}
