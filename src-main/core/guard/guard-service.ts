// The account guard (issue 26, docs/guard.md), per profile: the day's MTM from the books and the live
// feed, its peak, the day's orders and open positions judged against the rules in settings at each
// book and tick. Warnings at 50 % and 80 % go out once per rule and level a day; a breach alerts
// (warn) or locks (block, flatten: then the account is flattened, re-squared until flat or stopped).
// The counters and the lock are saved at each change; the risk gate asks `refusal` before any order.
import type { GuardRules as Rules, GuardView, OrderSnapshot, PositionView } from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import { journalUnlock } from './guard-journal.js';
import type { Alerts } from '../alerts/index.js';
import type { Journal } from '../journal/index.js';
import type { Clock, Logger } from '../ports.js';
import type { DailyLeg } from '../risk/daily-limits.js';
import type { Emit } from '../router/event-bus.js';
import type { Session } from '../router/session.js';
import { quoteKey } from '../watcher/position-diff.js';
import { lockEnd, nextIstMidnight } from './guard-day.js';
import { lockEndWords, lockRefusal } from './guard-gate.js';
import { markToMarket, openSymbols, ordersOfDay } from './guard-mtm.js';
import {
  profileFrom,
  rollDay,
  storedOf,
  type FlattenProgress,
  type FlattenRun,
  type GuardProfile,
} from './guard-profile.js';
import { ruleName, usageOf, warningsDue, type GuardFigures, type RuleUse } from './guard-rules.js';
import { breachNotice, damagedNotice, warningNotice } from './guard-words.js';
import { createShow, guardView, type Shown } from './guard-view.js';
import { keepFlat, stopFlattening, type FlattenKeeping } from './guard-flatten.js';
import type { GuardStore } from './guard-store.js';

export interface GuardDeps {
  rules(profileId: string): Rules | undefined;
  /** The active profile's session, if any: only it is flattened. */
  session(): Session | undefined;
  store: GuardStore;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  alerts: Pick<Alerts, 'notice'>;
  journal: Pick<Journal, 'recordIntent' | 'recordOutcome'>;
  /** Live prices wanted for these instruments (their `market.ltp` events reach onPrice). */
  watchPrices(symbols: readonly { symbol: string; exchange: string }[]): void;
  /** Starts the account's flatten (core/close-all/flatten-account.ts) on the session. */
  startFlatten?(session: Session, progress: (p: FlattenProgress) => void): FlattenRun;
  /** The wait between a flatten that ended and another for positions opened since (default 2 s). */
  reflattenMs?: number;
}

export type GuardAnswer = { ok: true; view: GuardView } | { ok: false; message: string };

export interface GuardService {
  onPositions(profileId: string, positions: PositionView[]): void;
  onFunds(profileId: string, realisedMtm: string): void;
  onOrders(profileId: string, orders: OrderSnapshot[]): void;
  onPrice(profileId: string, symbol: string, exchange: string, ltp: number): void;
  /** Positions read fresh from the gateway (a flatten's reads): the gate judges exits by them. */
  freshPositions(
    profileId: string,
    positions: readonly Pick<PositionView, 'symbol' | 'exchange' | 'product' | 'quantity'>[],
  ): void;
  /** The rules or the active profile changed: judge again and show. */
  refresh(): void;
  view(profileId: string): GuardView;
  /** Why the order cannot go out now (a lock holds and it is not an exit), or undefined. */
  refusal(profileId: string, legs: readonly DailyLeg[]): string | undefined;
  unlock(profileId: string): Promise<GuardAnswer>;
  stopFlatten(profileId: string): GuardAnswer;
  /** The lock in the tray's words, while one holds. */
  lockWords(profileId: string): string | undefined;
  stop(): void;
}

interface Kept extends GuardProfile {
  gate: readonly Pick<PositionView, 'symbol' | 'exchange' | 'product' | 'quantity'>[] | null;
  shown: Shown;
  timer?: { at: number; cancel: () => void };
  /** A look again waiting (guard-flatten.ts). */
  later?: () => void;
}

export function createGuardService(d: GuardDeps): GuardService {
  const kept = new Map<string, Kept>();
  const active = () => d.session()?.profile.id;

  function get(id: string): Kept {
    let p = kept.get(id);
    if (p) return p;
    const now = d.clock.now();
    const { profile, damaged } = profileFrom(id, d.store.load(id), d.rules(id), now);
    p = { ...profile, gate: null, shown: {} };
    kept.set(id, p);
    if (damaged) {
      d.logger.warn(`guard: ${damaged}`, { profileId: id, locked: p.lock !== null });
      d.alerts.notice(damagedNotice(id, now, p.lock ? p.lock.reason : damaged), 'os', true);
      save(p);
    }
    return p;
  }

  function save(p: Kept): void {
    d.store
      .save(p.id, () => storedOf(p))
      .catch((err: unknown) =>
        d.logger.error('guard: its state could not be saved', { profileId: p.id, reason: String(err) }),
      );
  }

  const figuresOf = (p: Kept): GuardFigures => ({
    ...markToMarket(p.positions, p.realised, p.live),
    peak: p.peak,
    orders: ordersOfDay(p.orders, p.day),
  });

  /** Rolls the day, ends a lock whose time is up, judges the rules; saves and shows what changed. */
  function judge(p: Kept): void {
    const now = d.clock.now();
    let dirty = rollDay(p, now);
    if (p.lock && now >= Date.parse(p.lock.until)) {
      d.logger.info('guard: the lock ended', { profileId: p.id, rule: p.lock.rule, until: p.lock.until });
      endLock(p);
      dirty = true;
    }
    const f = figuresOf(p);
    if (f.mtm !== null && f.mtm > p.peak) {
      p.peak = f.mtm;
      dirty = true;
    }
    const rules = d.rules(p.id);
    if (rules?.enabled) {
      const usage = usageOf(rules, { ...f, peak: p.peak });
      for (const u of usage)
        if (u.breached && !p.acted.has(u.rule)) {
          p.acted.add(u.rule);
          dirty = true;
          breach(p, rules, u, now);
        }
      for (const w of warningsDue(usage, p.warned)) {
        p.warned[w.use.rule] = w.level;
        dirty = true;
        const choice = w.level === 50 ? rules.warn50 : rules.warn80;
        d.alerts.notice(warningNotice(p, w.use, w.level, rules), choice);
      }
    }
    keepFlat(p, f.openPositions, flattening);
    if (dirty) save(p);
    schedule(p, now);
    show(p);
  }

  function breach(p: Kept, rules: Rules, u: RuleUse, now: number): void {
    d.logger.warn('guard: a limit was breached', {
      profileId: p.id,
      rule: u.rule,
      action: rules.action,
      reason: u.reason,
    });
    // One lock at a time: a second breach while locked changes nothing (its flatten already runs).
    if (rules.action !== 'warn' && p.lock) return;
    if (rules.action !== 'warn') {
      p.lock = {
        rule: u.rule,
        reason: u.reason,
        action: rules.action,
        since: formatIstIso(now),
        until: formatIstIso(lockEnd(now, rules.coolOffMinutes)),
      };
      p.flattenStopped = false;
      p.runEndedAt = undefined;
    }
    d.alerts.notice(breachNotice(p, u, rules, rules.action === 'warn' ? null : p.lock), 'os', true);
  }

  function endLock(p: Kept): void {
    p.lock = null;
    stopFlattening(p);
  }

  /** Wakes the profile at its lock's end or the IST day change, whichever comes first. */
  function schedule(p: Kept, now: number): void {
    const at = Math.min(nextIstMidnight(now), p.lock ? Date.parse(p.lock.until) : Infinity);
    if (p.timer?.at === at) return;
    p.timer?.cancel();
    p.timer = { at, cancel: d.clock.setTimer(() => judge(p), Math.max(0, at - now)) };
  }

  const emitView = createShow(d.clock, d.emit);
  const flattening: FlattenKeeping = {
    session: d.session,
    ...(d.startFlatten ? { startFlatten: d.startFlatten } : {}),
    clock: d.clock,
    reflattenMs: d.reflattenMs ?? 2000,
    show: (p, urgent) => show(kept.get(p.id)!, urgent),
    later(p, ms) {
      const k = kept.get(p.id)!;
      if (k.later) return;
      k.later = d.clock.setTimer(() => {
        k.later = undefined;
        judge(k);
      }, ms);
    },
  };
  const viewOf = (p: Kept): GuardView => guardView(p, d.rules(p.id), figuresOf(p));
  /** The active profile's view, when it changed. */
  function show(p: Kept, urgent = false): void {
    if (active() === p.id) emitView(p.shown, () => viewOf(p), urgent);
  }

  function watch(p: Kept): void {
    if (active() === p.id) d.watchPrices(openSymbols(p.positions));
  }

  return {
    onPositions(id, positions) {
      const p = get(id);
      p.positions = positions;
      p.gate = positions;
      p.positionsAt = d.clock.now();
      const open = new Set(positions.filter((x) => x.quantity !== 0).map(quoteKey));
      for (const k of p.live.keys()) if (!open.has(k)) p.live.delete(k);
      watch(p);
      judge(p);
    },
    onFunds(id, realised) {
      const p = get(id);
      p.realised = realised;
      judge(p);
    },
    onOrders(id, orders) {
      const p = get(id);
      p.orders = orders;
      judge(p);
    },
    onPrice(id, symbol, exchange, ltp) {
      const p = kept.get(id);
      if (!p?.positions || !(ltp > 0)) return;
      const key = quoteKey({ symbol, exchange });
      if (p.live.get(key) === ltp) return;
      if (!p.positions.some((x) => x.quantity !== 0 && quoteKey(x) === key)) return;
      p.live.set(key, ltp);
      judge(p);
    },
    freshPositions(id, positions) {
      get(id).gate = positions;
    },
    refresh() {
      const id = active();
      if (id !== undefined) watch(get(id));
      for (const p of kept.values()) judge(p);
    },
    view(id) {
      const p = get(id);
      judge(p);
      return viewOf(p);
    },
    refusal(id, legs) {
      const p = get(id);
      if (p.lock && d.clock.now() >= Date.parse(p.lock.until)) judge(p);
      return p.lock ? lockRefusal(p.lock, legs, p.gate) : undefined;
    },
    async unlock(id) {
      const p = get(id);
      judge(p);
      const lock = p.lock;
      if (!lock) return { ok: false, message: 'The account guard holds no lock to end' };
      const entry = journalUnlock(d.journal, id, lock, d.clock.now());
      d.logger.warn('guard: the lock was ended early (UNLOCK)', {
        profileId: id,
        rule: lock.rule,
        journalId: entry,
      });
      endLock(p);
      await d.store.save(p.id, () => storedOf(p));
      judge(p);
      return { ok: true, view: viewOf(p) };
    },
    stopFlatten(id) {
      const p = get(id);
      if (!p.running) return { ok: false, message: 'No flatten is running' };
      stopFlattening(p);
      p.flatten = { ...p.flatten, text: 'Stopping: the trader asked; the lock stays' };
      show(p, true);
      return { ok: true, view: viewOf(p) };
    },
    lockWords(id) {
      const lock = kept.get(id)?.lock;
      return lock ? `locked until ${lockEndWords(lock)} (${ruleName(lock.rule)})` : undefined;
    },
    stop() {
      for (const p of kept.values()) {
        p.timer?.cancel();
        p.later?.();
        p.shown.timer?.();
        p.running?.run?.stop();
      }
    },
  };
}
