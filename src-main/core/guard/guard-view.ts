// The guard as the desk sees it (`GuardView`), and its `guard.state` event: sent whole when it changes,
// at once for anything but the MTM, and at most every 250 ms while only the MTM moves (a live feed
// ticks many times a second; the lock and the flatten's steps never wait).
import { GuardRules, type GuardRules as Rules, type GuardView } from '../../contract/index.js';
import type { Clock } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import type { GuardProfile } from './guard-profile.js';
import { nearestOf, paiseText, usageOf, usageView, type GuardFigures } from './guard-rules.js';

export function guardView(p: GuardProfile, rules: Rules | undefined, f: GuardFigures): GuardView {
  const r = rules ?? GuardRules.parse({});
  const usage = r.enabled ? usageOf(r, f).map(usageView) : [];
  return {
    profileId: p.id,
    rules: r,
    day: p.day,
    mtm: f.mtm === null ? null : paiseText(f.mtm),
    peak: f.mtm === null ? null : paiseText(p.peak),
    orders: f.orders,
    openPositions: f.openPositions,
    usage,
    nearest: nearestOf(usage),
    lock: p.lock,
    flatten: p.flatten,
  };
}

/** What was last shown of one profile. */
export interface Shown {
  all?: string;
  rest?: string;
  at?: number;
  timer?: () => void;
}

export const SHOW_EVERY_MS = 250;

/** Emits `view()` when it changed; `urgent` skips the MTM's pacing. */
export function createShow(clock: Pick<Clock, 'now' | 'setTimer'>, emit: Emit) {
  return function show(s: Shown, view: () => GuardView, urgent = false): void {
    const v = view();
    const all = JSON.stringify(v);
    if (all === s.all) return;
    const { mtm: _m, peak: _p, usage: _u, nearest: _n, ...others } = v;
    const rest = JSON.stringify(others);
    const t = clock.now();
    if (urgent || rest !== s.rest || t - (s.at ?? -Infinity) >= SHOW_EVERY_MS) {
      s.timer?.();
      Object.assign(s, { all, rest, at: t, timer: undefined });
      emit('guard.state', v);
      return;
    }
    s.timer ??= clock.setTimer(
      () => {
        s.timer = undefined;
        show(s, view, true);
      },
      SHOW_EVERY_MS - (t - (s.at ?? t)),
    );
  };
}
