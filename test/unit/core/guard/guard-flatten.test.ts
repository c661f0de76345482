// A flatten lock's re-squaring (guard-flatten.ts): after a run ends, a position read in that very
// millisecond or later starts another run once the wait is over; a read from before the run's end
// starts nothing; a run the trader stopped is never started again for the lock.
import { expect, it } from 'vitest';
import { keepFlat, type FlattenKeeping } from '../../../../src-main/core/guard/guard-flatten.js';
import {
  IDLE_FLATTEN,
  type FlattenProgress,
  type GuardProfile,
} from '../../../../src-main/core/guard/guard-profile.js';
import type { Session } from '../../../../src-main/core/router/session.js';

function profile(over: Partial<GuardProfile>): GuardProfile {
  return {
    id: 'paper',
    day: '2026-11-29',
    peak: 0n,
    warned: {},
    acted: new Set(),
    lock: {
      rule: 'dailyLoss',
      reason: 'loss 300.00 reached',
      action: 'flatten',
      since: '2026-11-29T10:00:00+05:30',
      until: '2026-11-29T23:59:59+05:30',
    },
    positions: null,
    realised: null,
    orders: null,
    live: new Map(),
    flatten: IDLE_FLATTEN,
    flattenStopped: false,
    ...over,
  };
}

function keeping(now: number) {
  const started: Session[] = [];
  const later: number[] = [];
  const session = { profile: { id: 'paper' } } as Session;
  const d: FlattenKeeping = {
    session: () => session,
    startFlatten(s: Session, _progress: (p: FlattenProgress) => void) {
      started.push(s);
      return { done: new Promise(() => undefined), stop: () => undefined };
    },
    clock: { now: () => now },
    reflattenMs: 2000,
    show: () => undefined,
    later: (_p, ms) => later.push(ms),
  };
  return { d, started, later };
}

it('a read in the millisecond the run ended waits out the pause, then starts a run', () => {
  const p = profile({ runEndedAt: 6000, positionsAt: 6000 });
  const early = keeping(6000);
  keepFlat(p, 1, early.d);
  expect(early.started).toHaveLength(0);
  expect(early.later).toEqual([2000]);
  const due = keeping(8000);
  keepFlat(p, 1, due.d);
  expect(due.started).toHaveLength(1);
  expect(p.flatten.state).toBe('running');
});

it('a read from before the run ended, or a flat book, starts nothing', () => {
  const stale = keeping(9000);
  keepFlat(profile({ runEndedAt: 6000, positionsAt: 5999 }), 1, stale.d);
  keepFlat(profile({ runEndedAt: 6000, positionsAt: 7000 }), 0, stale.d);
  expect(stale.started).toHaveLength(0);
  expect(stale.later).toEqual([]);
});

it('a run the trader stopped is not started again for the lock', () => {
  const k = keeping(9000);
  keepFlat(profile({ runEndedAt: 6000, positionsAt: 7000, flattenStopped: true }), 1, k.d);
  expect(k.started).toHaveLength(0);
});
