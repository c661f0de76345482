// How many toasts the full desk's watchlist column can hold at its foot without its rows going
// under them: the column keeps its own chrome (list tabs, the add field, the header) and three rows
// on screen; the rest, less the "+N in Alerts" line and the margins, is room for toasts.

/** The most toasts on screen at once. */
export const TOASTS_MAX = 3;
/** The watchlist's chrome above its rows (tabs, add field, header), in px. */
const WATCHLIST_CHROME_PX = 96;
/** Watchlist rows that stay visible whatever the toasts. */
const ROWS_KEPT = 3;
const ROW_PX = 28;
/** One toast and the gap under it. */
const TOAST_PX = 48;
/** The "+N more in Alerts" line, the stack's bottom margin and the space above the stack. */
const STACK_EXTRA_PX = 24 + 12 + 16;

/**
 * Toasts that fit a watchlist column `columnPx` tall (0 to TOASTS_MAX). A column not measured yet
 * (0: no layout) gets the most.
 */
export function toastsThatFit(columnPx: number): number {
  if (!(columnPx > 0)) return TOASTS_MAX;
  const room = columnPx - WATCHLIST_CHROME_PX - ROWS_KEPT * ROW_PX - STACK_EXTRA_PX;
  return Math.max(0, Math.min(TOASTS_MAX, Math.floor(room / TOAST_PX)));
}
