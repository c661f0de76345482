// IST calendar arithmetic. IST is UTC+05:30 with no DST, so boundaries are plain integer maths on
// epoch seconds: day index d covers [d*86400 - 19800, (d+1)*86400 - 19800).
import type { TickerInterval as BarInterval } from '../../contract/index.js';

export const IST_OFFSET_SEC = 19_800;
export const DAY_SEC = 86_400;

/** IST calendar-day index (days since 1970-01-01 IST) of an epoch second. */
export function istDay(sec: number): number {
  return Math.floor((sec + IST_OFFSET_SEC) / DAY_SEC);
}

/** Epoch second of IST midnight starting day `day`. */
export function istDayStart(day: number): number {
  return day * DAY_SEC - IST_OFFSET_SEC;
}

/** Day index of the Monday starting the IST week containing `day` (1970-01-01 was a Thursday). */
export function istWeekStartDay(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

/** Day index of the 1st of the IST month containing `day`. */
export function istMonthStartDay(day: number): number {
  const d = new Date(day * DAY_SEC * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / (DAY_SEC * 1000);
}

/** Day index of the 1st of the following IST month. */
export function istNextMonthStartDay(day: number): number {
  const d = new Date(day * DAY_SEC * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / (DAY_SEC * 1000);
}

/** `YYYY-MM-DD` (an IST calendar date) to its day index. */
export function dateToIstDay(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`Invalid date '${date}'`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / (DAY_SEC * 1000);
}

/** Day index to `YYYY-MM-DD`. */
export function istDayToDate(day: number): string {
  return new Date(day * DAY_SEC * 1000).toISOString().slice(0, 10);
}

const INTRADAY_SECONDS: Readonly<Record<string, number>> = {
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
};

/** Length in seconds of an intraday interval; null for D, W and M (calendar intervals). */
export function intradaySeconds(interval: BarInterval): number | null {
  return INTRADAY_SECONDS[interval] ?? null;
}

/**
 * Start of the intraday bucket of `k` seconds containing `sec`, aligned to IST midnight. Every
 * supported k divides a day, so buckets never straddle IST midnight.
 */
export function alignIst(sec: number, k: number): number {
  return Math.floor((sec + IST_OFFSET_SEC) / k) * k - IST_OFFSET_SEC;
}
