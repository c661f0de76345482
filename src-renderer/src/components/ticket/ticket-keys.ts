// The ticket's keys, resolved through the window's one key map. In the ticket: the send key sends (or
// goes to the mode on show), the cancel key steps back, the buy/sell keys (NEST's F1/F2) turn the
// side keeping what was typed, and the search chord searches. Outside it, the ticket's desk-wide keys
// (App leaves them to the ticket): search, and buy/sell on the focused instrument. The order type and
// product keys change the draft where the caret is (the choice is kept for the segment); the repeat
// key asks to send the last order again, from anywhere; the protection key sends with the segment's
// default protection.
import type { Action } from '@contract';
import type { HotkeyAction } from '../../lib/hotkeys';
import { PRICE_TYPE_CYCLE, SEGMENT_LABELS, nextOf, segmentOf } from '../../lib/ticket-defaults';
import { TICKET_FIELD_IDS, focusTicketField } from '../../lib/ticket-focus';
import type { HotkeysState } from '../../state/hotkeys.svelte';
import type { TicketState } from '../../state/ticket.svelte';

export interface TicketKeyActions {
  hotkeys: HotkeysState;
  ticket: TicketState;
  /** The send key, with the element it was pressed on (Basket tells its send button from the rest). */
  send(target: EventTarget | null): void;
  cancel(): void;
  /** Buy/sell from outside the ticket, with the element it was pressed on (a watchlist row). */
  open(side: Action, from: EventTarget | null): void;
  /** The repeat-last key: asks to send the last order again. */
  repeat(): void;
  /** The protection key: sends the entry with the segment's default protection. */
  sendProtected(): void;
}

const CHOICE_KEYS: ReadonlySet<HotkeyAction> = new Set([
  'ticket.market',
  'ticket.nextType',
  'ticket.nextProduct',
]);

/** The order type or product key: changes the draft and says that the segment keeps it. */
function choose(t: TicketState, action: HotkeyAction): void {
  if (action === 'ticket.market') t.priceType = 'MARKET';
  else if (action === 'ticket.nextType') t.priceType = nextOf(PRICE_TYPE_CYCLE, t.priceType) ?? 'LIMIT';
  else t.product = nextOf(t.products, t.product) ?? t.product;
  const segment = t.instrument ? segmentOf(t.instrument.exchange) : undefined;
  t.notice = segment
    ? `${t.priceType} · ${t.product}: new ${SEGMENT_LABELS[segment]} symbols start so`
    : undefined;
}

/** A key pressed inside the ticket's form. */
export function ticketKey(e: KeyboardEvent, a: TicketKeyActions): void {
  if (e.defaultPrevented || e.isComposing) return;
  const target = e.target instanceof HTMLElement ? e.target : undefined;
  // Repeats included: a held send key is swallowed.
  const action = a.hotkeys.resolve(e, { repeats: true });
  if (action === 'ticket.send') {
    e.stopPropagation();
    // Buttons other than send/confirm (the duplicate override, the picker's Use) act on their own.
    if (target?.closest('[data-no-send]')) return;
    e.preventDefault();
    // A held Enter repeats: one press, one send.
    if (!e.repeat) a.send(e.target);
  } else if (action === 'ticket.cancel') {
    e.preventDefault();
    e.stopPropagation();
    if (!e.repeat) a.cancel();
  } else if (action === 'ticket.buy' || action === 'ticket.sell') {
    e.preventDefault();
    e.stopPropagation();
    if (e.repeat) return;
    a.ticket.side = action === 'ticket.buy' ? 'BUY' : 'SELL';
    if (target?.id !== TICKET_FIELD_IDS.quantity) focusTicketField('quantity');
  } else if (action === 'search.open') {
    // Only a chord that works while typing gets here from a field (`/` itself stays typing).
    e.preventDefault();
    e.stopPropagation();
    focusTicketField('search');
  } else if (action && CHOICE_KEYS.has(action)) {
    e.preventDefault();
    e.stopPropagation();
    if (!e.repeat) choose(a.ticket, action);
  } else if (action === 'ticket.repeatLast') {
    e.preventDefault();
    e.stopPropagation();
    if (!e.repeat) a.repeat();
  } else if (action === 'ticket.sendProtected') {
    e.preventDefault();
    e.stopPropagation();
    if (!e.repeat) a.sendProtected();
  }
}

/** A key pressed anywhere in the window outside the ticket's form. */
export function windowKey(e: KeyboardEvent, form: HTMLElement | undefined, a: TicketKeyActions): void {
  if (e.target instanceof Node && form?.contains(e.target)) return;
  // A question on screen (the desk's confirm dialog) answers its own keys.
  if (document.querySelector('[aria-modal="true"]')) return;
  const action = a.hotkeys.resolve(e);
  if (action === 'search.open') {
    e.preventDefault();
    focusTicketField('search');
  } else if (action === 'ticket.buy' || action === 'ticket.sell') {
    e.preventDefault();
    a.open(action === 'ticket.buy' ? 'BUY' : 'SELL', e.target);
  } else if (action === 'ticket.repeatLast') {
    e.preventDefault();
    a.repeat();
  }
}
