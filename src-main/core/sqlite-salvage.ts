// Opening a SQLite file of the core's (the journal, the watcher's seen store) that SQLite refuses
// (truncated, overwritten, not a database): the file is kept aside as a backup, a fresh one takes
// its place, and every row that can still be read from the backup is copied into it, so the core
// starts and loses nothing it could read.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What was done with a file SQLite could not open, for the core to say at start. */
export interface SqliteRecovery {
  /** The damaged file, kept as it was. */
  backupPath: string;
  /** SQLite's code for the failure (SQLITE_CORRUPT, SQLITE_NOTADB). */
  code: string;
  /** Rows copied from the backup, by table. */
  salvaged: Record<string, number>;
}

/** SQLite's answers for a file whose content is damaged, rather than unreachable or locked. */
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

/** SQLite's result code when `err` says the file is damaged; undefined for any other failure. */
export function damagedCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DAMAGED.has(code) ? code : undefined;
}

/**
 * Throws, as SQLite's own SQLITE_CORRUPT, when the file is not a whole number of pages: cut inside
 * its last page, which SQLite opens without a word and then fails on at the first read of that page.
 */
export function assertWholePages(db: Database.Database, path: string): void {
  if (path === ':memory:') return;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const size = statSync(path).size;
  if (size % pageSize !== 0)
    throw Object.assign(new Error(`${path} ends inside a page (${size} bytes)`), { code: 'SQLITE_CORRUPT' });
}

/** Moves the damaged file (and its WAL and shared memory, which belong to it) to a backup name. */
export function moveAside(dbPath: string, now: number): string {
  const backupPath = `${dbPath}.corrupt-${now}`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, backupPath + suffix);
  return backupPath;
}

/**
 * Copies what the backup still yields of `tables` (parents first, so a child row finds the row it
 * references) into `target` (schema already created), table by table, row by row: a read stops at
 * the first damaged page, a row the target refuses (its parent lost) is skipped, the rest is kept.
 */
export function salvageInto(
  target: Database.Database,
  backupPath: string,
  tables: readonly string[],
): Record<string, number> {
  const salvaged: Record<string, number> = Object.fromEntries(tables.map((t) => [t, 0]));
  const work = readableCopy(backupPath);
  if (work === undefined) return salvaged;
  let source: Database.Database;
  try {
    source = new Database(work, { fileMustExist: true });
  } catch {
    removeCopy(work);
    return salvaged;
  }
  // One transaction: a commit per row (synchronous FULL) would make a large salvage crawl.
  target.exec('BEGIN');
  try {
    for (const table of tables) {
      try {
        const rows = source.prepare(`SELECT * FROM ${table}`).iterate() as Iterable<Record<string, unknown>>;
        let insert: Database.Statement | undefined;
        for (const row of rows) {
          const columns = Object.keys(row);
          insert ??= target.prepare(
            `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          );
          try {
            if (insert.run(...columns.map((c) => row[c])).changes === 1) salvaged[table]! += 1;
          } catch {
            // A row whose parent was lost: nothing to attach it to.
          }
        }
      } catch {
        // The table (or the rest of it) is on damaged pages: what was read so far is kept.
      }
    }
    target.exec('COMMIT');
  } finally {
    if (target.inTransaction) target.exec('ROLLBACK');
    source.close();
    removeCopy(work);
  }
  return salvaged;
}

/**
 * A copy of the backup that SQLite will read. A truncated file is shorter than its header says,
 * which SQLite calls corrupt before reading anything; and a table whose root page is gone makes it
 * refuse the whole schema. So the copy keeps the whole pages that are there and, up to the page
 * count the header promised, zero pages in place of the lost ones: every table whose pages survived
 * reads, one on a lost page fails alone. The backup itself is never written. Undefined when not even
 * the header is left.
 */
function readableCopy(backupPath: string): string | undefined {
  const bytes = readFileSync(backupPath);
  if (bytes.length < HEADER_BYTES) return undefined;
  const raw = bytes.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512) return undefined;
  const whole = Math.floor(bytes.length / pageSize);
  if (whole === 0) return undefined;
  const promised = bytes.readUInt32BE(28);
  // A garbage header must not make the copy huge: padding only up to twice what is there.
  const pages = promised > whole && promised <= whole * 2 + 64 ? promised : whole;
  const copy = Buffer.alloc(pages * pageSize);
  bytes.copy(copy, 0, 0, whole * pageSize);
  copy.writeUInt32BE(pages, 28);
  const work = `${backupPath}.salvage`;
  writeFileSync(work, copy, { mode: 0o600 });
  // Commits not yet checkpointed live in the WAL: SQLite applies it to the copy on open.
  if (existsSync(`${backupPath}-wal`)) copyFileSync(`${backupPath}-wal`, `${work}-wal`);
  return work;
}

function removeCopy(work: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(work + suffix, { force: true });
}

/** SQLite's file header: page size at byte 16, page count at byte 28. */
const HEADER_BYTES = 100;

/**
 * Opens a store with `open` (which creates its schema); when SQLite calls the file damaged, keeps it
 * aside, opens a fresh one and copies into it what the old one still yields of `tables`.
 */
export function openOrSalvage(
  path: string,
  open: (path: string) => Database.Database,
  tables: readonly string[],
  now: number,
): { db: Database.Database; recovery?: SqliteRecovery } {
  try {
    return { db: open(path) };
  } catch (err) {
    const code = damagedCode(err);
    if (code === undefined || path === ':memory:') throw err;
    const backupPath = moveAside(path, now);
    const db = open(path);
    return { db, recovery: { backupPath, code, salvaged: salvageInto(db, backupPath, tables) } };
  }
}
