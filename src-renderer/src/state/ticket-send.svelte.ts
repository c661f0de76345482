// The regular ticket's send: one press checks what stops it (no link, an incomplete order), waits for
// the margin where the funds check needs it, then sends at once or opens the confirmation step (the
// place-confirmation setting, or a shortfall of funds, which must be confirmed); the send itself goes
// through the ticket's send-once guard, so a double Enter or double click never sends twice.
import type { ConnectionShown } from './desk.svelte';
import type { OrderMargin } from './order-margin.svelte';
import { SendStep } from './send-step.svelte';
import type { TicketState } from './ticket.svelte';

/** Why nothing can be sent on this connection, in words; undefined when orders can go. */
export function sendBlocked(connection: ConnectionShown): string | undefined {
  switch (connection) {
    case 'link_lost':
      return 'No link to the OrderDesk host: not sending';
    case 'disconnected':
      return 'Gateway unreachable: not sending until it is back';
    case 'no_key':
      return 'No API key for this profile: not sending';
    case 'unauthorised':
      return 'API key rejected by the gateway: not sending';
    default:
      return undefined;
  }
}

export interface TicketSendSources {
  /** Why nothing can be sent now (no link, no key…). */
  blocked(): string | undefined;
  /** Ask before sending (settings.confirmations.place). */
  asks(): boolean;
  /** The first problem shown with the order, said when a press finds it incomplete. */
  firstIssue(): string | undefined;
}

/** What a press did: the caller focuses Confirm after 'asked', the first bad field after 'incomplete'. */
export type PressResult = 'asked' | 'incomplete' | 'sent' | 'none';

export class TicketSend {
  readonly step: SendStep;
  /** What the funds check said of the order being confirmed (a shortfall must be confirmed). */
  fundsWarning = $state<{ text: string; strong: boolean }>();
  /** ticket.ignoredSubmits when the current order was first asked to be sent. */
  ignoredAtSend = $state(0);
  #checkingFunds = false;
  readonly #ticket: TicketState;
  readonly #margin: OrderMargin;
  readonly #s: TicketSendSources;

  /** Extra presses ignored since the last send: said once, for this order only. */
  readonly ignoredShown = $derived.by(() => {
    const t = this.#ticket;
    if (t.ignoredSubmits <= this.ignoredAtSend) return undefined;
    if (t.sending) return 'Still sending: the extra press was ignored';
    // The order changed since: the press is no longer news.
    if (!t.sameAsLast) return undefined;
    // Only an order whose outcome is not known yet (unknown, queued) is held as it stands.
    return t.lastIgnored === 'already_sent' && t.sent
      ? 'Already sent, its outcome not known yet: change the order to send another'
      : 'Sent once: the extra press was ignored';
  });

  constructor(ticket: TicketState, margin: OrderMargin, sources: TicketSendSources) {
    this.#ticket = ticket;
    this.#margin = margin;
    this.#s = sources;
    this.step = new SendStep(undefined, () => sources.blocked());
  }

  /** What the ticket says about the last key or click that did nothing (in words, never silent). */
  get hint(): string | undefined {
    return this.step.hint;
  }
  set hint(text: string | undefined) {
    this.step.hint = text;
  }

  /** Enter or a click on the send button, outside the question. */
  async press(): Promise<PressResult> {
    // Confirming, or checking the funds (the hint says so): the press is the same hurried one.
    if (this.step.confirming || this.#checkingFunds) return 'none';
    const ticket = this.#ticket;
    const blocked = this.#s.blocked();
    if (blocked) {
      this.step.sayBlocked(blocked);
      return 'none';
    }
    // In flight, sent with no answer yet, or the same hurried press as the send just answered: the
    // ticket ignores it and says so; nothing leaves twice. A later press after an answer sends anew.
    if (ticket.sending || ticket.sent || ticket.isSamePress()) {
      await ticket.submit();
      return 'none';
    }
    if (!ticket.request) {
      this.hint = this.#s.firstIssue() ?? 'The order is not complete yet';
      return 'incomplete';
    }
    this.hint = undefined;
    this.ignoredAtSend = ticket.ignoredSubmits;
    if (this.#margin.mustWait()) {
      this.#checkingFunds = true;
      this.hint = 'Checking the margin against the available funds…';
      try {
        await this.#margin.settle();
      } finally {
        this.#checkingFunds = false;
        this.hint = undefined;
      }
      if (!ticket.request) return 'none';
    }
    const funds = this.#margin.check();
    this.fundsWarning =
      funds.kind === 'fits' ? undefined : { text: funds.message, strong: funds.kind === 'short' };
    if (this.#s.asks() || funds.kind === 'short') {
      this.step.ask();
      return 'asked';
    }
    // Margin or funds unknown: said, never a silent send and never a block.
    if (this.fundsWarning) this.hint = this.fundsWarning.text;
    await ticket.submit();
    return 'sent';
  }

  /** Confirm (or Enter on the question): true when the order went. */
  confirm(): Promise<boolean> {
    return this.step.confirm(async () => void (await this.#ticket.submit()));
  }
}
