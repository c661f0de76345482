// The guard's days, pure: the IST trading day a moment belongs to, the next session's open (09:15 IST
// of the next weekday; exchange holidays are not known here, so a holiday's lock ends at its 09:15),
// and when a lock made now ends: after its cooling-off minutes, or at that open.
import { formatIstIso } from '../../shared/format.js';

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const OPEN_MS = (9 * 60 + 15) * 60_000;

/** The IST day of `ms`, YYYY-MM-DD. */
export const istDay = (ms: number): string => formatIstIso(ms).slice(0, 10);

/** 09:15 IST of the first weekday after `ms`'s IST day (epoch ms). */
export function nextSessionOpen(ms: number): number {
  // IST midnight of the day, counted as if IST were UTC; weekdays read off that.
  let midnight = Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS;
  do midnight += DAY_MS;
  while ([0, 6].includes(new Date(midnight).getUTCDay()));
  return midnight + OPEN_MS - IST_OFFSET_MS;
}

/** The first moment of the IST day after `ms`'s (epoch ms): when counters start again. */
export function nextIstMidnight(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS + DAY_MS - IST_OFFSET_MS;
}

/** When a lock made at `now` ends: `coolOffMinutes` later, or (0) at the next session's open. */
export function lockEnd(now: number, coolOffMinutes: number): number {
  return coolOffMinutes > 0 ? now + coolOffMinutes * 60_000 : nextSessionOpen(now);
}
