// The order journal (SQLite, WAL): every order action's intent is committed BEFORE the gateway call
// (and on disk before its answer is shown: wal-sync.ts) and its outcome AFTER, so "did my click send
// twice?" always has an answer. An unknown outcome also gets what to look for in the order book (its
// check) and, once the book has told, its resolution, so a restarted core settles it and never settles
// it twice. Every table is append-only; the API key is never stored (fields stripped, values
// redacted).
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { z } from 'zod';
import {
  JournalQuery,
  ProfileId,
  type JournalEntry,
  type JournalError,
  type JournalResolution,
} from '../../contract/index.js';
import { CoreError } from '../core-error.js';
import { systemClock, type Clock } from '../ports.js';
import { ensurePrivateFile } from '../private-files.js';
import { toCsv } from './csv.js';
import { openWalSync, type WalSync } from './wal-sync.js';
import { JOURNAL_CSV_HEADER, journalCsvRow } from './journal-csv.js';
import { rebuildIntents } from './journal-rebuild.js';
import { keyValuesIn, orderIdsIn, sanitise } from './sanitise.js';
import { assertSound, openOrSalvage, type SqliteRecovery } from '../sqlite-salvage.js';
import { storageCause } from '../storage-words.js';
import {
  COLUMNS,
  FROM,
  JOURNAL_TABLES,
  SCHEMA,
  SCHEMA_VERSION,
  SELECT,
  parseJson,
  toEntry,
  type Row,
} from './journal-rows.js';

export interface JournalOptions {
  dbPath: string;
  clock?: Pick<Clock, 'now'>;
  /** Key values to redact wherever they appear (the secret store's valuesForRedaction). */
  secrets?: () => readonly string[];
  /** Hears a flush of the journal to disk that failed (the commit itself stands). */
  onSyncError?: (err: unknown) => void;
}

export interface IntentInput {
  profileId: string;
  operation: string;
  /** The request as it will be sent; its apikey is stripped before anything is written. */
  request: unknown;
}

export type OutcomeInput =
  | { outcome: 'ok'; response: unknown; durationMs?: number }
  | { outcome: 'error' | 'unknown'; error: JournalError; response?: unknown; durationMs?: number };

export type ResolutionInput = Omit<JournalResolution, 'time'> & {
  /** The orders that show a composite action's effect (a split's children): the entry's order ids too. */
  orderids?: readonly string[];
};

/** A query without paging: which entries, in which order. */
export type JournalFilters = Omit<JournalQuery, 'limit' | 'offset'>;

/** An unknown outcome not resolved yet, with the check recorded for it (if any). */
export interface Unresolved {
  entry: JournalEntry;
  check: unknown;
}

export interface Journal {
  /**
   * Commits the intent and returns its id; call it before sending. The commit is in the WAL file when
   * this returns (a crash of OrderDesk cannot lose it); `durable()` says when it is on disk too.
   */
  recordIntent(input: IntentInput): { id: string; time: number };
  /**
   * Resolves once every commit made so far is on disk: one fsync of the WAL for the turn's commits, on
   * the thread pool once the turn is over, so it runs while an order travels; rejects with the
   * flush's error. Every commit is flushed that way whether or not anyone waits.
   */
  durable(): Promise<void>;
  /** Commits the outcome of an intent; once only. */
  recordOutcome(id: string, input: OutcomeInput): JournalEntry;
  /**
   * Commits the outcome of an intent once the current turn of the event loop is over, i.e. after the
   * caller has answered, so the commit's fsync is not on the order's acknowledgement path. Every other
   * call on this journal commits queued outcomes first: no read ever misses one. `onError` hears a
   * commit that failed (the answer has gone out by then).
   */
  recordOutcomeLater(id: string, input: OutcomeInput, onError: (err: unknown) => void): void;
  /** Stores what settles an unknown outcome (opaque JSON: the watcher's intent and known orders); once only. */
  recordCheck(id: string, check: unknown): void;
  /**
   * Commits how an unknown outcome was settled from the order book. False when it was settled
   * already (nothing written), so a resolution is reported once.
   */
  recordResolution(id: string, input: ResolutionInput): boolean;
  /** A profile's unknown outcomes without a resolution, intents from `from` (ms) on, oldest first. */
  unresolved(profileId: string, from: number): Unresolved[];
  get(id: string): JournalEntry | undefined;
  query(query?: JournalQuery): JournalEntry[];
  /** CSV (RFC 4180) of a query, oldest first unless asked otherwise; times in IST. */
  exportCsv(query?: JournalQuery): string;
  /**
   * Every entry the filters match, oldest first unless asked otherwise, `pageSize` at a time: only one
   * page is in memory, and rows written meanwhile never shift a page (keyset, not offset, paging).
   */
  pages(query?: JournalFilters, pageSize?: number): Generator<JournalEntry[], void, undefined>;
  /** What was done at open with a file SQLite called damaged (kept aside, rows copied); else undefined. */
  recovery(): SqliteRecovery | undefined;
  close(): void;
}

export class JournalStoreError extends Error {
  override name = 'JournalError';
}

/** Outcomes between two checkpoints of the WAL (~6 pages an order: ~3 MB of WAL at most). */
export const CHECKPOINT_EVERY = 100;

/** Text matched literally by LIKE (which ignores ASCII case): %, _ and backslash escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Opens (creating) the journal file with its pragmas and schema; throws what SQLite says of a damaged file. */
function openDb(dbPath: string): Database.Database {
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

export function createJournal(options: JournalOptions): Journal {
  const clock = options.clock ?? systemClock;
  const secrets = options.secrets ?? (() => []);
  const { db, recovery } = openOrSalvage(options.dbPath, openDb, JOURNAL_TABLES, clock.now(), rebuildIntents);
  const wal = options.dbPath === ':memory:' ? undefined : openWalSync(db.name);
  if (!wal && options.dbPath !== ':memory:') db.pragma('synchronous = FULL');
  const onSyncError =
    options.onSyncError ?? ((err: unknown) => console.error('journal: flush to disk failed', err));
  /**
   * This turn's flush: one fsync for every commit made so far, started once the turn is over. By then
   * an order whose intent was just committed has been written to its socket (the client sends it in
   * the same turn), so waking the thread pool for the flush is not on the order's way out.
   */
  let turnFlush: { done: Promise<void>; waited(): void } | undefined;
  function flushAfterTurn(sync: WalSync): NonNullable<typeof turnFlush> {
    if (turnFlush) return turnFlush;
    // A failed flush somebody waits for is theirs to report; one nobody waits for is reported here.
    let waitedFor = false;
    const done = new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        turnFlush = undefined;
        sync.sync().then(resolve, (err: unknown) => {
          if (!waitedFor) onSyncError(err);
          reject(err);
        });
      }),
    );
    done.catch(() => undefined);
    turnFlush = { done, waited: () => (waitedFor = true) };
    return turnFlush;
  }
  /** Every commit is flushed in the background, whether or not anyone waits. */
  function syncSoon(): void {
    if (wal) flushAfterTurn(wal);
  }

  const insertIntent = db.prepare(
    'INSERT INTO intents (id, time, profile_id, operation, request_json) VALUES (?, ?, ?, ?, ?)',
  );
  const insertOutcome = db.prepare(
    `INSERT INTO outcomes (id, finished_at, duration_ms, outcome, response_json, error_kind, error_message, http_status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertOrderId = db.prepare('INSERT OR IGNORE INTO order_ids (entry_id, orderid) VALUES (?, ?)');
  const selectOne = db.prepare<[string], Row>(`${SELECT} WHERE i.id = ?`);
  const selectTime = db.prepare<[string], { time: number }>('SELECT time FROM intents WHERE id = ?');
  const selectOutcome = db.prepare<[string], { outcome: string }>(
    'SELECT outcome FROM outcomes WHERE id = ?',
  );
  const insertCheck = db.prepare('INSERT INTO unknown_checks (id, check_json) VALUES (?, ?)');
  // OR IGNORE: a second resolution of the same entry is a no-op, reported as such.
  const insertResolution = db.prepare(
    'INSERT OR IGNORE INTO resolutions (id, resolved_at, found, orderid, message) VALUES (?, ?, ?, ?, ?)',
  );
  const selectUnresolved = db.prepare<[string, number], Row & { check_json: string | null }>(
    `SELECT ${COLUMNS}, c.check_json ${FROM} LEFT JOIN unknown_checks c ON c.id = i.id
     WHERE i.profile_id = ? AND i.time >= ? AND o.outcome = 'unknown' AND r.id IS NULL
     ORDER BY i.time ASC, i.seq ASC`,
  );
  // The request's own key, held only until its outcome is written, to redact it from the response.
  const pendingKeys = new Map<string, string[]>();
  /**
   * Outcomes waiting for the end of the turn (recordOutcomeLater). Durability: the intent was committed
   * before the call; an outcome lost to a crash or power cut in the sub-millisecond window before its
   * own commit and flush leaves the entry "pending" (sent, answer not recorded), which is
   * what the journal says of a crash during the call too, so nothing it promises is weakened: the next
   * core gives such an entry an unknown outcome and settles it from the book (watcher/interrupted-intents.ts).
   */
  const later: { id: string; input: OutcomeInput; onError: (err: unknown) => void }[] = [];
  let flushScheduled = false;
  /** Outcomes committed since the last checkpoint; one every CHECKPOINT_EVERY keeps the WAL small. */
  let sinceCheckpoint = 0;

  /** After the current turn (the caller's answer): queued outcomes, then a checkpoint when one is due. */
  function flushLater(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    // setImmediate runs after the promise continuations that carry the answer back to the caller.
    setImmediate(() => {
      flushScheduled = false;
      flush();
      syncSoon();
      if (sinceCheckpoint < CHECKPOINT_EVERY || !db.open) return;
      sinceCheckpoint = 0;
      try {
        // PASSIVE: never waits for a reader; what it cannot copy now, a later one will.
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Not a loss: the WAL holds every commit until a checkpoint succeeds.
      }
    });
  }

  const writeIntent = db.transaction((id: string, time: number, input: IntentInput, redactWith: string[]) => {
    const request = sanitise(input.request, redactWith);
    insertIntent.run(id, time, input.profileId, input.operation, JSON.stringify(request ?? null));
    for (const orderId of orderIdsIn(request)) insertOrderId.run(id, orderId);
  });

  const writeOutcome = db.transaction((id: string, input: OutcomeInput, redactWith: string[]) => {
    const started = selectTime.get(id);
    if (!started) throw new JournalStoreError(`no journal intent ${id}`);
    const finishedAt = clock.now();
    const duration = Math.max(0, Math.round(input.durationMs ?? finishedAt - started.time));
    const response = input.response === undefined ? undefined : sanitise(input.response, redactWith);
    const error = input.outcome === 'ok' ? undefined : (sanitise(input.error, redactWith) as JournalError);
    insertOutcome.run(
      id,
      finishedAt,
      duration,
      input.outcome,
      response === undefined ? null : JSON.stringify(response),
      error?.kind ?? null,
      error?.message ?? null,
      error?.httpStatus ?? null,
    );
    for (const orderId of orderIdsIn(response)) insertOrderId.run(id, orderId);
  });

  /** Only an entry whose outcome is unknown has a check or a resolution. */
  function requireUnknown(id: string): void {
    const o = selectOutcome.get(id);
    if (!o) throw new JournalStoreError(`no journal outcome ${id}`);
    if (o.outcome !== 'unknown') throw new JournalStoreError(`journal entry ${id} is not an unknown outcome`);
  }

  const writeResolution = db.transaction((id: string, input: ResolutionInput): boolean => {
    requireUnknown(id);
    const message = sanitise(input.message, secrets()) as string;
    const written = insertResolution.run(
      id,
      clock.now(),
      input.found ? 1 : 0,
      input.orderid ?? null,
      message,
    ).changes;
    if (written > 0)
      for (const orderid of new Set([...(input.orderid ? [input.orderid] : []), ...(input.orderids ?? [])]))
        insertOrderId.run(id, orderid);
    return written > 0;
  });

  function filtersOf(query: z.output<typeof JournalQuery>): { where: string[]; params: (string | number)[] } {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const add = (clause: string, value?: string | number) => {
      where.push(clause);
      if (value !== undefined) params.push(value);
    };
    if (query.from !== undefined) add('i.time >= ?', query.from);
    if (query.to !== undefined) add('i.time < ?', query.to);
    if (query.profileId !== undefined) add('i.profile_id = ?', query.profileId);
    if (query.operation !== undefined) add('i.operation = ?', query.operation);
    if (query.orderId !== undefined)
      add('EXISTS (SELECT 1 FROM order_ids x WHERE x.entry_id = i.id AND x.orderid = ?)', query.orderId);
    // A text field of the stored request, at any depth: a basket's legs each name their symbol.
    const requestText = (key: string) =>
      `EXISTS (SELECT 1 FROM json_tree(i.request_json) t WHERE t.key = '${key}' AND t.type = 'text' AND t.value LIKE ? ESCAPE '\\')`;
    if (query.symbol !== undefined) add(requestText('symbol'), `${likeLiteral(query.symbol)}%`);
    if (query.strategy !== undefined) add(requestText('strategy'), likeLiteral(query.strategy));
    if (query.outcome === 'pending') add('o.id IS NULL');
    else if (query.outcome !== undefined) add('o.outcome = ?', query.outcome);
    return { where, params };
  }

  function select(q: JournalQuery = {}): Row[] {
    const query = JournalQuery.parse(q);
    const { where, params } = filtersOf(query);
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY i.time ${direction}, i.seq ${direction} LIMIT ? OFFSET ?`;
    return db.prepare<(string | number)[], Row>(sql).all(...params, query.limit, query.offset);
  }

  function* pagesOf(q: JournalFilters, pageSize: number): Generator<JournalEntry[], void, undefined> {
    if (!Number.isInteger(pageSize) || pageSize < 1)
      throw new JournalStoreError(`page size must be a positive whole number, not ${pageSize}`);
    const query = JournalQuery.parse({ order: 'asc', ...q });
    const { where, params } = filtersOf(query);
    const asc = query.order === 'asc';
    // Each page starts after the last row of the one before, by (time, seq): the order it is sorted by.
    const direction = asc ? 'ASC' : 'DESC';
    const sql = `SELECT ${COLUMNS}, i.seq AS seq ${FROM}
      WHERE ${[...where, `(i.time, i.seq) ${asc ? '>' : '<'} (?, ?)`].join(' AND ')}
      ORDER BY i.time ${direction}, i.seq ${direction} LIMIT ?`;
    const statement = db.prepare<(string | number)[], Row & { seq: number }>(sql);
    let after = asc ? [-1, -1] : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    for (;;) {
      const rows = statement.all(...params, ...after, pageSize);
      const last = rows.at(-1);
      if (!last) return;
      yield rows.map(toEntry);
      if (rows.length < pageSize) return;
      after = [last.time, last.seq];
    }
  }

  function commitOutcome(id: string, input: OutcomeInput): void {
    const ownKeys = pendingKeys.get(id) ?? [];
    writeOutcome(id, input, [...secrets(), ...ownKeys]);
    pendingKeys.delete(id);
    if (++sinceCheckpoint >= CHECKPOINT_EVERY) flushLater();
  }

  /** Commits the queued outcomes, oldest first; one that fails is reported and the rest still go. */
  function flush(): void {
    for (let next = later.shift(); next; next = later.shift()) {
      try {
        commitOutcome(next.id, next.input);
      } catch (err) {
        next.onError(err);
      }
    }
  }

  return guardStorage(options.dbPath, {
    recordIntent(input) {
      flush();
      if (!ProfileId.safeParse(input.profileId).success)
        throw new JournalStoreError(`invalid profile id ${JSON.stringify(input.profileId)}`);
      if (!/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/.test(input.operation))
        throw new JournalStoreError(`invalid operation ${JSON.stringify(input.operation)}`);
      const id = randomUUID();
      const time = clock.now();
      const ownKeys = keyValuesIn(input.request);
      try {
        writeIntent(id, time, input, [...secrets(), ...ownKeys]);
      } catch (err) {
        // No journal, no order: the caller sends nothing, and the trader is told why in words.
        const cause = storageCause(err);
        if (cause === undefined) throw err;
        throw new CoreError(
          'storage',
          `Nothing was sent: the journal could not record this order action (${cause}): ${options.dbPath}`,
        );
      }
      if (ownKeys.length) pendingKeys.set(id, ownKeys);
      syncSoon();
      return { id, time };
    },
    durable() {
      if (!wal) return Promise.resolve();
      const flush = flushAfterTurn(wal);
      flush.waited();
      return flush.done;
    },
    recordOutcome(id, input) {
      flush();
      commitOutcome(id, input);
      syncSoon();
      const row = selectOne.get(id);
      if (!row) throw new JournalStoreError(`no journal entry ${id}`);
      return toEntry(row);
    },
    recordOutcomeLater(id, input, onError) {
      later.push({ id, input, onError });
      flushLater();
    },
    recordCheck(id, check) {
      flush();
      requireUnknown(id);
      insertCheck.run(id, JSON.stringify(sanitise(check, secrets()) ?? null));
      syncSoon();
    },
    recordResolution(id, input) {
      flush();
      const written = writeResolution(id, input);
      syncSoon();
      return written;
    },
    unresolved(profileId, from) {
      flush();
      return selectUnresolved
        .all(profileId, from)
        .map((r) => ({ entry: toEntry(r), check: parseJson(r.check_json) }));
    },
    get(id) {
      flush();
      const row = selectOne.get(id);
      return row ? toEntry(row) : undefined;
    },
    query(q) {
      flush();
      return select(q).map(toEntry);
    },
    exportCsv(q = {}) {
      flush();
      const rows = select({ order: 'asc', limit: 100_000, ...q }).map(toEntry);
      return toCsv(JOURNAL_CSV_HEADER, rows.map(journalCsvRow));
    },
    pages(q = {}, pageSize = 500) {
      flush();
      return pagesOf(q, pageSize);
    },
    recovery: () => recovery,
    close() {
      flush();
      // Before SQLite's close, which checkpoints (flushing the WAL) and deletes the WAL file.
      wal?.close();
      db.close();
    },
  });
}

/**
 * The journal's calls with a failure of its file (disk full, read-only, damaged) thrown as a `storage`
 * refusal naming the file, never as `internal`: an order whose checks read the journal is then not
 * sent either, and the trader is told why.
 */
function guardStorage(dbPath: string, journal: Journal): Journal {
  const guarded = { ...journal };
  for (const [name, fn] of Object.entries(journal) as [keyof Journal, (...a: unknown[]) => unknown][]) {
    if (name === 'pages' || name === 'durable') continue;
    (guarded as Record<string, unknown>)[name] = (...args: unknown[]) => {
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
