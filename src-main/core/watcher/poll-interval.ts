// How often to poll: fast while orders are open (a fill alert is the point of the tray app, window or
// not), normal while the window is visible, slow in the tray; backing off while the gateway fails.
import type { PollingIntervals } from '../../contract/index.js';

export interface PollState {
  visible: boolean;
  /** Open or trigger-pending orders, or unknown outcomes still being reconciled. */
  busy: boolean;
  /** Consecutive failed polls. */
  failures: number;
  /**
   * The gateway's feed is live: order updates arrive over it at once, so open orders no longer speed
   * polling up; it keeps the window's pace (books, MTM) as the safety net.
   */
  feedLive?: boolean;
}

/**
 * The longest wait between polls while the gateway fails: a gateway that is back is seen within 5 s
 * (the desk "connected" again; the stress faults suite's closing outage), and one request every few
 * seconds is no load on one that is not.
 */
const MAX_BACKOFF_MS = 4_000;

/**
 * In the tray with the feed live and nothing open, the book read is only the safety net for a missed
 * feed message: every 30 s (or the tray pace, if slower). Nothing of the desk's can fill, an order
 * placed elsewhere is told by the feed at once, and the always-on app wakes a third as often.
 */
export const QUIET_TRAY_MS = 30_000;

export function pollInterval(p: PollingIntervals, s: PollState): number {
  const idle = s.visible ? p.visibleMs : p.hiddenMs;
  const quietTray = !s.visible && !s.busy && s.feedLive === true;
  const base = quietTray
    ? Math.max(idle, QUIET_TRAY_MS)
    : s.busy && !s.feedLive
      ? Math.min(p.openOrdersMs, idle)
      : idle;
  if (s.failures <= 0) return base;
  return Math.max(base, Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(s.failures, 6)));
}
