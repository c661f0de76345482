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
  /**
   * The last row number each AUTOINCREMENT table had handed out, as the backup still says (absent:
   * not readable): in an append-only table, how many rows it held.
   */
  sequence: Record<string, number>;
  /** Rows rebuilt from what the indexes still held (a `Rebuild`'s), included in `salvaged`. */
  rebuilt: Record<string, number>;
}

/**
 * A store's own way to get back rows of `table` that the copy could not read, from what else the
 * backup holds (its indexes): called after the table is copied; answers how many rows it added.
 */
export type Rebuild = (table: string, source: Database.Database, target: Database.Database) => number;

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

/**
 * Throws, as SQLITE_CORRUPT, when the file is damaged anywhere: cut inside a page, or a page whose
 * content SQLite's quick check refuses (random bytes over a page in the middle open without a word
 * and fail only when that page is read: the next order, not the start).
 */
export function assertSound(db: Database.Database, path: string): void {
  assertWholePages(db, path);
  if (path === ':memory:') return;
  const verdict = db.pragma('quick_check(1)', { simple: true });
  if (verdict !== 'ok')
    throw Object.assign(new Error(`${path} failed SQLite's quick check: ${String(verdict)}`), {
      code: 'SQLITE_CORRUPT',
    });
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
 * references) into `target` (schema already created), table by table (copyTable: row by row, the
 * unreadable skipped); a row the target refuses (its parent lost) is skipped, the rest is kept.
 */
export function salvageInto(
  target: Database.Database,
  backupPath: string,
  tables: readonly string[],
  rebuild?: Rebuild,
): Omit<SqliteRecovery, 'backupPath' | 'code'> {
  const salvaged: Record<string, number> = Object.fromEntries(tables.map((t) => [t, 0]));
  const rebuilt: Record<string, number> = {};
  const work = readableCopy(backupPath);
  if (work === undefined) return { salvaged, sequence: {}, rebuilt };
  let source: Database.Database;
  try {
    source = new Database(work, { fileMustExist: true });
  } catch {
    removeCopy(work);
    return { salvaged, sequence: {}, rebuilt };
  }
  const sequence = sequences(source);
  // One transaction: a commit per row (synchronous FULL) would make a large salvage crawl.
  target.exec('BEGIN');
  try {
    for (const table of tables) {
      salvaged[table] = copyTable(source, target, table, sequence[table] ?? 0);
      const more = rebuild?.(table, source, target) ?? 0;
      if (more > 0) {
        rebuilt[table] = more;
        salvaged[table] += more;
      }
    }
    target.exec('COMMIT');
  } finally {
    if (target.inTransaction) target.exec('ROLLBACK');
    source.close();
    removeCopy(work);
  }
  return { salvaged, sequence, rebuilt };
}

/** sqlite_sequence as the backup still has it; empty when it has none or it is unreadable. */
function sequences(source: Database.Database): Record<string, number> {
  try {
    const rows = source.prepare('SELECT name, seq FROM sqlite_sequence').all() as {
      name: string;
      seq: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.seq]));
  } catch {
    return {};
  }
}

/** Clean misses past the highest row number known before the lookups stop (rows are never deleted). */
const MISSES_PAST_END = 1000;

/**
 * Copies one table: a scan from the start, and when it stops at a damaged page, a scan from the end
 * and then one lookup by row number for each row between, so only the rows on unreadable pages are
 * lost (a scan alone loses everything after the first bad page: 0 of 24 entries from a journal cut
 * to 60 %). A WITHOUT ROWID table has no row numbers to look up: the first scan is all it gets.
 */
function copyTable(
  source: Database.Database,
  target: Database.Database,
  table: string,
  lastSeq: number,
): number {
  let copied = 0;
  let insert: Database.Statement | undefined;
  const seen = new Set<number>();
  let highest = lastSeq;
  const take = (raw: Record<string, unknown>) => {
    const { __rowid: rowid, ...row } = raw;
    if (typeof rowid === 'number') {
      if (seen.has(rowid)) return;
      seen.add(rowid);
      if (rowid > highest) highest = rowid;
    }
    const columns = Object.keys(row);
    insert ??= target.prepare(
      `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    try {
      if (insert.run(...columns.map((c) => row[c])).changes === 1) copied++;
    } catch {
      // A row whose parent was lost, or garbage read off a damaged page: nothing to keep.
    }
  };
  const scan = (sql: string): boolean => {
    try {
      for (const row of source.prepare(sql).iterate() as Iterable<Record<string, unknown>>) take(row);
      return true;
    } catch {
      // The rest of this scan is on damaged pages: what was read so far is kept.
      return false;
    }
  };
  let hasRowid = true;
  try {
    source.prepare(`SELECT rowid FROM ${table} LIMIT 0`);
  } catch {
    hasRowid = false;
  }
  const columns = hasRowid ? 'rowid AS __rowid, *' : '*';
  if (scan(`SELECT ${columns} FROM ${table}`) || !hasRowid) return copied;
  scan(`SELECT ${columns} FROM ${table} ORDER BY rowid DESC`);
  const one = source.prepare(`SELECT ${columns} FROM ${table} WHERE rowid = ?`);
  let misses = 0;
  for (let rowid = 1; rowid <= highest || misses < MISSES_PAST_END; rowid++) {
    if (seen.has(rowid)) continue;
    let row: Record<string, unknown> | undefined;
    try {
      row = one.get(rowid) as Record<string, unknown> | undefined;
    } catch {
      row = undefined; // on an unreadable page
    }
    if (row) {
      take(row);
      misses = 0;
    } else if (rowid > highest) misses++;
  }
  return copied;
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
  rebuild?: Rebuild,
): { db: Database.Database; recovery?: SqliteRecovery } {
  try {
    return { db: open(path) };
  } catch (err) {
    const code = damagedCode(err);
    if (code === undefined || path === ':memory:') throw err;
    const backupPath = moveAside(path, now);
    const db = open(path);
    return { db, recovery: { backupPath, code, ...salvageInto(db, backupPath, tables, rebuild) } };
  }
}
