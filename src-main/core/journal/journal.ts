// Over 300 lines: the journal API and its one writer, whose statements share a connection and a queue.
// The order journal (SQLite, WAL): every order action's intent is committed BEFORE the gateway call
// (and on disk before its answer is shown: wal-sync.ts) and its outcome AFTER, so "did my click send
// twice?" always has an answer. An unknown outcome also gets what to look for in the order book (its
// check) and, once the book has told, its resolution, so a restarted core settles it and never settles
// it twice. Every table is append-only; the API key is never stored (fields stripped, values
// redacted).
import { randomUUID } from 'node:crypto';
import {
  ProfileId,
  type JournalEntry,
  type JournalError,
  type JournalQuery,
  type JournalResolution,
} from '../../contract/index.js';
import { CoreError } from '../core-error.js';
import { systemClock, type Clock } from '../ports.js';
import { toCsv } from './csv.js';
import { createTurnFlush, openWalSync } from './wal-sync.js';
import { JOURNAL_CSV_HEADER, journalCsvRow } from './journal-csv.js';
import { guardStorage, JournalStoreError, openJournalDb } from './journal-db.js';
import { pagesOf, selectRows, type JournalFilters } from './journal-query.js';
import { rebuildIntents } from './journal-rebuild.js';
import { createDoubtIndex } from './journal-doubt.js';
import { keyValuesIn, orderIdsIn, sanitise } from './sanitise.js';
import { openOrSalvage, type SqliteRecovery } from '../sqlite-salvage.js';
import { storageCause } from '../storage-words.js';
import { COLUMNS, FROM, JOURNAL_TABLES, SELECT, parseJson, toEntry, type Row } from './journal-rows.js';

export { JournalStoreError } from './journal-db.js';
export type { JournalFilters } from './journal-query.js';

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
  /**
   * A profile's entries from `from` (ms) on whose outcome is pending or unknown (resolved or not),
   * oldest first; asked on every order, it reads nothing when memory says none is in doubt.
   */
  inDoubt(profileId: string, from: number): JournalEntry[];
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

/** Outcomes between two checkpoints of the WAL (~6 pages an order: ~3 MB of WAL at most). */
export const CHECKPOINT_EVERY = 100;

export function createJournal(options: JournalOptions): Journal {
  const clock = options.clock ?? systemClock;
  const secrets = options.secrets ?? (() => []);
  const { db, recovery } = openOrSalvage(
    options.dbPath,
    openJournalDb,
    JOURNAL_TABLES,
    clock.now(),
    rebuildIntents,
  );
  const wal = options.dbPath === ':memory:' ? undefined : openWalSync(db.name);
  if (!wal && options.dbPath !== ':memory:') db.pragma('synchronous = FULL');
  const onSyncError =
    options.onSyncError ?? ((err: unknown) => console.error('journal: flush to disk failed', err));
  const turn = createTurnFlush(wal, onSyncError);
  const syncSoon = () => turn.soon();
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
  const selectInDoubt = db.prepare<[string, number], Row>(
    `${SELECT} WHERE i.profile_id = ? AND i.time >= ? AND (o.id IS NULL OR o.outcome = 'unknown')
     ORDER BY i.time ASC, i.seq ASC`,
  );
  const doubt = createDoubtIndex(db, () => clock.now());
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

  function commitOutcome(id: string, input: OutcomeInput): void {
    const ownKeys = pendingKeys.get(id) ?? [];
    writeOutcome(id, input, [...secrets(), ...ownKeys]);
    doubt.outcome(id, input.outcome);
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

  return guardStorage<Journal>(
    options.dbPath,
    {
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
        doubt.intent(id, input.profileId, time);
        if (ownKeys.length) pendingKeys.set(id, ownKeys);
        syncSoon();
        return { id, time };
      },
      durable: () => turn.durable(),
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
      inDoubt(profileId, from) {
        flush();
        return doubt.mayHave(profileId, from) ? selectInDoubt.all(profileId, from).map(toEntry) : [];
      },
      get(id) {
        flush();
        const row = selectOne.get(id);
        return row ? toEntry(row) : undefined;
      },
      query(q) {
        flush();
        return selectRows(db, q).map(toEntry);
      },
      exportCsv(q = {}) {
        flush();
        const rows = selectRows(db, { order: 'asc', limit: 100_000, ...q }).map(toEntry);
        return toCsv(JOURNAL_CSV_HEADER, rows.map(journalCsvRow));
      },
      pages(q = {}, pageSize = 500) {
        flush();
        return pagesOf(db, q, pageSize);
      },
      recovery: () => recovery,
      close() {
        flush();
        // Before SQLite's close, which checkpoints (flushing the WAL) and deletes the WAL file.
        wal?.close();
        db.close();
      },
    },
    ['pages', 'durable'],
  );
}
