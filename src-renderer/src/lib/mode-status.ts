// What a ticket mode (Basket, Split, Smart) says under its send button: the lines every mode shares for
// a send that was not placed, and for a press the send-once guard ignored.
import type { SendFailure } from '../state/send-once.svelte';
import { refusalLead } from './refusal-words';
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
        text: `${refusalLead(o.error.kind)}: ${o.error.message}`,
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
