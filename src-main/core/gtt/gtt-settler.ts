// Settles the unknown outcomes of GTT actions from the GTT order book, never by sending again
// (architecture rule 4). One settler per profile session: it reads `gttorderbook` (status `all`, in
// the background lane) every second while something is pending, writes each resolution to the
// journal before it emits `orders.reconciled`, and at a session's start takes back the profile's
// GTT actions of today that the journal still holds unresolved (a restart), from their checks. An
// interrupted place two GTTs could be is handed to `undecided` (the trader is told) and dropped.
import { errorMessage } from '../../contract/index.js';
import type { Clock, GatewayClient } from '../../gateway/index.js';
import type { Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import { istDayStart } from '../watcher/durable-unknowns.js';
import type { Patience } from '../watcher/reconciler.js';
import { claimedGttIds, GTT_OPERATIONS } from './gtt-interrupted.js';
import {
  GttCheck,
  reconcileGtt,
  type GttResolution,
  type GttUndecided,
  type PendingGtt,
} from './gtt-reconcile.js';

/** How often the GTT book is read while an outcome is pending. */
export const GTT_SETTLE_EVERY_MS = 1000;

export { GTT_OPERATIONS };

export interface GttSettlerDeps {
  profileId: string;
  client: Pick<GatewayClient, 'gttorderbook'>;
  journal: Pick<Journal, 'recordCheck' | 'recordResolution' | 'unresolved' | 'pages'>;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  patience: Patience;
  /** An interrupted place more than one GTT could be: the trader is asked to look. */
  undecided?: (u: GttUndecided) => void;
}

export interface GttSettler {
  readonly profileId: string;
  /** Journals the check and settles it from the book (reads that start from now on). */
  track(journalId: string, check: GttCheck): void;
  /** Takes back today's unresolved GTT actions of the profile from the journal; returns how many. */
  restore(): number;
  pending(): readonly PendingGtt[];
  /** Reads the book now (after any read in flight) and settles what it can. */
  settleNow(): Promise<void>;
  stop(): void;
}

export function createGttSettler(d: GttSettlerDeps): GttSettler {
  const { profileId, clock, logger } = d;
  let pending: (PendingGtt & { minSeq: number })[] = [];
  let seq = 0;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let cancelTimer: (() => void) | undefined;

  function schedule(): void {
    if (stopped || cancelTimer || pending.length === 0) return;
    cancelTimer = clock.setTimer(() => {
      cancelTimer = undefined;
      void settleNow().finally(schedule);
    }, GTT_SETTLE_EVERY_MS);
  }

  function report(r: GttResolution): void {
    let fresh = true;
    try {
      fresh = d.journal.recordResolution(r.journalId, {
        found: r.found,
        message: r.message,
        ...(r.triggerId ? { orderid: r.triggerId } : {}),
      });
    } catch (err) {
      logger.error('GTT outcome settled but not journalled', {
        profileId,
        journalId: r.journalId,
        error: errorMessage(err),
      });
    }
    if (fresh) d.emit('orders.reconciled', { profileId, time: clock.now(), ...r });
  }

  async function readOnce(): Promise<void> {
    const readSeq = ++seq;
    const eligible = pending.filter((p) => readSeq >= p.minSeq);
    if (eligible.length === 0 || stopped) return;
    const book = await d.client.gttorderbook({ status: 'all' });
    if (stopped || !book.ok) return;
    const now = clock.now();
    const day = Math.max(0, istDayStart(now));
    const claimed = (journalId: string) => claimedGttIds(d.journal, profileId, day, journalId);
    const { resolved, remaining, undecided } = reconcileGtt(
      eligible,
      book.value.data,
      now,
      d.patience,
      claimed,
    );
    const left = new Map(remaining.map((p) => [p.journalId, p]));
    pending = pending.flatMap((p) => {
      if (readSeq < p.minSeq) return [p];
      const r = left.get(p.journalId);
      return r ? [{ ...r, minSeq: p.minSeq }] : [];
    });
    for (const r of resolved) report(r);
    for (const u of undecided) {
      logger.warn('an interrupted GTT action could not be settled from the GTT order book', {
        profileId,
        journalId: u.journalId,
      });
      d.undecided?.(u);
    }
  }

  function settleNow(): Promise<void> {
    const run = () =>
      readOnce().catch((err: unknown) =>
        logger.error('GTT order book read failed', { profileId, error: errorMessage(err) }),
      );
    chain = chain.then(run, run);
    return chain;
  }

  return {
    profileId,
    track(journalId, check) {
      try {
        // Journalled first, so a core restarted before the book tells can still settle it.
        d.journal.recordCheck(journalId, check);
      } catch (err) {
        logger.error('GTT unknown outcome check not journalled', { journalId, reason: errorMessage(err) });
      }
      pending.push({ journalId, check, since: clock.now(), polls: 0, minSeq: seq + 1 });
      schedule();
    },
    restore() {
      const tracked = new Set(pending.map((p) => p.journalId));
      let n = 0;
      for (const u of d.journal.unresolved(profileId, istDayStart(clock.now()))) {
        if (!GTT_OPERATIONS.has(u.entry.operation) || tracked.has(u.entry.id)) continue;
        const check = GttCheck.safeParse(u.check);
        if (!check.success) {
          logger.warn('a GTT action has an unknown outcome with nothing to look for: check the GTT book', {
            profileId,
            journalId: u.entry.id,
          });
          continue;
        }
        const since = Math.min(u.entry.finishedAt ?? u.entry.time, clock.now());
        pending.push({ journalId: u.entry.id, check: check.data, since, polls: 0, minSeq: seq + 1 });
        n += 1;
      }
      schedule();
      return n;
    },
    pending: () => pending.map(({ minSeq: _m, ...p }) => p),
    settleNow,
    stop() {
      stopped = true;
      cancelTimer?.();
      cancelTimer = undefined;
    },
  };
}
