// The confirmation step before a send, the regular ticket's and each mode's alike: a press opens the
// question, a press this soon after it opened is the same hurried one (said, not taken as a yes), a
// later press or Confirm sends, Esc or Back steps back; what a press did is said in one line. A
// press refused because nothing can be sent (no link, no key) is said only while that cause lasts.

/** An Enter this soon after the confirmation appeared is the same hurried press, not a yes. */
export const CONFIRM_ARM_MS = 300;

/** What `SendStep.press` was asked to do, from what the sender knows now. */
export interface PressPlan {
  /** Why nothing can be sent now (no link, no key…): said, never silent. */
  blocked: string | undefined;
  /** A send in flight or made: the send-once guard ignores the press and counts it. */
  busy: boolean;
  /** Ask before sending (the place-confirmation setting, or a shortfall of funds). */
  asks: boolean;
  send: () => Promise<void>;
}

export class SendStep {
  /** The question is on screen. */
  confirming = $state(false);
  #hint = $state<string | undefined>();
  /** The hint is a refusal for a cause (`blocked`): it goes when the cause does. */
  #hintBlocked = $state(false);
  #openedAt = 0;
  readonly #now: () => number;
  readonly #blocked: () => string | undefined;

  /** `blocked`: why nothing can be sent now, read live (a refusal said for it lasts only as long). */
  constructor(
    now: () => number = () => performance.now(),
    blocked: () => string | undefined = () => undefined,
  ) {
    this.#now = now;
    this.#blocked = blocked;
  }

  /** What the last press did when it sent nothing ("Press Enter again to confirm", "Not sent"). */
  get hint(): string | undefined {
    if (this.#hintBlocked && this.#blocked() !== this.#hint) return undefined;
    return this.#hint;
  }
  set hint(text: string | undefined) {
    this.#hint = text;
    this.#hintBlocked = false;
  }

  /** A press found nothing can be sent: said until the cause is gone (or another hint replaces it). */
  sayBlocked(reason: string): void {
    this.#hint = reason;
    this.#hintBlocked = true;
  }

  /**
   * Enter (or a click) on the send button: confirms an open question, else says why it cannot send,
   * sends, or opens the question. 'asked' when the question opened (the caller focuses its Confirm).
   */
  async press(plan: PressPlan): Promise<'asked' | 'sent' | 'none'> {
    if (this.confirming) return (await this.confirm(plan.send)) ? 'sent' : 'none';
    if (plan.blocked) {
      this.sayBlocked(plan.blocked);
      return 'none';
    }
    this.hint = undefined;
    if (plan.asks && !plan.busy) {
      this.ask();
      return 'asked';
    }
    await plan.send();
    return 'sent';
  }

  /** Opens the question. */
  ask(): void {
    this.confirming = true;
    this.#openedAt = this.#now();
  }

  /** Confirm (or Enter on the question): sends unless the press came too soon; true when it sent. */
  async confirm(send: () => Promise<void>): Promise<boolean> {
    if (!this.confirming) return false;
    if (this.#now() - this.#openedAt < CONFIRM_ARM_MS) {
      this.hint = 'Press Enter again to confirm';
      return false;
    }
    this.confirming = false;
    this.hint = undefined;
    await send();
    return true;
  }

  /** Esc or Back: steps back from the question; false when there was none to close. */
  back(): boolean {
    if (!this.confirming) return false;
    this.confirming = false;
    this.hint = 'Not sent';
    return true;
  }

  /** The order changed under the question: it was asked for the order as it was. */
  close(): void {
    this.confirming = false;
  }
}
