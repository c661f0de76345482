// The ticket's fields by id, so the desk's keys (`/`, F1/F2, B/S on a row) can put the caret where
// the trader types next without reaching into the ticket component.
export const TICKET_FIELD_IDS = {
  search: 'ticket-search',
  quantity: 'ticket-qty',
  price: 'ticket-price',
  trigger: 'ticket-trigger',
} as const;
export type TicketFocusField = keyof typeof TICKET_FIELD_IDS;

/** Focuses (and selects, so typing replaces) one of the ticket's fields; false when it is not shown. */
export function focusTicketField(field: TicketFocusField, doc: Document = document): boolean {
  const el = doc.getElementById(TICKET_FIELD_IDS[field]);
  if (!(el instanceof HTMLInputElement)) return false;
  el.focus();
  el.select();
  return true;
}
