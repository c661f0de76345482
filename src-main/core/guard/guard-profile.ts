// One profile's guard state: the books it last heard, the day's counters, the lock and the flatten
// run; made from its saved file (or afresh), turned back into that file, and rolled into a new IST
// day. A saved file that cannot be read locks the profile to be safe when its guard is on: the lock
// it held cannot be known, and a restart must never end one (docs/guard.md).
import {
  GUARD_RULES,
  type GuardFlatten,
  type GuardLock,
  type GuardRule,
  type GuardRules,
  type OrderSnapshot,
  type PositionView,
  type StoredGuard,
} from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import { toPaise } from '../risk/daily-limits.js';
import { istDay, lockEnd, nextIstMidnight } from './guard-day.js';
import { paiseText, type WarnLevel } from './guard-rules.js';
import type { GuardLoad } from './guard-store.js';

export interface FlattenProgress {
  state: 'running' | 'flat' | 'stopped';
  rounds: number;
  text: string;
}
/** A flatten under way (core/close-all/flatten-account.ts). */
export interface FlattenRun {
  done: Promise<{ state: 'flat' | 'stopped'; rounds: number; text: string }>;
  stop(): void;
}

export interface GuardProfile {
  id: string;
  day: string;
  /** When `day` ends (ms): the day is not worked out again before. */
  dayEnds?: number;
  /** Paise; 0 at the day's start. */
  peak: bigint;
  warned: Record<string, WarnLevel>;
  acted: Set<GuardRule>;
  lock: GuardLock | null;
  positions: PositionView[] | null;
  realised: string | null;
  orders: OrderSnapshot[] | null;
  /** Last feed prices of open positions, by `exchange:symbol`. */
  live: Map<string, number>;
  flatten: GuardFlatten;
  /** The flatten under way (its run once started). */
  running?: { run?: FlattenRun };
  /** The trader stopped this lock's flatten (or unlocked): it is not started again. */
  flattenStopped: boolean;
  /** When the last run ended (ms): a new one waits for books read after it. */
  runEndedAt?: number;
  positionsAt?: number;
}

export const IDLE_FLATTEN: GuardFlatten = { state: 'idle', rounds: 0, text: '' };

function fresh(id: string, now: number): GuardProfile {
  return {
    id,
    day: istDay(now),
    peak: 0n,
    warned: {},
    acted: new Set(),
    lock: null,
    positions: null,
    realised: null,
    orders: null,
    live: new Map(),
    flatten: IDLE_FLATTEN,
    flattenStopped: false,
  };
}

/** The profile's state from its saved file; `damaged` says what to report. */
export function profileFrom(
  id: string,
  load: GuardLoad,
  rules: GuardRules | undefined,
  now: number,
): { profile: GuardProfile; damaged?: string } {
  const p = fresh(id, now);
  if (load.kind === 'read') {
    const s = load.value;
    p.lock = s.lock;
    // Another day's counters are not this day's; its lock stands until its own end.
    if (s.day === p.day) {
      p.peak = toPaise(s.peak);
      p.warned = { ...s.warned };
      p.acted = new Set(s.acted ?? []);
    }
    return { profile: p };
  }
  if (load.kind === 'none') return { profile: p };
  const damaged = `The account guard's saved state could not be read (${load.reason}); it was kept as ${load.keptAs}`;
  if (rules?.enabled) {
    const rule = GUARD_RULES.find((r) => Number(rules[r]) > 0) ?? 'dailyLoss';
    p.lock = {
      rule,
      reason: `${damaged}: locked to be safe, as a lock it held cannot be known`,
      action: 'block',
      since: formatIstIso(now),
      until: formatIstIso(lockEnd(now, 0)),
    };
  }
  return { profile: p, damaged };
}

export function storedOf(p: GuardProfile): StoredGuard {
  return {
    version: 1,
    day: p.day,
    peak: paiseText(p.peak),
    warned: p.warned,
    acted: [...p.acted],
    lock: p.lock,
  };
}

/** A new IST day: counters start again (a lock stands until its own end). True when it rolled. */
export function rollDay(p: GuardProfile, now: number): boolean {
  if (p.dayEnds !== undefined && now < p.dayEnds) return false;
  p.dayEnds = nextIstMidnight(now);
  const today = istDay(now);
  if (p.day === today) return false;
  p.day = today;
  p.peak = 0n;
  p.warned = {};
  p.acted = new Set();
  return true;
}
