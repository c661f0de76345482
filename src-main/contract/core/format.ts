// en-IN money/quantity formatting and IST time formatting, shared by main (risk messages, journal
// export) and the renderer. Pure: no I/O, no Intl time-zone data needed (IST is a fixed +05:30).
import { decimalsOf } from './decimal.js';

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(minDigits: number, maxDigits: number): Intl.NumberFormat {
  const key = `${minDigits}:${maxDigits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', {
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
    });
    formatters.set(key, f);
  }
  return f;
}

/** Display decimals for a tick size: at least 2 (paise), more for finer ticks (0.0025 → 4). */
export function moneyDecimals(tickSize?: number): number {
  return tickSize !== undefined && tickSize > 0 ? Math.max(2, decimalsOf(tickSize)) : 2;
}

/**
 * Rupees in en-IN grouping: `₹12,34,567.50`, `-₹1,200.00`. Rounds for display only, to the tick
 * size's decimals (default 2); the value itself is never rounded anywhere else.
 */
export function formatMoney(value: number, tickSize?: number): string {
  if (!Number.isFinite(value)) return '₹—';
  const places = moneyDecimals(tickSize);
  const text = numberFormat(places, places).format(Math.abs(value));
  // A value that rounds to zero is shown without a sign.
  const negative = value < 0 && /[1-9]/.test(text);
  return `${negative ? '-' : ''}₹${text}`;
}

/** A quantity in en-IN grouping: `1,25,000`; fractional quantities keep up to 4 decimals. */
export function formatQty(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(0, 4).format(value);
}

/** A percentage with two decimals: `5.10%`. */
export function formatPercent(value: number): string {
  return `${numberFormat(2, 2).format(value)}%`;
}

function istParts(epochMs: number) {
  const d = new Date(epochMs + IST_OFFSET_MS);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return {
    year: String(d.getUTCFullYear()),
    month: pad(d.getUTCMonth() + 1),
    monthName: MONTHS[d.getUTCMonth()] ?? '',
    day: pad(d.getUTCDate()),
    hh: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
    ms: pad(d.getUTCMilliseconds(), 3),
  };
}

/** Wall-clock time in IST, 24-hour: `09:15:02`. */
export function formatIstTime(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.hh}:${p.mm}:${p.ss}`;
}

/** Date and time in IST: `14-May-2024 09:15:02`. */
export function formatIstDateTime(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.day}-${p.monthName}-${p.year} ${p.hh}:${p.mm}:${p.ss}`;
}

/** ISO 8601 with the IST offset, for exports: `2024-05-14T09:15:02.123+05:30`. */
export function formatIstIso(epochMs: number): string {
  const p = istParts(epochMs);
  return `${p.year}-${p.month}-${p.day}T${p.hh}:${p.mm}:${p.ss}.${p.ms}+05:30`;
}
