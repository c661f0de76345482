// Resolving a ticker/history request's bounds to epoch seconds. The ticker has the spec's silent
// span clamp (§4.19: D/W/M at most 3650 days before the end, intraday at most 30 days); /history has
// none upstream (gateway-behaviour §9.4), so it serves the whole range or refuses it, saying why.
import { HttpError } from './route-kit.js';
import { DAY_SEC, istMidnight } from './ist.js';
import { intradaySeconds } from '../market/time.js';
import type { BarInterval } from '../market/market.js';

export const DAILY_SPAN_DAYS = 3650;
export const INTRADAY_SPAN_DAYS = 30;
/** A memory guard, not in the spec: no response carries more bars than this (see README). */
export const MAX_BARS = 1_000_000;
/**
 * The longest /history range. Every bar folds the simulated minutes it covers, so ten years of any
 * interval already cost seconds of CPU in the process that also runs the app; beyond that, refuse.
 */
export const HISTORY_SPAN_DAYS = DAILY_SPAN_DAYS;

export function isDailyOrLonger(interval: string): boolean {
  return interval === 'D' || interval === 'W' || interval === 'M';
}

/**
 * A bound as epoch seconds: `YYYY-MM-DD` is the start of that IST day, or its last second when
 * `edge` is 'end' (so `to` includes the whole day); digits are a millisecond timestamp (the
 * contract refuses 10 digits and fewer, which would be seconds).
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

export interface BoundFields {
  from: string;
  to: string;
}

/** Seconds per bar; D/W/M count as days, so bar counts stay conservative. */
function barSeconds(interval: BarInterval): number {
  return intradaySeconds(interval) ?? DAY_SEC;
}

/**
 * Ticker bounds: missing `to` is now; missing `from` is the span limit (as far back as allowed). A
 * `from` beyond the limit is moved to it, silently, as the spec says. The end is capped at now (no
 * future bars), and the start is moved up so the answer stays within MAX_BARS (README).
 */
export function tickerBarRange(
  interval: BarInterval,
  from: string | undefined,
  to: string | undefined,
  nowSec: number,
  fields: BoundFields = { from: 'from', to: 'to' },
): BarRange {
  const end = to === undefined ? nowSec : parseBound(fields.to, to, 'end');
  const spanDays = isDailyOrLonger(interval) ? DAILY_SPAN_DAYS : INTRADAY_SPAN_DAYS;
  const earliest = end - spanDays * DAY_SEC;
  let start = from === undefined ? earliest : parseBound(fields.from, from, 'start');
  if (start > end) throw new HttpError(400, `${fields.from} must not be after ${fields.to}`);
  if (start < earliest) start = earliest;
  const toSec = Math.min(end, nowSec);
  const step = barSeconds(interval);
  if ((toSec - start) / step > MAX_BARS) start = toSec - MAX_BARS * step + 1;
  return { fromSec: start, toSec };
}

const grouped = (n: number) => n.toLocaleString('en-IN');

/**
 * /history bounds: the whole range from `start` to the end of `end`'s day (capped at now: there are
 * no future bars), or a 400 naming the limit it exceeds (HISTORY_SPAN_DAYS, MAX_BARS). Nothing is
 * dropped silently.
 */
export function historyBarRange(
  interval: BarInterval,
  start: string,
  end: string,
  nowSec: number,
  fields: BoundFields = { from: 'start_date', to: 'end_date' },
): BarRange {
  const fromSec = parseBound(fields.from, start, 'start');
  const endSec = parseBound(fields.to, end, 'end');
  if (fromSec > endSec) throw new HttpError(400, `${fields.from} must not be after ${fields.to}`);
  const toSec = Math.min(endSec, nowSec);
  const days = Math.ceil((toSec - fromSec + 1) / DAY_SEC);
  if (days > HISTORY_SPAN_DAYS) {
    throw new HttpError(
      400,
      `${fields.from} to ${fields.to} spans ${grouped(days)} days; history serves at most ${grouped(HISTORY_SPAN_DAYS)} days per request. Ask for a shorter range.`,
    );
  }
  const bars = Math.floor((toSec - fromSec) / barSeconds(interval)) + 1;
  if (bars > MAX_BARS) {
    throw new HttpError(
      400,
      `${fields.from} to ${fields.to} holds up to ${grouped(bars)} ${interval} bars; history answers at most ${grouped(MAX_BARS)} bars per request. Ask for a shorter range or a longer interval.`,
    );
  }
  return { fromSec, toSec };
}
