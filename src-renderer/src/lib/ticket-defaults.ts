// The ticket's defaults per market segment, as pure rules: which segment an exchange is in, and the
// order type and product a new symbol there loads with (the remembered ones, where the exchange
// allows the product; else LIMIT and the exchange's usual product: CNC on cash, NRML on F&O).
import type { PriceType, Product, TicketDefaults, TicketSegment } from '@contract';
import { productsFor } from './instrument';

const SEGMENT_OF: Readonly<Record<string, TicketSegment>> = {
  NSE: 'equity',
  BSE: 'equity',
  NFO: 'fno',
  BFO: 'fno',
  CDS: 'fno',
  BCD: 'fno',
  MCX: 'commodity',
  NCDEX: 'commodity',
  NCO: 'commodity',
};

/** The segment an order exchange is in; undefined for quote-only indices. */
export const segmentOf = (exchange: string): TicketSegment | undefined => SEGMENT_OF[exchange];

export const SEGMENT_LABELS: Readonly<Record<TicketSegment, string>> = {
  equity: 'equity',
  fno: 'F&O',
  commodity: 'commodity',
};

export interface TicketChoice {
  priceType: PriceType;
  product: Product;
}

/** What a new symbol on `exchange` loads with. */
export function defaultsFor(exchange: string, saved: TicketDefaults | undefined): TicketChoice {
  const products = productsFor(exchange);
  const segment = segmentOf(exchange);
  const kept = segment ? saved?.[segment] : undefined;
  const usual = products[0] ?? 'MIS';
  if (!kept) return { priceType: 'LIMIT', product: usual };
  return { priceType: kept.priceType, product: products.includes(kept.product) ? kept.product : usual };
}

/** The order types in the order the cycling key steps through them. */
export const PRICE_TYPE_CYCLE: readonly PriceType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];

/** The next of `list` after `current` (the first when current is not in it). */
export function nextOf<T>(list: readonly T[], current: T): T | undefined {
  const at = list.indexOf(current);
  return list[(at + 1) % list.length];
}
