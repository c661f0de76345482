// Journal entries whose rows sat on pages lost from a damaged file, rebuilt from the indexes that
// survived: the intents' id index (id → seq) and time indexes ((profile, time) → seq) still say which
// entry was made when, for which profile; its outcome, order ids and resolution (other tables) then
// attach to it again. What it asked for is gone: such an entry's operation reads "unreadable" and its
// request null, so the journal still answers "what happened at 10:02, with which order id".
import type Database from 'better-sqlite3';

/** The operation of an entry rebuilt without its intent row. */
export const UNREADABLE_OPERATION = 'unreadable';

interface Known {
  id?: string;
  time?: number;
  profileId?: string;
}

/** Rebuilds the intents the copy lost (the salvage's `Rebuild` for the journal); other tables: 0. */
export function rebuildIntents(table: string, source: Database.Database, target: Database.Database): number {
  if (table !== 'intents') return 0;
  const bySeq = new Map<number, Known>();
  const read = (sql: string, put: (known: Known, row: Record<string, unknown>) => void) => {
    try {
      for (const row of source.prepare(sql).iterate() as Iterable<Record<string, unknown>>) {
        const seq = row.seq;
        if (typeof seq !== 'number') continue;
        const known = bySeq.get(seq) ?? {};
        put(known, row);
        bySeq.set(seq, known);
      }
    } catch {
      // The rest of that index is on damaged pages.
    }
  };
  // Each index alone (INDEXED BY): SQLite reads the index's own pages, never the lost table's.
  read('SELECT seq, id FROM intents INDEXED BY sqlite_autoindex_intents_1', (k, r) => {
    if (typeof r.id === 'string') k.id = r.id;
  });
  read('SELECT seq, profile_id, time FROM intents INDEXED BY intents_profile_time', (k, r) => {
    if (typeof r.profile_id === 'string') k.profileId = r.profile_id;
    if (typeof r.time === 'number') k.time = r.time;
  });
  const insert = target.prepare(
    `INSERT OR IGNORE INTO intents (seq, id, time, profile_id, operation, request_json)
     VALUES (?, ?, ?, ?, '${UNREADABLE_OPERATION}', 'null')`,
  );
  let added = 0;
  for (const [seq, k] of bySeq) {
    if (k.id === undefined || k.time === undefined || k.profileId === undefined) continue;
    try {
      added += insert.run(seq, k.id, k.time, k.profileId).changes;
    } catch {
      // Its id or seq is taken by a row read whole: that one stands.
    }
  }
  return added;
}
