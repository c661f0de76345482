// The send-once guard the ticket's regular send and its Basket, Split and Smart modes share: a request
// goes out at most once until it changes (a double Enter is ignored, counted, and why is kept), a
// request the duplicate guard (or the hold on an order whose twin is in doubt) held back may be sent
// deliberately, unchanged, and the gateway's answer is read into one outcome. The regular ticket
// (`resendAnswered`) lets a request the gateway answered go again on a later, distinct press: only one
// in flight, one whose outcome is unknown or queued, or a press within CONFIRM_ARM_MS of the answer
// (the same hurried press) is ignored.
import type { IpcError, IpcResult } from '@contract';
import { canSendAnyway } from '../lib/refusal-words';
import { CONFIRM_ARM_MS } from './send-step.svelte';

/** The outcomes every mode shares besides its own "sent" ones. */
export type SendFailure =
  | { kind: 'unknown'; message: string }
  | { kind: 'queued'; message: string }
  | { kind: 'refused'; error: IpcError };

/**
 * Why the guard ignored a press: one in flight, the request sent unchanged (its outcome unknown or
 * queued, or any outcome without `resendAnswered`), a press this soon after the answer, or no hold
 * to override.
 */
export type IgnoredReason = 'in_flight' | 'already_sent' | 'same_press' | 'no_duplicate_refusal';

export interface SendOnceOptions {
  /** A request the gateway answered (placed) may go again on a later, distinct press. */
  resendAnswered?: boolean;
  now?: () => number;
}

export class SendOnce {
  sending = $state(false);
  /** Presses ignored by the guard (a double Enter, a resend of the same request). */
  ignored = $state(0);
  lastIgnored = $state<IgnoredReason | undefined>();

  /** The request last sent unchanged: not sent again until something changes. */
  #sentKey = $state<string | undefined>();
  /** The request the duplicate guard held back last: it may be sent deliberately, unchanged. */
  #heldKey = $state<string | undefined>();
  /** The request sent last, whatever its outcome. */
  #lastKey = $state<string | undefined>();
  /** The request the gateway answered last (placed) and when: a press this soon is the same one. */
  #answeredKey: string | undefined;
  #answeredAt = -Infinity;
  readonly #resendAnswered: boolean;
  readonly #now: () => number;

  constructor(options: SendOnceOptions = {}) {
    this.#resendAnswered = options.resendAnswered ?? false;
    this.#now = options.now ?? (() => performance.now());
  }

  /** `key` is the request sent last (whatever became of it): what an ignored press is said against. */
  isLast(key: string | undefined): boolean {
    return key !== undefined && key === this.#lastKey;
  }

  /** A press now would be the same hurried press as the send of `key` just answered. */
  isSamePress(key: string | undefined): boolean {
    return (
      this.#resendAnswered &&
      key !== undefined &&
      key === this.#answeredKey &&
      this.#now() - this.#answeredAt < CONFIRM_ARM_MS
    );
  }

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
    this.#lastKey = undefined;
    this.#answeredKey = undefined;
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
    const samePress = !confirmDuplicate && this.isSamePress(key);
    if (
      this.sending ||
      key === undefined ||
      key === this.#sentKey ||
      samePress ||
      (confirmDuplicate && key !== this.#heldKey)
    ) {
      this.ignored += 1;
      this.lastIgnored = this.sending
        ? 'in_flight'
        : confirmDuplicate
          ? 'no_duplicate_refusal'
          : key === this.#sentKey
            ? 'already_sent'
            : 'same_press';
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
    this.#lastKey = key;
    // Answered (placed) may go again on a later press where allowed; unknown or queued never.
    const answered = !refused && !isUnanswered(outcome);
    if (answered && this.#resendAnswered) {
      this.#sentKey = undefined;
      this.#answeredKey = key;
      this.#answeredAt = this.#now();
    } else if (!refused) this.#sentKey = key;
    this.#heldKey = refused && canSendAnyway(refused.kind) ? key : undefined;
    return outcome;
  }
}

const isUnanswered = (o: unknown): boolean => {
  const kind = (o as { kind?: unknown } | undefined)?.kind;
  return kind === 'unknown' || kind === 'queued';
};
