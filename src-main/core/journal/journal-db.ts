// The journal's SQLite file: opened (created) with its pragmas and schema, and its failures (disk
// full, read-only, damaged) turned into `storage` refusals that name the file.
import Database from 'better-sqlite3';
import { CoreError } from '../core-error.js';
import { ensurePrivateFile } from '../private-files.js';
import { assertSound } from '../sqlite-salvage.js';
import { storageCause } from '../storage-words.js';
import { SCHEMA, SCHEMA_VERSION } from './journal-rows.js';

export class JournalStoreError extends Error {
  override name = 'JournalError';
}

/** Opens (creating) the journal file with its pragmas and schema; throws what SQLite says of a damaged file. */
export function openJournalDb(dbPath: string): Database.Database {
  // 0600 (an older file tightened) before SQLite opens it: its -wal/-shm files copy the database's mode.
  if (dbPath !== ':memory:') ensurePrivateFile(dbPath);
  const db = new Database(dbPath);
  try {
    // Damage anywhere in the file is found now, not by the next order (~10 ms for 10,000 entries).
    assertSound(db, dbPath);
    db.pragma('journal_mode = WAL');
    // NORMAL: a commit is written to the WAL (the OS has it) before it returns; the flush to disk that
    // FULL would wait for here runs on the thread pool instead (wal-sync.ts; FULL again without it).
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // SQLite's automatic checkpoint runs inside whichever commit crosses 1000 WAL pages (~150 orders):
    // often an intent, which would then also write and sync the database file before its order goes
    // out. This journal checkpoints itself instead, after an outcome, off the acknowledgement path.
    db.pragma('wal_autocheckpoint = 0');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new JournalStoreError(`journal ${dbPath} was written by a newer OrderDesk (schema ${version})`);
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * An object's calls with a failure of its file (disk full, read-only, damaged) thrown as a `storage`
 * refusal naming the file, never as `internal`: an order whose checks read the journal is then not
 * sent either, and the trader is told why. `skip` names the calls left as they are.
 */
export function guardStorage<T extends object>(dbPath: string, journal: T, skip: readonly (keyof T)[]): T {
  const guarded = { ...journal };
  for (const [name, fn] of Object.entries(journal) as [keyof T, (...a: unknown[]) => unknown][]) {
    if (skip.includes(name)) continue;
    (guarded as Record<keyof T, unknown>)[name] = (...args: unknown[]) => {
      try {
        return fn(...args);
      } catch (err) {
        const cause = storageCause(err);
        if (cause === undefined) throw err;
        throw new CoreError(
          'storage',
          `The journal could not be read or written (${cause}): ${dbPath}. No order is sent until it can be.`,
        );
      }
    };
  }
  return guarded;
}
