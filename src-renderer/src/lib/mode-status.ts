// What a ticket mode (Basket, Split, Smart) says under its send button: the lines every mode shares for
// a send that was not placed, a placed order's line as its order book row has it now, and a press the
// send-once guard ignored.
import type { OrderSnapshot } from '@contract';
import { formatQty } from '@shared/format.js';
import type { SendFailure } from '../state/send-once.svelte';
import { ORDER_FILTER_LABELS, orderFilterOf } from './order-status';
import { groupAmounts, refusalLead } from './refusal-words';
import { unknownOutcomeText } from './unknown-outcome';

export interface OutcomeLine {
  tone: 'ok' | 'warn' | 'bad';
  text: string;
}

/** The line for an unknown, queued or refused send. */
export function failureLine(o: SendFailure): OutcomeLine {
  switch (o.kind) {
    case 'unknown':
      return { tone: 'warn', text: unknownOutcomeText(o.message) };
    case 'queued':
      return { tone: 'warn', text: `Queued for approval at the gateway, not placed yet. ${o.message}` };
    case 'refused':
      return {
        tone: 'bad',
        text: `${refusalLead(o.error.kind)}: ${groupAmounts(o.error.message)}`,
      };
  }
}

/**
 * A placed order's line, following its row in the order book (read back from the gateway, never
 * assumed): "Placed" until the book has it, then open, trigger pending, complete, cancelled or
 * rejected (with the gateway's reason).
 */
export function placedLine(orderid: string, row: OrderSnapshot | undefined): OutcomeLine {
  const filter = row ? orderFilterOf(row.status) : undefined;
  // A part fill is said while the order works and after a cancel; "complete" is all of it.
  const part =
    row && row.filledQuantity > 0 && row.filledQuantity < row.quantity
      ? ` · ${formatQty(row.filledQuantity)} of ${formatQty(row.quantity)} filled`
      : '';
  const tail = `${part} · order ${orderid}`;
  switch (filter) {
    case undefined:
      return { tone: 'ok', text: `Placed${tail}` };
    case 'open':
    case 'trigger':
    case 'complete':
      return { tone: 'ok', text: `${ORDER_FILTER_LABELS[filter]}${tail}` };
    case 'cancelled':
      return { tone: 'warn', text: `Cancelled${tail}` };
    case 'rejected':
      return {
        tone: 'bad',
        text: `Rejected${tail}${row?.rejectionReason ? `: ${groupAmounts(row.rejectionReason)}` : ''}`,
      };
  }
}

/**
 * Why a press since the last send did nothing (undefined when none was ignored); `change` names what
 * the trader changes to send another, e.g. "the basket".
 */
export function ignoredLine(
  guard: { ignored: number; sending: boolean },
  ignoredAtSend: number,
  change: string,
): string | undefined {
  if (guard.ignored <= ignoredAtSend) return undefined;
  return guard.sending
    ? 'Still sending: the extra press was ignored'
    : `Already sent as it stands: change ${change} to send another`;
}

/** Scrolls the mode's end into view, only while the trader works in it: a background re-preview never moves the column. */
export function keepInView(
  section: HTMLElement | undefined,
  end: HTMLElement | undefined,
  force = false,
): void {
  if (force || section?.contains(document.activeElement)) end?.scrollIntoView?.({ block: 'nearest' });
}
