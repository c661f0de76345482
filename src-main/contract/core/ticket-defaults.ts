// The ticket's remembered order type and product per market segment (part of settings.json): a new
// symbol of a segment loads with the last ones the trader chose there, so a MARKET MIS scalper does
// not set them again for every symbol. A segment with nothing saved starts at LIMIT and its usual product.
import { z } from 'zod';
import { PRICE_TYPES, PRODUCTS } from '../gateway/primitives.js';

/** Equity cash (NSE, BSE), F&O (NFO, BFO, CDS, BCD), commodity (MCX, NCDEX, NCO). */
export const TICKET_SEGMENTS = ['equity', 'fno', 'commodity'] as const;
export type TicketSegment = (typeof TICKET_SEGMENTS)[number];

export const TicketSegmentDefault = z.strictObject({
  priceType: z.enum(PRICE_TYPES, { error: `priceType must be one of: ${PRICE_TYPES.join(', ')}` }),
  product: z.enum(PRODUCTS, { error: `product must be one of: ${PRODUCTS.join(', ')}` }),
});
export type TicketSegmentDefault = z.infer<typeof TicketSegmentDefault>;

/** Only the segments the trader chose something in; a patch replaces the segments it names. */
export const TicketDefaults = z.strictObject({
  equity: TicketSegmentDefault.optional(),
  fno: TicketSegmentDefault.optional(),
  commodity: TicketSegmentDefault.optional(),
});
export type TicketDefaults = z.infer<typeof TicketDefaults>;
