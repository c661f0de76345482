// How often to poll: fast while orders are open (a fill alert is the point of the tray app, window or
// not), normal while the window is visible, slow in the tray; backing off while the gateway fails.
import type { PollingIntervals } from '../../contract/index.js';

export interface PollState {
  visible: boolean;
  /** Open or trigger-pending orders, or unknown outcomes still being reconciled. */
  busy: boolean;
  /** Consecutive failed polls. */
  failures: number;
  /** The gateway's feed is live: order updates arrive at once, polling is only the safety net. */
  feedLive?: boolean;
}

/** Polling is this many times slower while the feed is live. */
export const FEED_LIVE_SLOWDOWN = 4;

const MAX_BACKOFF_MS = 30_000;

export function pollInterval(p: PollingIntervals, s: PollState): number {
  const idle = s.visible ? p.visibleMs : p.hiddenMs;
  const base = (s.busy ? Math.min(p.openOrdersMs, idle) : idle) * (s.feedLive ? FEED_LIVE_SLOWDOWN : 1);
  if (s.failures <= 0) return base;
  return Math.max(base, Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(s.failures, 6)));
}
