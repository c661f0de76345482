// One way for any pane (option chain, chart, journal, depth, books) to load the order ticket and
// bring it forward: it fills the ticket, never sends. Use it with the context's ticket:
//   await loadTicket(getTicket(), { symbol, exchange, side: 'BUY', price: 104.5 });
import type { Action, Product } from '@contract';
import { priceInputText } from '@shared/format.js';
import { focusTicketField, type TicketFocusField } from './ticket-focus';
import type { TicketState } from '../state/ticket.svelte';

export interface TicketLoad {
  symbol: string;
  exchange: string;
  /** The ticket's current side when absent. */
  side?: Action;
  /** A LIMIT price to fill (stepped to the instrument's tick); absent: the ticket's default (LTP). */
  price?: number | string;
  /** The last traded price the caller knows, for the value estimate. */
  ltp?: number;
  /** Shares (the ticket's unit after open()); absent: one lot. */
  quantity?: number;
  /** Used when the exchange allows it (a holding's sell is CNC); otherwise the exchange's first. */
  product?: Product;
  /** Where the caret goes: the price when one was given, else the quantity. */
  field?: TicketFocusField;
}

/** Opens the ticket on the instrument (fresh draft), fills the price and focuses the next field. */
export async function loadTicket(
  ticket: TicketState,
  load: TicketLoad,
  doc: Document = document,
): Promise<boolean> {
  await ticket.open(
    load.side ?? ticket.side,
    { symbol: load.symbol, exchange: load.exchange },
    {
      lastPrice: load.ltp,
    },
  );
  // open() refused the instrument: the ticket shows why; leave the caret where it was.
  if (!ticket.instrument) return false;
  if (load.product && ticket.products.includes(load.product)) ticket.product = load.product;
  if (load.quantity !== undefined) ticket.quantityText = String(load.quantity);
  if (load.price !== undefined) {
    ticket.priceType = 'LIMIT';
    ticket.priceText = priceInputText(load.price, ticket.instrument.tickSize);
  }
  focusTicketField(load.field ?? (load.price !== undefined ? 'price' : 'quantity'), doc);
  return true;
}
