// The repeat-last key: the last order the ticket placed, sent again after a confirmation that says
// exactly what goes (symbol, side, quantity, type, product, price), whatever the ticket shows now.
// With no order placed yet it says so. The question is the ticket's confirmation step (an Enter this
// soon after it opened is the same hurried press), and the send goes through a send-once guard: one
// in flight is never joined by a second. The confirmed question is the trader saying "the same order
// again" on purpose, so it goes with confirmDuplicate (the core's duplicate window does not hold it).
import type { BridgeApi, IpcResult, OrderIdResponse } from '@contract';
import { formatPriceExact, formatQty } from '@shared/format.js';
import { SendOnce, type SendFailure } from './send-once.svelte';
import { CONFIRM_ARM_MS, SendStep } from './send-step.svelte';
import type { TicketState } from './ticket.svelte';

export type RepeatOutcome = { kind: 'placed'; orderid: string } | SendFailure;

/** What the repeat will send, in the ticket's words: `Buy 10 SBIN @ MKT on NSE · MIS`. */
export function repeatText(last: NonNullable<TicketState['lastPlaced']>): string {
  const r = last.request;
  const verb = r.action === 'BUY' ? 'Buy' : 'Sell';
  const price = (p: number) => formatPriceExact(String(p), last.tickSize);
  const at =
    r.pricetype === 'MARKET'
      ? '@ MKT'
      : r.pricetype === 'LIMIT'
        ? `@ ${price(r.price ?? 0)}`
        : r.pricetype === 'SL'
          ? `@ ${price(r.price ?? 0)} trg ${price(r.trigger_price ?? 0)}`
          : `@ MKT trg ${price(r.trigger_price ?? 0)}`;
  return `${verb} ${formatQty(r.quantity)} ${last.name} ${at} on ${r.exchange} · ${r.product}`;
}

export class RepeatLast {
  readonly step = new SendStep();
  outcome = $state.raw<RepeatOutcome | undefined>();
  /** The order the open question is for (kept as asked: a fill meanwhile does not change it). */
  asked = $state.raw<TicketState['lastPlaced']>();
  readonly #once = new SendOnce();
  #asks = 0;
  #answeredAt = -Infinity;
  readonly #ticket: TicketState;
  readonly #bridge: BridgeApi;
  readonly #blocked: () => string | undefined;

  constructor(ticket: TicketState, bridge: BridgeApi, blocked: () => string | undefined) {
    this.#ticket = ticket;
    this.#bridge = bridge;
    this.#blocked = blocked;
  }

  get sending(): boolean {
    return this.#once.sending;
  }

  /**
   * A send key now is the hurried press that confirmed the repeat (in flight, or within the confirm
   * arm window of its answer): it must not go on to send the ticket's own order.
   */
  isSamePress(now: number = performance.now()): boolean {
    return this.#once.sending || now - this.#answeredAt < CONFIRM_ARM_MS;
  }

  /** The repeat key: opens the question; true when it did (the caller focuses its Confirm). */
  ask(): boolean {
    if (this.step.confirming || this.#once.sending) return false;
    const blocked = this.#blocked();
    if (blocked) {
      this.step.hint = blocked;
      return false;
    }
    const last = this.#ticket.lastPlaced;
    if (!last) {
      this.step.hint = 'No order to repeat yet: place one first';
      return false;
    }
    this.asked = last;
    this.outcome = undefined;
    this.#asks += 1;
    this.step.hint = undefined;
    this.step.ask();
    return true;
  }

  /** Confirm (or Enter on the question): sends the order asked about once; true when it went. */
  confirm(): Promise<boolean> {
    return this.step.confirm(async () => {
      const last = this.asked;
      if (!last) return;
      await this.#once.send(`repeat#${this.#asks}`, false, {
        call: () =>
          this.#bridge.invoke('orders.place', { ...last.request, confirmDuplicate: true }).catch(lost),
        sent: (v: OrderIdResponse): RepeatOutcome => ({ kind: 'placed', orderid: v.orderid }),
        onStart: () => undefined,
        settle: (o) => {
          this.outcome = o;
          this.#answeredAt = performance.now();
        },
      });
    });
  }

  /** Drops what the last repeat said (the ticket moved on); an open question stays. */
  forget(): void {
    if (this.step.confirming || this.#once.sending) return;
    this.step.hint = undefined;
    this.outcome = undefined;
  }

  /** Esc or Back: nothing is sent. */
  back(): boolean {
    return this.step.back();
  }
}

/** A rejected bridge promise: whether the order left is unknown (treated as sent, never re-offered). */
function lost(e: unknown): IpcResult<OrderIdResponse> {
  const why = e instanceof Error ? e.message : 'no reason given';
  return { ok: false, error: { kind: 'unknown_outcome', message: `The order's outcome is unknown: ${why}` } };
}
