// The desk's one confirmation dialog, in the window (never a browser confirm(), never the tray): a
// pane, a hotkey or a shell command asks, the dialog shows the question, and the answer comes back
// as a promise. Nothing is sent until the trader says yes; a second question while one is open
// is refused (answered no) rather than replacing what the trader is reading.

export interface ConfirmRequest {
  title: string;
  /** What will happen, one sentence per line. */
  lines: readonly string[];
  /** Disagreements the trader should read before saying yes (shown in the warning colour). */
  warnings?: readonly string[];
  confirmLabel: string;
  cancelLabel?: string;
  /** Orders go out or come off: the confirm button is drawn as a destructive one. */
  tone?: 'danger' | 'normal';
}

export class ConfirmState {
  request = $state.raw<ConfirmRequest | undefined>();
  #resolve: ((yes: boolean) => void) | undefined;

  /** Shows the question; resolves true only on an explicit yes. */
  ask(request: ConfirmRequest): Promise<boolean> {
    if (this.request) return Promise.resolve(false);
    this.request = request;
    return new Promise<boolean>((resolve) => (this.#resolve = resolve));
  }

  answer(yes: boolean): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    this.request = undefined;
    resolve?.(yes);
  }
}
