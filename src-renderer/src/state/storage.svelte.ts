// What the core says of its files at rest (session.storage, and the snapshot's storage): a journal
// found damaged at start and salvaged (the banner until the trader closes it), a paper ledger that
// could not be opened (the paper profile unavailable), and "reset the paper account": asked first,
// then profiles.resetPaper, then the outcome as the core reads it back.
import type { BridgeApi, JournalRecoveryNotice, PaperUnavailable, StorageStatus } from '@contract';
import type { ConfirmRequest } from './confirm.svelte';

/** What the last reset came to: the damaged ledger's new place, or why it did not happen. */
export interface PaperResetOutcome {
  ok: boolean;
  message: string;
}

/** The question before the reset: what is lost (the paper orders and positions) and what is kept. */
export function resetPaperQuestion(paper: PaperUnavailable): ConfirmRequest {
  return {
    title: 'Reset the paper account?',
    lines: [
      'The paper account starts afresh: its orders, positions and trades are discarded and its funds go back to the starting capital.',
      `The damaged ledger is kept aside (moved from ${paper.file}), not deleted.`,
      'Live profiles and the journal are not touched.',
    ],
    confirmLabel: 'Reset the paper account',
    tone: 'danger',
  };
}

export class StorageState {
  status = $state.raw<StorageStatus>({});
  /** The journal notice the trader closed (its backup path): a later salvage shows again. */
  #closed = $state<string | undefined>();
  /** A reset in flight: the button waits for it. */
  busy = $state(false);
  outcome = $state.raw<PaperResetOutcome | undefined>();
  /** The seq the status reflects: an older snapshot or event never overwrites a newer one. */
  #seq = 0;

  readonly journal: JournalRecoveryNotice | undefined = $derived(
    this.status.journal && this.status.journal.backupPath !== this.#closed ? this.status.journal : undefined,
  );
  readonly paper: PaperUnavailable | undefined = $derived(this.status.paper);

  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** The status from the snapshot or a `session.storage` event, numbered `seq`. */
  apply(status: StorageStatus, seq: number): void {
    if (seq < this.#seq) return;
    this.#seq = seq;
    this.status = {
      ...(status.journal ? { journal: status.journal } : {}),
      ...(status.paper ? { paper: status.paper } : {}),
    };
  }

  closeJournal(): void {
    this.#closed = this.status.journal?.backupPath;
  }

  closeOutcome(): void {
    this.outcome = undefined;
  }

  /** profiles.resetPaper, then the snapshot read again: the outcome is what the core now says. */
  async resetPaper(): Promise<PaperResetOutcome> {
    if (this.busy) return { ok: false, message: 'A reset is already under way' };
    this.busy = true;
    this.outcome = undefined;
    try {
      const r = await this.#bridge.invoke('profiles.resetPaper');
      const snap = await this.#bridge.invoke('session.snapshot');
      if (snap.ok) this.apply(snap.value.storage ?? {}, snap.value.seq);
      const still = this.status.paper;
      const outcome: PaperResetOutcome = !r.ok
        ? { ok: false, message: `The paper account was not reset: ${r.error.message}` }
        : still
          ? { ok: false, message: `The paper account is still unavailable: ${still.message}` }
          : {
              ok: true,
              message: `The paper account was reset and starts afresh; the damaged ledger is kept at ${r.value.backupPath}`,
            };
      this.outcome = outcome;
      return outcome;
    } finally {
      this.busy = false;
    }
  }
}
