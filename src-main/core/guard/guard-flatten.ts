// A flatten lock's runs: the flatten engine (core/close-all/flatten-account.ts) starts at the breach
// on the active profile, once per lock (a second breach while it runs does nothing), and again for a
// position opened later during the lock (another client's), once books read after the last run show
// one (the engine reads the books afresh: a stale position costs one round of reads). A run the trader stopped (or an UNLOCK) is not started again for this lock.
import type { Clock } from '../ports.js';
import type { Session } from '../router/session.js';
import type { FlattenProgress, FlattenRun, GuardProfile } from './guard-profile.js';

export interface FlattenKeeping {
  session(): Session | undefined;
  startFlatten?(session: Session, progress: (p: FlattenProgress) => void): FlattenRun;
  clock: Pick<Clock, 'now'>;
  /** The wait after a run ended before positions read since start another. */
  reflattenMs: number;
  show(p: GuardProfile, urgent: boolean): void;
  /** Looks again in `ms` (a position read too soon after the last run). */
  later(p: GuardProfile, ms: number): void;
}

export function keepFlat(p: GuardProfile, openPositions: number, d: FlattenKeeping): void {
  if (p.lock?.action !== 'flatten' || p.running || p.flattenStopped) return;
  const s = d.session();
  if (!d.startFlatten || s?.profile.id !== p.id) return;
  const now = d.clock.now();
  if (p.runEndedAt !== undefined) {
    // Only positions read after the last run, and a moment after it (a poll under way as it ended).
    // A read in the very millisecond the run ended counts: when polls are 30 s apart in the tray, it
    // may be the only read for a while, and a stale one costs a round of fresh reads, not an order.
    if (openPositions === 0 || (p.positionsAt ?? 0) < p.runEndedAt) return;
    const after = p.runEndedAt + d.reflattenMs;
    if (now < after) return d.later(p, after - now);
  }
  p.flatten = {
    state: 'running',
    rounds: 0,
    text: 'Flattening: cancelling working orders, closing positions',
  };
  // Set before the engine starts: it tells its first step at once.
  const running: NonNullable<GuardProfile['running']> = {};
  p.running = running;
  const finished = (out: FlattenProgress) => {
    if (p.running !== running) return;
    p.running = undefined;
    p.flatten = out;
    p.runEndedAt = d.clock.now();
    if (out.state === 'stopped') p.flattenStopped = true;
    d.show(p, true);
  };
  running.run = d.startFlatten(s, (progress) => {
    if (p.running !== running) return;
    p.flatten = progress;
    d.show(p, progress.state !== 'running');
  });
  running.run.done.then(finished, (err: unknown) =>
    finished({ state: 'stopped', rounds: p.flatten.rounds, text: `Flatten failed: ${String(err)}` }),
  );
}

/** Stops the lock's flatten, for good (until another lock). */
export function stopFlattening(p: GuardProfile): void {
  p.flattenStopped = true;
  p.running?.run?.stop();
}
