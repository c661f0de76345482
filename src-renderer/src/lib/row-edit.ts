// The keys and focus of a book row's modify form (the order book's in-place edit, the GTT book's
// form): the first box takes focus with its text selected, Enter sends, Escape goes back, and both
// return focus to the table once the form closes.

/** An attachment: focus the element when it mounts, selecting an input's text. */
export function focusOnMount(el: HTMLElement): void {
  el.focus();
  if (el instanceof HTMLInputElement) el.select();
}

export interface RowEdit {
  /** Sends the modify; true when it went (the form closes). */
  submit(): Promise<boolean>;
  /** Closes the form without sending. */
  cancel(): void;
  /** Puts focus back on the table. */
  refocus(): void;
}

/** The keydown handler of a modify form's inputs: Enter sends, Escape goes back. */
export function rowEditKeys(
  edit: RowEdit,
  focused: () => Element | null = () => document.activeElement,
): (e: KeyboardEvent) => void {
  /** A modify on its way: another Enter waits for its answer instead of sending again. */
  let sending = false;
  return (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      e.stopPropagation();
      if (sending) return;
      sending = true;
      const from = e.target;
      void edit
        .submit()
        .then((sent) => {
          // Back to the table only if focus is nowhere else: a trader who moved on (a `/` search)
          // while the answer travelled keeps where they are.
          const at = focused();
          if (sent && (at === null || at === document.body || at === from)) edit.refocus();
        })
        .finally(() => {
          sending = false;
        });
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      edit.cancel();
      edit.refocus();
    }
  };
}
