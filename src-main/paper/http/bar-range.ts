// Resolving a ticker/history request's `from`/`to` to epoch seconds, with the spec's silent span
// clamp (§4.19: D/W/M at most 3650 days before the end, intraday at most 30 days).
import { HttpError } from './route-kit.js';
import { DAY_SEC, istMidnight } from './ist.js';

export const DAILY_SPAN_DAYS = 3650;
export const INTRADAY_SPAN_DAYS = 30;
/** A memory guard, not in the spec: no response carries more bars than this (see README). */
export const MAX_BARS = 1_000_000;

const INTERVAL_SEC: Readonly<Record<string, number>> = {
  '1s': 1,
  '5s': 5,
  '10s': 10,
  '15s': 15,
  '30s': 30,
  '45s': 45,
  '1m': 60,
  '2m': 120,
  '3m': 180,
  '5m': 300,
  '10m': 600,
  '15m': 900,
  '20m': 1200,
  '30m': 1800,
  '1h': 3600,
  '2h': 7200,
  '3h': 10_800,
  '4h': 14_400,
  D: DAY_SEC,
  W: 7 * DAY_SEC,
  M: 28 * DAY_SEC,
};

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
  interval: string,
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
  const step = INTERVAL_SEC[interval] ?? 1;
  if ((toSec - start) / step > MAX_BARS) start = toSec - MAX_BARS * step + 1;
  return { fromSec: start, toSec };
}
