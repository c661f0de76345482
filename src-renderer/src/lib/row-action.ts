// A hotkey meant for one row (M/C on an order, B/S on a watchlist or position row) reaches the pane
// that owns the row as a DOM event dispatched on the focused row element, so App's one key listener
// needs no knowledge of the panes and a pane's rows need no listener of their own.
import type { HotkeyAction } from './hotkeys';

export const ROW_ACTION_EVENT = 'desk:rowaction';

export interface RowActionDetail {
  action: HotkeyAction;
}

/** Sends the action to the row `target` is in; false when focus is on no row. */
export function dispatchRowAction(
  target: EventTarget | null,
  action: HotkeyAction,
  rowSelector: string,
): boolean {
  const row = target instanceof Element ? target.closest(rowSelector) : null;
  if (!row) return false;
  row.dispatchEvent(
    new CustomEvent<RowActionDetail>(ROW_ACTION_EVENT, { bubbles: true, detail: { action } }),
  );
  return true;
}

/** Listens for row actions on a container; the callback gets the row element and the action. */
export function listenRowActions(
  container: HTMLElement,
  cb: (row: HTMLElement, action: HotkeyAction) => void,
  rowSelector: string,
): () => void {
  const listener = (e: Event) => {
    const detail = (e as CustomEvent<RowActionDetail>).detail;
    const row = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>(rowSelector) : null;
    if (row && detail && container.contains(row)) cb(row, detail.action);
  };
  container.addEventListener(ROW_ACTION_EVENT, listener);
  return () => container.removeEventListener(ROW_ACTION_EVENT, listener);
}
