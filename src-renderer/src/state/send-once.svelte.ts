// The send-once guard the ticket's regular send and its Basket, Split and Smart modes share: a request
// goes out at most once until it changes (a double Enter is ignored, counted, and why is kept), a
// request the duplicate guard (or the hold on an order whose twin is in doubt) held back may be sent
// deliberately, unchanged, and the gateway's answer is read into one outcome.
import type { IpcError, IpcResult } from '@contract';
import { canSendAnyway } from '../lib/refusal-words';

/** The outcomes every mode shares besides its own "sent" ones. */
export type SendFailure =
  | { kind: 'unknown'; message: string }
  | { kind: 'queued'; message: string }
  | { kind: 'refused'; error: IpcError };

/** Why the guard ignored a press: one in flight, the request sent unchanged, or no hold to override. */
export type IgnoredReason = 'in_flight' | 'already_sent' | 'no_duplicate_refusal';

export class SendOnce {
  sending = $state(false);
  /** Presses ignored by the guard (a double Enter, a resend of the same request). */
  ignored = $state(0);
  lastIgnored = $state<IgnoredReason | undefined>();

  /** The request last sent unchanged: not sent again until something changes. */
  #sentKey = $state<string | undefined>();
  /** The request the duplicate guard held back last: it may be sent deliberately, unchanged. */
  #heldKey = $state<string | undefined>();

  isSent(key: string | undefined): boolean {
    return key !== undefined && key === this.#sentKey;
  }

  /** The duplicate guard held back exactly this request (the regular ticket's "Send anyway"). */
  canConfirmDuplicate(key: string | undefined): boolean {
    return key !== undefined && !this.sending && key === this.#heldKey;
  }

  /** A fresh order (the ticket reopened): nothing counts as sent or held any more. */
  reset(): void {
    this.#sentKey = undefined;
    this.#heldKey = undefined;
  }

  /**
   * Sends the request keyed `key` once: `call` is the IPC call, `sent` reads its value, `onStart` runs as
   * sending begins and `settle` as it ends (in the same turn, so the outcome shows as `sending` clears).
   * Undefined when the press was ignored.
   */
  async send<V, S>(
    key: string | undefined,
    confirmDuplicate: boolean,
    step: {
      call: () => Promise<IpcResult<V>>;
      sent: (value: V) => S;
      onStart: () => void;
      settle: (outcome: S | SendFailure) => void;
    },
  ): Promise<S | SendFailure | undefined> {
    if (
      this.sending ||
      key === undefined ||
      key === this.#sentKey ||
      (confirmDuplicate && key !== this.#heldKey)
    ) {
      this.ignored += 1;
      this.lastIgnored = this.sending
        ? 'in_flight'
        : confirmDuplicate
          ? 'no_duplicate_refusal'
          : 'already_sent';
      return undefined;
    }
    this.sending = true;
    step.onStart();
    let outcome: S | SendFailure;
    let refused: IpcError | undefined;
    try {
      const r = await step.call();
      if (r.ok) outcome = step.sent(r.value);
      else if (r.error.kind === 'unknown_outcome') outcome = { kind: 'unknown', message: r.error.message };
      else if (r.error.kind === 'queued') outcome = { kind: 'queued', message: r.error.message };
      else {
        refused = r.error;
        outcome = { kind: 'refused', error: r.error };
      }
    } catch (e) {
      // The bridge never rejects; if it does, the order may have left: treated as sent, not re-offered.
      outcome = { kind: 'unknown', message: e instanceof Error ? e.message : 'no reason given' };
    } finally {
      this.sending = false;
    }
    step.settle(outcome);
    if (!refused) this.#sentKey = key;
    this.#heldKey = refused && canSendAnyway(refused.kind) ? key : undefined;
    return outcome;
  }
}
