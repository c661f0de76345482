// IST (UTC+05:30, no DST) dates and times for request bounds and text output. Integer arithmetic
// only: the ticker formats hundreds of thousands of bars per request.
export const IST_OFFSET_SEC = 19_800;
export const DAY_SEC = 86_400;

/** Epoch second of IST midnight of `YYYY-MM-DD`, or undefined when it is not a calendar date. */
export function istMidnight(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms / 1000 - IST_OFFSET_SEC;
}

/** Year, month, day of a day count since 1970-01-01 (Hinnant's civil_from_days). */
function civil(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD` of the IST calendar day containing an epoch second. */
export function istDate(sec: number): string {
  const [y, m, d] = civil(Math.floor((sec + IST_OFFSET_SEC) / DAY_SEC));
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** `HH:MM:SS` IST of an epoch second. */
export function istTime(sec: number): string {
  const s = (((Math.floor(sec) + IST_OFFSET_SEC) % DAY_SEC) + DAY_SEC) % DAY_SEC;
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}
