// The chart's data, free of the chart library's drawing: bars → candles and volume, the ticker's
// intervals, how far back each interval reads, the trade book's fills as markers and working orders
// as price lines. lightweight-charts shows times as UTC, so every time given to it is IST wall clock
// written as if it were UTC (epoch seconds + 5:30): its axis and crosshair then read IST on any
// machine, whatever its time zone.
import type { BarRecord, IntervalsResponse, OrderSnapshot, TradeRow } from '@contract';
import type { SeriesMarker, UTCTimestamp } from 'lightweight-charts';
import { orderFilterOf } from './order-status';
import { formatPrice, formatQty, parseIstStamp } from '@shared/format.js';

/** IST is UTC+05:30 all year (no daylight saving): a fixed shift is exact. */
export const IST_OFFSET_S = 19_800;

/** Epoch seconds → the chart's time (IST wall clock as if UTC). */
export const chartTime = (epochSec: number): UTCTimestamp => (epochSec + IST_OFFSET_S) as UTCTimestamp;

export interface Candle {
  time: UTCTimestamp;
  open: number;
  high: number;
  low: number;
  close: number;
}
export interface VolumeBar {
  time: UTCTimestamp;
  value: number;
  color: string;
}
export interface ChartSeries {
  candles: Candle[];
  volumes: VolumeBar[];
}

/** Volume bars take the candle's direction, faint so the candles stay in front. */
export const VOLUME_UP = 'rgba(34, 197, 94, 0.35)';
export const VOLUME_DOWN = 'rgba(240, 82, 82, 0.35)';
export const BUY_COLOUR = '#3b82f6';
export const SELL_COLOUR = '#ef4444';

const finite = (...n: number[]) => n.every((x) => Number.isFinite(x));

const DAY_S = 86_400;

/**
 * A daily (D, W, M) bar's chart time: midnight of its IST date. Gateways stamp a daily bar at 00:00
 * UTC of its date (the live server) or at IST midnight (18:30 UTC the day before); either falls on
 * that IST date, so the bar lands on the same day, and a fill that day sits on it.
 */
export const dailyChartTime = (epochSec: number): UTCTimestamp =>
  (Math.floor((epochSec + IST_OFFSET_S) / DAY_S) * DAY_S) as UTCTimestamp;

/**
 * Bars as the chart wants them: ascending by time, one per time (the last one given wins), bars
 * with a missing or non-finite figure left out (the library throws on them). Intraday bars sit at
 * their IST time, daily ones (an `interval` of D, W or M) on their IST date.
 */
export function barsToSeries(bars: readonly BarRecord[], interval?: string): ChartSeries {
  const timeOf =
    interval !== undefined && intervalSeconds(interval) === undefined ? dailyChartTime : chartTime;
  const byTime = new Map<number, BarRecord>();
  for (const b of bars) {
    if (!finite(b.timestamp, b.open, b.high, b.low, b.close)) continue;
    byTime.set(timeOf(b.timestamp), b);
  }
  const sorted = [...byTime.entries()].sort((a, b) => a[0] - b[0]);
  return {
    candles: sorted.map(([time, b]) => ({
      time: time as UTCTimestamp,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
    })),
    volumes: sorted.map(([time, b]) => ({
      time: time as UTCTimestamp,
      value: Number.isFinite(b.volume) ? b.volume : 0,
      color: b.close >= b.open ? VOLUME_UP : VOLUME_DOWN,
    })),
  };
}

/** The gateway's intervals in reading order: seconds, minutes, hours, days, weeks, months. */
export function intervalList(data: IntervalsResponse['data']): string[] {
  return [...data.seconds, ...data.minutes, ...data.hours, ...data.days, ...data.weeks, ...data.months];
}

/** The interval a chart opens on: 1 minute where offered, else the first minute one, else the first. */
export function defaultInterval(list: readonly string[]): string | undefined {
  return list.includes('1m') ? '1m' : (list.find((i) => i.endsWith('m')) ?? list[0]);
}

/** Seconds in an intraday interval (`5s`, `15m`, `1h`); undefined for D, W, M and unknown ones. */
export function intervalSeconds(interval: string): number | undefined {
  const m = /^(\d+)([smh])$/.exec(interval);
  if (!m) return undefined;
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
}

const DAY_MS = 86_400_000;

/**
 * How far back a chart reads, so one load stays a few thousand bars at most (the ticker would
 * otherwise send a month of 1-minute bars): the `from` bound, as epoch milliseconds text.
 */
export function lookbackFrom(interval: string, nowMs: number): string | undefined {
  const sec = intervalSeconds(interval);
  let days: number;
  if (sec !== undefined) {
    if (sec < 60)
      days = 2 / 24; // seconds bars: the last two hours
    else if (sec < 300)
      days = 1; // 1-4 minutes: one day
    else if (sec < 3600) days = 7;
    else days = 90;
  } else if (interval === 'D') days = 730;
  else if (interval === 'W') days = 3650;
  else return undefined; // months: everything there is
  return String(Math.floor(nowMs - days * DAY_MS));
}

/** The last bar at or before `t` (bar times ascending); undefined before the first bar. */
export function barAt(times: readonly number[], t: number): number | undefined {
  let lo = 0;
  let hi = times.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = times[mid]!;
    if (v <= t) {
      found = v;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * A trade book stamp as the chart's time. Plain stamps are IST wall clock already; a time-only
 * stamp (some brokers' trade books) is today's, `today` being the IST date now.
 */
export function stampToChartTime(
  stamp: string,
  today: { year: number; month: number; day: number },
): number | undefined {
  const p = parseIstStamp(stamp);
  if (!p?.time) return undefined;
  const d = p.date ?? today;
  return Date.UTC(d.year, d.month - 1, d.day, p.time.hour, p.time.minute, p.time.second) / 1000;
}

/** Today's date in IST. */
export function istToday(nowMs: number): { year: number; month: number; day: number } {
  const d = new Date(nowMs + IST_OFFSET_S * 1000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export interface InstrumentKey {
  symbol: string;
  exchange: string;
}

const same = (a: InstrumentKey, b: InstrumentKey) => a.symbol === b.symbol && a.exchange === b.exchange;
const isBuy = (action: string) => action.trim().toUpperCase() === 'BUY';

/**
 * The instrument's fills as markers on the bars they fell in: a buy an up arrow under its price,
 * a sell a down arrow over it, each saying side, quantity and price. Fills before the first bar
 * shown have no bar to sit on and are left out (the count of shown ones is the caller's to say).
 */
export function tradeMarkers(
  trades: readonly TradeRow[],
  inst: InstrumentKey,
  barTimes: readonly number[],
  today: { year: number; month: number; day: number },
  tickSize?: number,
): SeriesMarker<UTCTimestamp>[] {
  const out: SeriesMarker<UTCTimestamp>[] = [];
  for (const t of trades) {
    if (!same(t, inst)) continue;
    const at = stampToChartTime(t.timestamp, today);
    const bar = at === undefined ? undefined : barAt(barTimes, at);
    if (bar === undefined) continue;
    const buy = isBuy(t.action);
    out.push({
      time: bar as UTCTimestamp,
      position: buy ? 'atPriceBottom' : 'atPriceTop',
      price: t.averagePrice,
      shape: buy ? 'arrowUp' : 'arrowDown',
      color: buy ? BUY_COLOUR : SELL_COLOUR,
      id: t.tradeid ?? t.orderid,
      text: `${buy ? 'B' : 'S'} ${formatQty(t.quantity)} @ ${formatPrice(t.averagePrice, tickSize)}`,
    });
  }
  return out.sort((a, b) => a.time - b.time);
}

export interface PriceLineSpec {
  /** Stable per order and line (a stop order has its trigger and, for SL, its limit). */
  key: string;
  price: number;
  color: string;
  title: string;
  dashed: boolean;
}

/** Working orders (open, trigger pending) of the instrument as price lines: the limit and the trigger. */
export function orderLines(orders: readonly OrderSnapshot[], inst: InstrumentKey): PriceLineSpec[] {
  const out: PriceLineSpec[] = [];
  for (const o of orders) {
    const filter = orderFilterOf(o.status);
    if (!same(o, inst) || (filter !== 'open' && filter !== 'trigger')) continue;
    const buy = isBuy(o.action);
    const color = buy ? BUY_COLOUR : SELL_COLOUR;
    const left = Math.max(0, o.quantity - o.filledQuantity);
    const what = `${buy ? 'BUY' : 'SELL'} ${formatQty(left)}`;
    const type = o.pricetype.trim().toUpperCase();
    if (type !== 'SL-M' && o.price > 0)
      out.push({
        key: `${o.orderid}:price`,
        price: o.price,
        color,
        title: `${what} ${type === 'SL' ? 'SL limit' : 'LMT'}`,
        dashed: false,
      });
    if ((type === 'SL' || type === 'SL-M') && o.triggerPrice > 0)
      out.push({
        key: `${o.orderid}:trigger`,
        price: o.triggerPrice,
        color,
        title: `${what} trigger`,
        dashed: true,
      });
  }
  return out;
}

/** A price range widened to take in `prices` (working orders stay in view); null stays null. */
export function includePrices(
  range: { minValue: number; maxValue: number } | null,
  prices: readonly number[],
): { minValue: number; maxValue: number } | null {
  if (!range) return range;
  let { minValue, maxValue } = range;
  for (const p of prices)
    if (Number.isFinite(p) && p > 0) {
      minValue = Math.min(minValue, p);
      maxValue = Math.max(maxValue, p);
    }
  return { minValue, maxValue };
}

/** The intervals offered as one-click buttons (the rest are in the list beside them), where the gateway has them. */
export const QUICK_INTERVALS = ['1m', '5m', '15m', '1h', 'D'] as const;

/**
 * The live last bar: a tick inside the last bar's period moves its high, low and close; a tick in a
 * later period opens a new bar; an older tick changes nothing. Intraday intervals only (a daily bar's
 * period is the exchange's session, not a fixed span).
 */
export function applyTick(
  last: Candle | undefined,
  ltp: number,
  timeMs: number,
  intervalSec: number | undefined,
): Candle | undefined {
  if (!last || intervalSec === undefined || !Number.isFinite(ltp) || ltp <= 0) return undefined;
  const t = chartTime(Math.floor(timeMs / 1000));
  if (t < last.time) return undefined;
  // Periods keep the bars' own phase (an exchange's hourly bars start at 09:15, not on the hour).
  const periods = Math.floor((t - last.time) / intervalSec);
  if (periods === 0)
    return { ...last, high: Math.max(last.high, ltp), low: Math.min(last.low, ltp), close: ltp };
  const time = (last.time + periods * intervalSec) as UTCTimestamp;
  return { time, open: ltp, high: ltp, low: ltp, close: ltp };
}

/** A chart time as `23-Nov-2026 14:32 IST` (seconds for second bars; the date alone for daily ones). */
export function formatChartTime(time: number, interval: string): string {
  const d = new Date(time * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const date = `${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
  const sec = intervalSeconds(interval);
  if (sec === undefined) return date;
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${sec < 60 ? `:${pad(d.getUTCSeconds())}` : ''}`;
  return `${date} ${clock} IST`;
}
