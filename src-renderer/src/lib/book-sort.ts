// Books are shown newest first (desk-design.md "Tables"), whatever order the gateway sent them in.
import { parseIstStamp } from '@shared/format.js';

/** A sortable number for a gateway timestamp (IST wall clock); unreadable ones sort as oldest. */
export function stampKey(timestamp: string): number {
  const p = parseIstStamp(timestamp);
  if (!p) return -1;
  const d = p.date ?? { year: 0, month: 0, day: 0 };
  const t = p.time ?? { hour: 0, minute: 0, second: 0 };
  return ((((d.year * 13 + d.month) * 32 + d.day) * 24 + t.hour) * 60 + t.minute) * 60 + t.second;
}

/**
 * Rows newest first by timestamp; rows stamped in the same second keep the gateway's order
 * reversed (books list the older first), so the latest placed stays on top.
 */
export function newestFirst<T extends { timestamp: string }>(rows: readonly T[]): T[] {
  const keyed = rows.map((row, i) => ({ row, key: stampKey(row.timestamp), i }));
  keyed.sort((a, b) => b.key - a.key || b.i - a.i);
  return keyed.map((k) => k.row);
}
