// The watcher's unknown outcomes: each tracked from the first read of the book that starts after its
// answer, settled from the book (reconciler.ts), made durable (the journal) before its
// `orders.reconciled` event, and handed on unsettled to the profile's next watcher.
import { errorMessage, type OrderSnapshot } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import {
  DEFAULT_PATIENCE,
  reconcile,
  type Patience,
  type PendingUnknown,
  type Resolution,
  type Undecided,
  type UnknownIntent,
} from './reconciler.js';

export interface UnknownTracker {
  /** How many are not settled yet. */
  size(): number;
  /** Settles what the book read by poll `pollSeq` shows. */
  settle(orders: readonly OrderSnapshot[], pollSeq: number, now: number): void;
  /** A mutation whose outcome is unknown; only reads from `minSeq` on can show its effect. */
  track(
    journalId: string,
    intent: UnknownIntent,
    known: ReadonlySet<string>,
    message: string | undefined,
    minSeq: number,
  ): void;
  /** Adds those not tracked yet; false when there were none to add. */
  adopt(more: readonly PendingUnknown[], minSeq: number): boolean;
  /** Those not settled yet, for the profile's next watcher. */
  list(): PendingUnknown[];
}

export function createUnknownTracker(d: {
  profileId: string;
  clock: Pick<Clock, 'now'>;
  emit: Emit;
  logger: Logger;
  patience?: Patience | undefined;
  /** Handed over from an earlier watcher: any read of this one starts after their answers. */
  pending?: readonly PendingUnknown[] | undefined;
  resolved?: ((r: Resolution) => boolean) | undefined;
  undecided?: ((u: Undecided) => void) | undefined;
}): UnknownTracker {
  const { profileId, emit, logger } = d;
  let pending: (PendingUnknown & { minSeq: number })[] = (d.pending ?? []).map((p) => ({ ...p, minSeq: 1 }));

  function record(r: Resolution): boolean {
    try {
      return d.resolved?.(r) ?? true;
    } catch (err) {
      logger.error('unknown outcome settled but not journalled', {
        profileId,
        journalId: r.journalId,
        error: errorMessage(err),
      });
      return true;
    }
  }

  return {
    size: () => pending.length,
    settle(orders, pollSeq, now) {
      const eligible = pending.filter((p) => pollSeq >= p.minSeq);
      if (eligible.length === 0) return;
      const { resolved, remaining, undecided } = reconcile(
        eligible,
        orders,
        now,
        d.patience ?? DEFAULT_PATIENCE,
      );
      const left = new Map(remaining.map((p) => [p.journalId, p]));
      pending = pending.flatMap((p) => {
        if (pollSeq < p.minSeq) return [p];
        const r = left.get(p.journalId);
        return r ? [{ ...r, minSeq: p.minSeq }] : [];
      });
      for (const r of resolved) if (record(r)) emit('orders.reconciled', { profileId, time: now, ...r });
      for (const u of undecided) {
        try {
          d.undecided?.(u);
        } catch (err) {
          logger.error('undecided outcome not reported', {
            profileId,
            journalId: u.journalId,
            error: errorMessage(err),
          });
        }
      }
    },
    track(journalId, intent, known, message, minSeq) {
      pending.push({
        journalId,
        intent,
        since: d.clock.now(),
        known,
        polls: 0,
        ...(message !== undefined ? { message } : {}),
        minSeq,
      });
    },
    adopt(more, minSeq) {
      if (more.length === 0) return false;
      const tracked = new Set(pending.map((p) => p.journalId));
      pending.push(...more.filter((p) => !tracked.has(p.journalId)).map((p) => ({ ...p, minSeq })));
      return true;
    },
    list: () => pending.map(({ minSeq: _minSeq, ...p }) => p),
  };
}
