// Which of the journal's recent entries are in doubt (no outcome yet, or an unknown one), kept in
// memory in step with the journal so the duplicate hold-back, asked on every order, need not read
// the journal when nothing is in doubt (the common case). Rebuilt from the journal at open and
// whenever another connection has committed since (SQLite's data_version says so: the CLI, another
// run): an entry another process wrote is never missed. It only ever says "nothing in doubt"; what
// is in doubt is still read from the journal itself.
import type Database from 'better-sqlite3';

/** How far back the index holds entries: the hold-back reads today's (IST) entries at most. */
export const DOUBT_SPAN_MS = 36 * 3_600_000;

interface Doubtful {
  profileId: string;
  time: number;
}

export interface DoubtIndex {
  /** An intent just committed on this connection: pending until its outcome. */
  intent(id: string, profileId: string, time: number): void;
  /** An outcome just committed on this connection; an unknown one stays in doubt. */
  outcome(id: string, outcome: 'ok' | 'error' | 'unknown'): void;
  /** Whether the profile may have an entry in doubt from `from` (ms) on: false is certain. */
  mayHave(profileId: string, from: number): boolean;
}

export function createDoubtIndex(db: Database.Database, now: () => number): DoubtIndex {
  const entries = new Map<string, Doubtful>();
  const version = db.prepare<[], number>('PRAGMA data_version').pluck();
  const inDoubt = db.prepare<[number], { id: string; profile_id: string; time: number }>(
    `SELECT i.id, i.profile_id, i.time FROM intents i LEFT JOIN outcomes o ON o.id = i.id
     WHERE i.time >= ? AND (o.id IS NULL OR o.outcome = 'unknown')`,
  );
  /** Entries before this are not held (nor asked about: older questions read the journal). */
  let floor = 0;
  let builtAt = 0;
  let seen = -1;

  function rebuild(): void {
    seen = version.get() ?? -1;
    builtAt = now();
    floor = builtAt - DOUBT_SPAN_MS;
    entries.clear();
    for (const r of inDoubt.all(floor)) entries.set(r.id, { profileId: r.profile_id, time: r.time });
  }

  rebuild();
  return {
    intent(id, profileId, time) {
      entries.set(id, { profileId, time });
    },
    outcome(id, outcome) {
      if (outcome !== 'unknown') entries.delete(id);
    },
    mayHave(profileId, from) {
      // Another connection wrote since: read the journal again. A question older than what is held
      // is answered by the journal itself.
      // Rebuilt twice a day too, which lets go of entries too old to ask about.
      if (version.get() !== seen || Math.abs(now() - builtAt) > DOUBT_SPAN_MS / 3) rebuild();
      if (from < floor) return true;
      for (const e of entries.values()) if (e.profileId === profileId && e.time >= from) return true;
      return false;
    },
  };
}
