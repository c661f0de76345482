// The account guard as the desk shows it (issue 26): the status bar's line (the day's MTM against the
// limit nearest to being reached, coloured by how near: calm under 50 %, amber from 50 %, red from
// 80 %, the levels the guard warns at), and a lock's end in words ("next trading day" when it ends at
// the next session's open, else its IST time). Pure: the view is the core's (`guard.state`).
import type { GuardLock, GuardRule, GuardUsage, GuardView } from '@contract';
import { formatIstDateTime, formatIstTime, formatMoney, formatQty } from '@shared/format.js';

export type GuardLevel = 'calm' | 'amber' | 'red';

/** How near a limit is, as the status bar colours it: the guard warns at 50 % and 80 %. */
export function guardLevel(percent: number): GuardLevel {
  if (percent >= 80) return 'red';
  if (percent >= 50) return 'amber';
  return 'calm';
}

/** Each rule's short name, for the status bar ("loss lock 50 %"). */
export const RULE_SHORT: Readonly<Record<GuardRule, string>> = {
  dailyLoss: 'loss lock',
  dailyProfit: 'profit lock',
  maxDrawdown: 'drawdown',
  maxOrders: 'orders',
  maxOpenPositions: 'open positions',
  maxLossPerPosition: 'position loss',
};

/** Each rule's name in a sentence ("the daily loss lock"). */
export const RULE_NAME: Readonly<Record<GuardRule, string>> = {
  dailyLoss: 'daily loss lock',
  dailyProfit: 'daily profit lock',
  maxDrawdown: 'max drawdown',
  maxOrders: 'max orders per day',
  maxOpenPositions: 'max open positions',
  maxLossPerPosition: 'max loss per position',
};

/** Signed rupees with a true minus sign: `−₹2,510.00`, `+₹120.50`, `₹0.00`. */
export function signedRupees(text: string): string {
  return formatMoney(text, { signed: true }).replace(/^-/, '−');
}

/** What a usage has used of its limit, in its own unit: `₹2,510.00 of ₹5,000.00`, `1 of 1`. */
export function usedOfLimit(u: Pick<GuardUsage, 'rule' | 'used' | 'limit'>): string {
  const money = u.rule !== 'maxOrders' && u.rule !== 'maxOpenPositions';
  const f = (t: string) => (money ? formatMoney(t) : formatQty(t));
  return `${f(u.used)} of ${f(u.limit)}`;
}

export interface GuardLine {
  /** "Day MTM −₹2,510.00 · loss lock 50 %" */
  text: string;
  level: GuardLevel;
  /** The nearest limit's own words, for the tooltip. */
  title: string;
}

/**
 * The status bar's line, or undefined while the guard is off and nothing is locked. A lock is red
 * whatever the percentages say; the MTM reads "—" until the books have been read.
 */
export function guardLine(view: GuardView | undefined): GuardLine | undefined {
  if (!view || (!view.rules.enabled && !view.lock)) return undefined;
  const mtm = view.mtm === null ? 'Day MTM —' : `Day MTM ${signedRupees(view.mtm)}`;
  if (view.lock) {
    return { text: `${mtm} · LOCKED`, level: 'red', title: view.lock.reason };
  }
  const n = view.nearest;
  if (!n)
    return {
      text: `${mtm} · no limit set`,
      level: 'calm',
      title: 'The account guard is on with no limit set',
    };
  return {
    text: `${mtm} · ${RULE_SHORT[n.rule]} ${n.percent} %`,
    level: guardLevel(n.percent),
    title: `Nearest limit: ${n.words}`,
  };
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const OPEN_MS = (9 * 60 + 15) * 60_000;

/** 09:15 IST of the first weekday after `ms`'s IST day: where a lock "until the next trading day" ends. */
export function nextSessionOpen(ms: number): number {
  let midnight = Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS;
  do midnight += DAY_MS;
  while ([0, 6].includes(new Date(midnight).getUTCDay()));
  return midnight + OPEN_MS - IST_OFFSET_MS;
}

const istDay = (ms: number): number => Math.floor((ms + IST_OFFSET_MS) / DAY_MS);

/**
 * When a lock ends, in words: "next trading day (24-Nov-2026 09:15:00 IST)" for a lock that lasts
 * until the next session's open, its IST time for one that ends the same day (a cooling-off), its
 * date and time otherwise. The text itself when the time cannot be read.
 */
export function lockEndText(lock: Pick<GuardLock, 'since' | 'until'>): string {
  const since = Date.parse(lock.since);
  const until = Date.parse(lock.until);
  if (!Number.isFinite(until)) return lock.until;
  if (Number.isFinite(since) && until === nextSessionOpen(since))
    return `next trading day (${formatIstDateTime(until)})`;
  if (Number.isFinite(since) && istDay(since) === istDay(until)) return formatIstTime(until);
  return formatIstDateTime(until);
}

/** The banner's first line: "LOCKED: <reason> · until <end>" (the word itself is drawn apart). */
export function lockText(lock: GuardLock): string {
  return `${lock.reason} · until ${lockEndText(lock)}`;
}

/** What the lock lets through, in words. */
export function lockEffect(lock: Pick<GuardLock, 'action'>): string {
  return lock.action === 'flatten'
    ? 'New entries are refused; working orders are cancelled and positions closed'
    : 'New entries are refused; orders that reduce a position still go out';
}
