// How both processes write numbers and times: rupees and quantities in en-IN grouping
// (12,34,567.50), prices at the instrument's tick, signed P&L and percentages, IST wall-clock times.
// Inputs are numbers or the gateway's decimal text; rounding is exact (decimal.ts) and for display
// only. Unreadable input shows as a dash (or, for timestamps, as the text itself), never as a crash.
import { decimalsNeeded, parseDecimal, roundToStep, toFixedText, type Dec } from './decimal.js';

/** What a missing or unreadable number shows as. */
export const DASH = '—';

// Depth and LTP cells reformat several times a second: one formatter, made once. Grouping is done on
// the integer part as a bigint, so no value is ever rounded through a binary float.
const GROUP_IN = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0, useGrouping: true });

/** `-1234567.5` (already rounded text) → `-12,34,567.5`. */
function group(fixed: string): { negative: boolean; text: string } {
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const dot = body.indexOf('.');
  const whole = dot < 0 ? body : body.slice(0, dot);
  const fraction = dot < 0 ? '' : body.slice(dot);
  const text = GROUP_IN.format(BigInt(whole)) + fraction;
  // A value that rounds to zero carries no sign.
  return { negative: negative && /[1-9]/.test(body), text };
}

export interface SignOptions {
  /** Prefix positive values with `+` (P&L, changes); zero never carries a sign. */
  signed?: boolean;
}

function sign(negative: boolean, zero: boolean, signed: boolean | undefined): string {
  if (negative) return '-';
  return signed && !zero ? '+' : '';
}

export interface MoneyOptions extends SignOptions {
  /** Show the tick's decimals when it needs more than two (0.0025 → 4); rounding stays half-up. */
  tickSize?: number | string;
}

/** Rupees, two decimals, en-IN grouping: `₹12,34,567.50`, `-₹1,234.50`, signed `+₹2,340.00`. */
export function formatMoney(value: number | string, options: MoneyOptions = {}): string {
  const d = parseDecimal(value);
  if (!d) return DASH;
  const g = group(toFixedText(d, tickDecimals(options.tickSize)));
  return `${sign(g.negative, !/[1-9]/.test(g.text), options.signed)}₹${g.text}`;
}

/** Decimals a tick needs shown: at least 2 (paise), more for finer ticks (0.0025 → 4). */
export function tickDecimals(tickSize?: number | string): number {
  const tick = tickSize === undefined ? undefined : parseDecimal(tickSize);
  return tick && tick.int > 0n ? Math.max(2, decimalsNeeded(tick)) : 2;
}

/** `value` on the tick grid (nearest, halves up), or `value` itself for a missing/unusable tick. */
function onTick(value: Dec, tickSize?: number | string): Dec {
  const tick = tickSize === undefined ? undefined : parseDecimal(tickSize);
  return tick && tick.int > 0n ? roundToStep(value, tick) : value;
}

/** formatPrice's answers by value and tick; emptied when full (a few screens of prices). */
const PRICE_TEXT = new Map<string, string>();
const PRICE_TEXT_MAX = 4096;

/** A price at the instrument's tick, en-IN grouped, no currency sign: `24,000.05`, `83.2525`. */
export function formatPrice(value: number | string, tickSize?: number | string): string {
  // Price cells re-render with the same few prices many times a second (an option chain's ~250):
  // the exact decimal work is done once per price and tick.
  const key = `${typeof value}:${value}|${typeof tickSize}:${tickSize}`;
  const known = PRICE_TEXT.get(key);
  if (known !== undefined) return known;
  const d = parseDecimal(value);
  let text = DASH;
  if (d) {
    const g = group(toFixedText(onTick(d, tickSize), tickDecimals(tickSize)));
    text = `${g.negative ? '-' : ''}${g.text}`;
  }
  if (PRICE_TEXT.size >= PRICE_TEXT_MAX) PRICE_TEXT.clear();
  PRICE_TEXT.set(key, text);
  return text;
}

/** A price with every decimal it has (at least the tick's), unrounded: `905.33` on a 0.05 tick. */
export function formatPriceExact(
  value: number | string,
  tickSize?: number | string,
  options: { currency?: boolean } = {},
): string {
  const d = parseDecimal(value);
  if (!d) return DASH;
  const g = group(toFixedText(d, Math.max(tickDecimals(tickSize), decimalsNeeded(d))));
  return `${g.negative ? '-' : ''}${options.currency ? '₹' : ''}${g.text}`;
}

/** A price as an input field holds it: on the tick, tick decimals, no grouping (`905.30`). */
export function priceInputText(value: number | string, tickSize?: number | string): string {
  const d = parseDecimal(value);
  return d ? toFixedText(onTick(d, tickSize), tickDecimals(tickSize)) : '';
}

/** A quantity in en-IN grouping: `1,25,000`; fractional ones (crypto) keep up to 4 decimals. */
export function formatQty(value: number | string, options: SignOptions = {}): string {
  const d = parseDecimal(value);
  if (!d) return DASH;
  const places = Math.min(4, decimalsNeeded(d));
  const fixed = toFixedText(d, places);
  // 1.50000 → 1.5: rounding to 4 places can leave trailing zeros.
  const g = group(places > 0 ? fixed.replace(/\.?0+$/, '') : fixed);
  return `${sign(g.negative, !/[1-9]/.test(g.text), options.signed)}${g.text}`;
}

/** A percentage, two decimals, signed by default: `+0.50%`, `-1.25%`, `0.00%`. */
export function formatPercent(value: number | string, options: SignOptions = {}): string {
  const d = parseDecimal(value);
  if (!d) return DASH;
  const g = group(toFixedText(d, 2));
  return `${sign(g.negative, !/[1-9]/.test(g.text), options.signed ?? true)}${g.text}%`;
}

// ---- time ----
const IST_OFFSET_MS = 19_800_000; // IST is UTC+05:30 all year (no daylight saving): a fixed offset is exact.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_INDEX = new Map(MONTHS.map((m, i) => [m.toUpperCase(), i + 1]));

/**
 * A moment as IST wall-clock parts. Brokers send some stamps as a time only (trade books) or a date
 * only (daily bars): the part not given is absent, never made up as a midnight or a today.
 */
export interface IstStamp {
  date?: { year: number; month: number; day: number };
  time?: { hour: number; minute: number; second: number };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function fromEpochMs(ms: number): IstStamp | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms + IST_OFFSET_MS);
  if (Number.isNaN(d.getTime())) return undefined;
  return {
    date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
    time: { hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
  };
}

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?`;
/** `2025-04-08 13:58:03` (Zerodha, sandbox; IST wall clock, also with a `T`). */
const YMD = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})(?:[ T]${TIME})?$`);
/** `08-Apr-2025 13:58:03` (Angel, the paper gateway). */
const DMY = new RegExp(String.raw`^(\d{1,2})-([A-Za-z]{3})-(\d{4})(?: ${TIME})?$`);
/** `13:58:03` (time only, some brokers' trade books). */
const TIME_ONLY = new RegExp(`^${TIME}$`);
/** An ISO instant with a zone (`…Z`, `…+05:30`): a moment, converted to IST. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

type Date3 = NonNullable<IstStamp['date']>;

/** Checked parts; undefined for 25:00 or 31-Feb, which Date would silently roll over. */
function stamp(date: Date3 | undefined, h?: string, mi?: string, s?: string): IstStamp | undefined {
  const out: IstStamp = {};
  if (date) {
    const probe = new Date(Date.UTC(date.year, date.month - 1, date.day));
    if (probe.getUTCMonth() !== date.month - 1 || probe.getUTCDate() !== date.day) return undefined;
    out.date = date;
  }
  if (h !== undefined) {
    const [hour, minute, second] = [Number(h), Number(mi ?? '0'), Number(s ?? '0')];
    if (hour > 23 || minute > 59 || second > 59) return undefined;
    out.time = { hour, minute, second };
  }
  return out;
}

/** Epoch ms, or a gateway timestamp (broker formats differ; plain ones are IST wall clock). */
export function parseIstStamp(input: number | string): IstStamp | undefined {
  if (typeof input === 'number') return fromEpochMs(input);
  const s = input.trim();
  if (/^\d{12,}$/.test(s)) return fromEpochMs(Number(s));
  if (/^\d{9,11}$/.test(s)) return fromEpochMs(Number(s) * 1000); // epoch seconds
  if (ZONED.test(s)) return fromEpochMs(Date.parse(s));
  let m = YMD.exec(s);
  if (m) return stamp({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }, m[4], m[5], m[6]);
  m = DMY.exec(s);
  if (m) {
    const month = MONTH_INDEX.get((m[2] ?? '').toUpperCase());
    return month === undefined
      ? undefined
      : stamp({ year: Number(m[3]), month, day: Number(m[1]) }, m[4], m[5], m[6]);
  }
  m = TIME_ONLY.exec(s);
  return m ? stamp(undefined, m[1], m[2], m[3]) : undefined;
}

export interface ZoneOptions {
  /** Append ` IST` to the time (the desk's display); false for wire and log formats. */
  zone?: boolean;
}

function clock(t: NonNullable<IstStamp['time']>, options: ZoneOptions): string {
  return `${pad2(t.hour)}:${pad2(t.minute)}:${pad2(t.second)}${options.zone === false ? '' : ' IST'}`;
}

function day(d: Date3): string {
  return `${pad2(d.day)}-${MONTHS[d.month - 1]}-${d.year}`;
}

/** `14:32:08 IST` (`14:32:08` without the zone); a dash for a date-only stamp, the text itself when unreadable. */
export function formatIstTime(input: number | string, options: ZoneOptions = {}): string {
  const p = parseIstStamp(input);
  if (!p) return raw(input);
  return p.time ? clock(p.time, options) : DASH;
}

/** `08-Apr-2025`; a dash for a time-only stamp, the text itself when unreadable. */
export function formatIstDate(input: number | string): string {
  const p = parseIstStamp(input);
  if (!p) return raw(input);
  return p.date ? day(p.date) : DASH;
}

/** `08-Apr-2025 13:58:03 IST` (no ` IST` with `zone: false`), or whichever part the stamp has. */
export function formatIstDateTime(input: number | string, options: ZoneOptions = {}): string {
  const p = parseIstStamp(input);
  if (!p) return raw(input);
  return [p.date && day(p.date), p.time && clock(p.time, options)].filter(Boolean).join(' ');
}

/** ISO 8601 with the IST offset, for exports and day keys: `2024-05-14T09:15:02.123+05:30`. */
export function formatIstIso(epochMs: number): string {
  const d = new Date(epochMs + IST_OFFSET_MS);
  const time = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  const ms = String(d.getUTCMilliseconds()).padStart(3, '0');
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${time}.${ms}+05:30`;
}

function raw(input: number | string): string {
  if (typeof input === 'number') return DASH;
  const s = input.trim();
  return s === '' ? DASH : s;
}
