// Order actions an earlier run of the core sent but stopped before recording the answer of: read back
// from the journal as unknown outcomes, handed to the active session's watcher (or its GTT settler),
// and announced once each. Also restores today's still-unresolved unknown outcomes at a session's open.
import { UnknownOperation, errorMessage, type OrderSnapshot } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Alerts } from '../alerts/index.js';
import type { GttSettler } from '../gtt/gtt-settler.js';
import type { Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import type { Emit, Session } from '../router/index.js';
import {
  adoptFoundInBook,
  adoptInterrupted,
  claimedOrderIds,
  INTERRUPTED_MIN_AGE_MS,
  istDayStart,
  nextAdoptionAt,
  restoreUnknowns,
  type Interrupted,
  type PendingUnknown,
  type Undecided,
} from '../watcher/index.js';

/** The core's state as adoption sees it. */
export interface CoreRun {
  started: boolean;
  session: Session | undefined;
  gttSettler: GttSettler | undefined;
  /** When this core started (epoch ms): journal entries written before it are an earlier run's. */
  startedAt: number;
}

export interface InterruptedAdoption {
  /**
   * Unknown outcomes of today the journal still holds unresolved (an earlier run of the core), less
   * those this core is tracking already.
   */
  restore(profileId: string, tracked: readonly PendingUnknown[]): PendingUnknown[];
  /** Adopts the profile's interrupted entries old enough now, at a session's open. */
  adoptAtOpen(profileId: string, now: number): Interrupted[];
  announce(profileId: string, adopted: readonly Interrupted[]): void;
  /** Adopts the entries too young at `now` once they come of age. */
  whenOfAge(profileId: string, now: number): void;
  /** Adopts the entries an order book just read settles (the first minutes of a core only). */
  foundInBook(profileId: string, orders: readonly OrderSnapshot[]): void;
  /** An interrupted action more than one order could be: the trader is asked to look. */
  reportUndecided(profileId: string, u: Undecided): void;
  cancel(): void;
}

export function createInterruptedAdoption(d: {
  journal: Journal;
  clock: Clock;
  logger: Logger;
  emit: Emit;
  alerts: Alerts;
  run: () => CoreRun;
}): InterruptedAdoption {
  const { journal, clock, logger } = d;
  let cancelAdoption: (() => void) | undefined;
  /** Journal entries already reported as impossible to settle automatically (said once per core). */
  const warnedUnsettleable = new Set<string>();

  function unreadable(profileId: string, err: unknown): void {
    logger.error('interrupted order actions not read back from the journal', {
      profileId,
      error: errorMessage(err),
    });
  }

  function restore(profileId: string, tracked: readonly PendingUnknown[]): PendingUnknown[] {
    try {
      const restored = restoreUnknowns(
        journal,
        profileId,
        clock.now(),
        new Set(tracked.map((p) => p.journalId)),
        (id) => claimedOrderIds(journal, profileId, istDayStart(clock.now()), id),
      );
      for (const e of restored.unsettleable) {
        if (warnedUnsettleable.has(e.id)) continue;
        warnedUnsettleable.add(e.id);
        logger.warn('an order action has an unknown outcome that only the order book can settle', {
          profileId,
          journalId: e.id,
          operation: e.operation,
        });
      }
      return restored.pending;
    } catch (err) {
      logger.error('unknown outcomes not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
      return [];
    }
  }

  /**
   * Today's entries an earlier run sent but stopped before recording the answer of: from now on
   * unknown outcomes (journalled), announced once by announce().
   */
  function adopt(profileId: string, before: number | undefined, now: number): Interrupted[] {
    try {
      return adoptInterrupted(journal, profileId, now, logger, undefined, before);
    } catch (err) {
      unreadable(profileId, err);
      return [];
    }
  }

  /** Hands the adopted entries' unknown outcomes to the session's watcher. */
  function handOver(session: Session, adopted: readonly Interrupted[]): void {
    const ids = new Set(adopted.map((a) => a.entry.id));
    session.watcher.adoptPending(
      restore(session.profile.id, session.watcher.pendingUnknowns()).filter((p) => ids.has(p.journalId)),
    );
  }

  /**
   * Pending entries of an earlier run still too young to adopt at the start (a core restarted within
   * seconds of a crash) are adopted by the running core once they are old enough, not left pending
   * until its next start. Only entries from before this core started: none of them is its own call.
   * `now` is the time the adoption just made was judged at: the entries it found too young are then
   * exactly the ones waited for here (an entry read later could come of age in between and be in
   * neither adoption, left pending).
   */
  function whenOfAge(profileId: string, now: number): void {
    cancel();
    const { startedAt } = d.run();
    let due: number | undefined;
    try {
      due = nextAdoptionAt(journal, profileId, now, startedAt);
    } catch (err) {
      unreadable(profileId, err);
    }
    if (due === undefined) return;
    const wait = Math.max(0, due - clock.now());
    logger.info('an interrupted order action is adopted once old enough', { profileId, inMs: wait });
    cancelAdoption = clock.setTimer(() => {
      cancelAdoption = undefined;
      const run = d.run();
      const s = run.session;
      if (!run.started || s?.profile.id !== profileId) {
        logger.warn('interrupted order actions left for the next start', { profileId });
        return;
      }
      const at = clock.now();
      const adopted = adopt(profileId, run.startedAt, at);
      handOver(s, adopted);
      if (run.gttSettler?.profileId === profileId) run.gttSettler.restore();
      announce(profileId, adopted);
      whenOfAge(profileId, at);
    }, wait);
  }

  /**
   * An earlier run's pending entries the book already settles are adopted on this read, not once of
   * age (watcher/book-adoption.ts); the watcher settles them on the read it starts now. Only in the
   * first INTERRUPTED_MIN_AGE_MS of this core: later, every entry from before its start is of age.
   */
  function foundInBook(profileId: string, orders: readonly OrderSnapshot[]): void {
    const run = d.run();
    const s = run.session;
    const now = clock.now();
    if (!run.started || s?.profile.id !== profileId || now - run.startedAt > INTERRUPTED_MIN_AGE_MS) return;
    let adopted: Interrupted[];
    try {
      adopted = adoptFoundInBook(journal, profileId, orders, now, run.startedAt, logger);
    } catch (err) {
      unreadable(profileId, err);
      return;
    }
    if (adopted.length === 0) return;
    handOver(s, adopted);
    announce(profileId, adopted);
    void s.watcher.pollNow();
  }

  /** One alert per interrupted entry: "checking the order book", or "check it" when nothing can. */
  function announce(profileId: string, adopted: readonly Interrupted[]): void {
    for (const a of adopted) {
      const known = UnknownOperation.safeParse(a.entry.operation);
      // A smart order (the only other placing action) places an order if anything.
      const operation = known.success ? known.data : 'placeorder';
      const orderid =
        a.intent?.operation === 'modifyorder' || a.intent?.operation === 'cancelorder'
          ? a.intent.orderid
          : undefined;
      // A GTT's modify or cancel names its GTT; the GTT settler checks the GTT order book.
      const triggerId = a.gtt && a.gtt.operation !== 'placegttorder' ? a.gtt.triggerId : undefined;
      logger.warn('an order action was sent before OrderDesk stopped, its answer not recorded', {
        profileId,
        journalId: a.entry.id,
        operation: a.entry.operation,
      });
      if (a.intent || a.gtt)
        d.emit('orders.unknown', {
          profileId,
          time: clock.now(),
          journalId: a.entry.id,
          operation,
          ...(orderid !== undefined ? { orderid } : {}),
          ...(triggerId !== undefined ? { triggerId } : {}),
          message: a.message,
        });
      else
        d.alerts.unsettled({
          journalId: a.entry.id,
          operation,
          message: `${a.message}; its request does not say what to look for: check the order book`,
        });
    }
  }

  function reportUndecided(profileId: string, u: Undecided): void {
    logger.warn('an interrupted order action could not be settled from the order book', {
      profileId,
      journalId: u.journalId,
      operation: u.operation,
    });
    if (d.run().session?.profile.id === profileId)
      d.alerts.unsettled({ journalId: u.journalId, operation: u.operation, message: u.message });
  }

  function cancel(): void {
    cancelAdoption?.();
    cancelAdoption = undefined;
  }

  return {
    restore,
    adoptAtOpen: (profileId, now) => adopt(profileId, undefined, now),
    announce,
    whenOfAge,
    foundInBook,
    reportUndecided,
    cancel,
  };
}
