// Bars as the ticker and history answers carry them: a JSON row, and the ticker's `format=txt` body
// (spec §4.19, gateway-behaviour §9.6): one bar per line, no header, no trailing newline; `D` bars
// omit the time column, every other interval has IST HH:MM:SS.
import type { Bar } from '../market/market.js';
import { DAY_SEC, IST_OFFSET_SEC, istDate, istTime } from './ist.js';

/**
 * 00:00 UTC of the IST date an epoch second falls on: how the live server stamps daily bars
 * (`1788220800` is 2026-09-01), where the simulator starts a day at IST midnight.
 */
export function utcDateStamp(sec: number): number {
  return Math.floor((sec + IST_OFFSET_SEC) / DAY_SEC) * DAY_SEC;
}

/**
 * A bar as a JSON ticker/history row: start time as `timestamp` (D, W and M bars, built from days,
 * at 00:00 UTC of their first date, as the live server stamps them; intraday bars at their start),
 * volume rounded to a whole number.
 */
export function barRow(b: Bar, daily = false) {
  return {
    timestamp: daily ? utcDateStamp(b.time) : b.time,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: Math.round(b.volume),
  };
}

// HH:MM:SS by second of the IST day, filled lazily: intraday bars repeat the same few times daily.
const timeOfDay: (string | undefined)[] = new Array<string | undefined>(DAY_SEC);
function cachedTime(sec: number): string {
  const sod = (((sec + IST_OFFSET_SEC) % DAY_SEC) + DAY_SEC) % DAY_SEC;
  return (timeOfDay[sod] ??= istTime(sec));
}

export function formatTickerTxt(ticker: string, bars: readonly Bar[], daily: boolean): string {
  const lines = new Array<string>(bars.length);
  // Bars come in runs of one IST day: format each day's date once.
  let day = Number.NaN;
  let date = '';
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i] as Bar;
    const d = Math.floor((b.time + IST_OFFSET_SEC) / DAY_SEC);
    if (d !== day) {
      day = d;
      date = istDate(b.time);
    }
    const prices = `${b.open},${b.high},${b.low},${b.close},${Math.round(b.volume)}`;
    lines[i] = daily ? `${ticker},${date},${prices}` : `${ticker},${date},${cachedTime(b.time)},${prices}`;
  }
  return lines.join('\n');
}
