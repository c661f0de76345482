// Resolving a ticker/history request's `from`/`to` to epoch seconds, with the spec's silent span
// clamp (§4.19: D/W/M at most 3650 days before the end, intraday at most 30 days).
import { HttpError } from './route-kit.js';
import { DAY_SEC, istMidnight } from './ist.js';
import { intradaySeconds } from '../market/time.js';
import type { BarInterval } from '../market/market.js';

export const DAILY_SPAN_DAYS = 3650;
export const INTRADAY_SPAN_DAYS = 30;
/** A memory guard, not in the spec: no response carries more bars than this (see README). */
export const MAX_BARS = 1_000_000;

export function isDailyOrLonger(interval: string): boolean {
  return interval === 'D' || interval === 'W' || interval === 'M';
}

/**
 * A bound as epoch seconds: `YYYY-MM-DD` is the start of that IST day, or its last second when
 * `edge` is 'end' (so `to` includes the whole day); digits are a millisecond timestamp.
 */
export function parseBound(field: string, value: string, edge: 'start' | 'end'): number {
  if (/^\d+$/.test(value)) return Math.floor(Number(value) / 1000);
  const midnight = istMidnight(value);
  if (midnight === undefined) throw new HttpError(400, `${field} is not a valid date: ${value}`);
  return edge === 'start' ? midnight : midnight + DAY_SEC - 1;
}

export interface BarRange {
  fromSec: number;
  toSec: number;
}

/**
 * Missing `to` is now; missing `from` is the span limit (as far back as allowed). A `from`
 * beyond the limit is moved to it, silently. The end is capped at now (no future bars).
 */
export function resolveBarRange(
  interval: BarInterval,
  from: string | undefined,
  to: string | undefined,
  nowSec: number,
  fields: { from: string; to: string } = { from: 'from', to: 'to' },
): BarRange {
  const end = to === undefined ? nowSec : parseBound(fields.to, to, 'end');
  const spanDays = isDailyOrLonger(interval) ? DAILY_SPAN_DAYS : INTRADAY_SPAN_DAYS;
  const earliest = end - spanDays * DAY_SEC;
  let start = from === undefined ? earliest : parseBound(fields.from, from, 'start');
  if (start > end) throw new HttpError(400, `${fields.from} must not be after ${fields.to}`);
  if (start < earliest) start = earliest;
  const toSec = Math.min(end, nowSec);
  // D/W/M: a day is the shortest bar, so the cap stays conservative.
  const step = intradaySeconds(interval) ?? DAY_SEC;
  if ((toSec - start) / step > MAX_BARS) start = toSec - MAX_BARS * step + 1;
  return { fromSec: start, toSec };
}
