// The order a trader expects derivatives of one underlying in: nearest expiry first (by date, not by
// the text, so 30 DEC comes before 27 JAN and 24 FEB), then strike, calls before puts. Used on a
// search answer by the paper gateway and by the desk's list, so both read the same; everything else
// in the answer keeps the relevance order it came in.

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

// DD-MMM-YY (the gateway's expiry field), DDMMMYY (inside a symbol), DD MMM YY, with a 2- or 4-digit
// year; and ISO YYYY-MM-DD.
const DMY_RE = /^(\d{1,2})[- ]?([A-Za-z]{3})[- ]?(\d{2}|\d{4})$/;
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An expiry as a sortable YYYYMMDD number, or null when the text is not an expiry. */
export function expiryKey(expiry: string): number | null {
  const text = expiry.trim();
  const iso = ISO_RE.exec(text);
  if (iso) return Number(iso[1]) * 10_000 + Number(iso[2]) * 100 + Number(iso[3]);
  const m = DMY_RE.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf((m[2] as string).toUpperCase());
  const day = Number(m[1]);
  if (month < 0 || day < 1 || day > 31) return null;
  const y = m[3] as string;
  const year = y.length === 2 ? 2000 + Number(y) : Number(y);
  return year * 10_000 + (month + 1) * 100 + day;
}

/** Expiry texts nearest first; unreadable ones last, in the order they came. */
export function sortExpiries(expiries: readonly string[]): string[] {
  const keyed = expiries.map((e, i) => ({ e, i, k: expiryKey(e) ?? Number.MAX_SAFE_INTEGER }));
  return keyed.sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.e);
}

/** The fields of a search row the ranking reads (a gateway symbol record has them all). */
export interface RankedRow {
  symbol: string;
  exchange: string;
  name: string;
  expiry: string;
  strike: number;
}

export interface RankOptions {
  /**
   * The relevance class of a row (lower first), when the caller knows it; rows of different classes
   * are never mixed. The desk passes 0 for an exact symbol match and 1 for the rest.
   */
  tier?: (row: RankedRow, index: number) => number;
}

type Family = 'FUT' | 'OPT';

function familyOf(row: RankedRow): Family | null {
  const s = row.symbol.toUpperCase();
  if (s.endsWith('FUT')) return 'FUT';
  if (s.endsWith('CE') || s.endsWith('PE')) return 'OPT';
  return null;
}

/**
 * The rows with each underlying's futures (and, separately, its options) gathered where the first of
 * them stood, in expiry, strike, CE-before-PE order. Classes from `tier` come lowest first; within
 * one, rows that are not derivatives keep their places relative to the groups. Stable: equal rows
 * keep their order.
 */
export function rankByExpiry<T extends RankedRow>(rows: readonly T[], opts: RankOptions = {}): T[] {
  interface Member {
    row: T;
    at: number;
    expiry: number;
    put: number;
  }
  const groups = new Map<string, Member[]>();
  const order: { tier: number; members: Member[] }[] = [];
  rows.forEach((row, at) => {
    const family = familyOf(row);
    const expiry = family ? expiryKey(row.expiry) : null;
    const tier = opts.tier?.(row, at) ?? 0;
    // A row that is not a readable derivative is a group of its own.
    const key = family && expiry !== null ? `${tier}|${row.exchange}|${row.name}|${family}` : `#${at}`;
    let group = groups.get(key);
    if (!group) {
      group = [];
      groups.set(key, group);
      order.push({ tier, members: group });
    }
    const put = row.symbol.toUpperCase().endsWith('PE') ? 1 : 0;
    group.push({ row, at, expiry: expiry ?? 0, put });
  });
  const out: T[] = [];
  // Array sort is stable: groups of one class keep their first-appearance order.
  order.sort((a, b) => a.tier - b.tier);
  for (const { members: group } of order) {
    if (group.length > 1)
      group.sort(
        (a, b) => a.expiry - b.expiry || a.row.strike - b.row.strike || a.put - b.put || a.at - b.at,
      );
    for (const m of group) out.push(m.row);
  }
  return out;
}

/** The desk's tier: an exact symbol match (the query as typed, any case) stays ahead of the rest. */
export function exactFirst(query: string): (row: RankedRow) => number {
  const q = query.trim().toUpperCase();
  return (row) => (row.symbol.toUpperCase() === q ? 0 : 1);
}
