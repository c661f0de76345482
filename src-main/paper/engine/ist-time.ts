// IST wall-clock formatting for the books. IST is UTC+05:30 without DST, so a fixed offset is exact.
const IST_OFFSET_MS = 19_800_000;
const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** IST calendar-day index (days since 1970-01-01 IST) of an epoch millisecond. */
export function istDayOf(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
}

/** Epoch millisecond of IST midnight starting day `day`. */
export function istDayStartMs(day: number): number {
  return day * DAY_MS - IST_OFFSET_MS;
}

let lastSec = Number.NaN;
let lastText = '';

/** `DD-Mon-YYYY HH:MM:SS` in IST, e.g. `22-Nov-2026 10:15:03` (spec §2.2, §2.4). */
export function formatIstTimestamp(ms: number): string {
  // Books list thousands of rows placed within a few seconds: remember the last second formatted.
  const sec = Math.floor(ms / 1000);
  if (sec === lastSec) return lastText;
  const d = new Date(ms + IST_OFFSET_MS);
  lastText =
    `${pad2(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  lastSec = sec;
  return lastText;
}

/** IST date and time digits used in ids: { ymd: 'YYMMDD', ymd8: 'YYYYMMDD', hms: 'HHMMSS' }. */
export function istIdParts(ms: number): { ymd: string; ymd8: string; hms: string } {
  const d = new Date(ms + IST_OFFSET_MS);
  const y = String(d.getUTCFullYear());
  const md = pad2(d.getUTCMonth() + 1) + pad2(d.getUTCDate());
  return {
    ymd: y.slice(2) + md,
    ymd8: y + md,
    hms: pad2(d.getUTCHours()) + pad2(d.getUTCMinutes()) + pad2(d.getUTCSeconds()),
  };
}
