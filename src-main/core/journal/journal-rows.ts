// The journal's tables (append-only, guarded by triggers) and how a row of them reads as an entry.
// The JSON columns are checked as JSON on insert: a salvage copies a row garbled on a damaged page
// into a fresh journal no more than the app would write one (a file made before the check gains it
// at its next salvage; its rows read with parseJson, which takes garbled text as absent).
import type { JournalEntry, JournalOutcome } from '../../contract/index.js';

/** Tables in the order a copy must fill them: a child row after the row it references. */
export const JOURNAL_TABLES = ['intents', 'outcomes', 'order_ids', 'unknown_checks', 'resolutions'] as const;

/** 2: unknown_checks and resolutions (created on open; a version-1 file just gains them). */
export const SCHEMA_VERSION = 2;
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS intents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  time INTEGER NOT NULL,
  profile_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  request_json TEXT NOT NULL CHECK (json_valid(request_json))
);
CREATE TABLE IF NOT EXISTS outcomes (
  id TEXT PRIMARY KEY REFERENCES intents(id),
  finished_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'unknown')),
  response_json TEXT CHECK (response_json IS NULL OR json_valid(response_json)),
  error_kind TEXT,
  error_message TEXT,
  http_status INTEGER
);
CREATE TABLE IF NOT EXISTS order_ids (
  entry_id TEXT NOT NULL REFERENCES intents(id),
  orderid TEXT NOT NULL,
  PRIMARY KEY (entry_id, orderid)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS unknown_checks (
  id TEXT PRIMARY KEY REFERENCES outcomes(id),
  check_json TEXT NOT NULL CHECK (json_valid(check_json))
);
CREATE TABLE IF NOT EXISTS resolutions (
  id TEXT PRIMARY KEY REFERENCES outcomes(id),
  resolved_at INTEGER NOT NULL,
  found INTEGER NOT NULL CHECK (found IN (0, 1)),
  orderid TEXT,
  message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS intents_time ON intents(time);
CREATE INDEX IF NOT EXISTS intents_profile_time ON intents(profile_id, time);
CREATE INDEX IF NOT EXISTS order_ids_orderid ON order_ids(orderid);
CREATE TRIGGER IF NOT EXISTS intents_append_only BEFORE UPDATE ON intents
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS outcomes_append_only BEFORE UPDATE ON outcomes
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS unknown_checks_append_only BEFORE UPDATE ON unknown_checks
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS resolutions_append_only BEFORE UPDATE ON resolutions
  BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
`;

export interface Row {
  id: string;
  time: number;
  profile_id: string;
  operation: string;
  request_json: string;
  order_ids: string;
  finished_at: number | null;
  duration_ms: number | null;
  outcome: Exclude<JournalOutcome, 'pending'> | null;
  response_json: string | null;
  error_kind: string | null;
  error_message: string | null;
  http_status: number | null;
  resolved_at: number | null;
  found: number | null;
  resolved_orderid: string | null;
  resolution_message: string | null;
}

export const COLUMNS = `i.id, i.time, i.profile_id, i.operation, i.request_json,
  (SELECT json_group_array(orderid) FROM order_ids WHERE entry_id = i.id) AS order_ids,
  o.finished_at, o.duration_ms, o.outcome, o.response_json, o.error_kind, o.error_message, o.http_status,
  r.resolved_at, r.found, r.orderid AS resolved_orderid, r.message AS resolution_message`;
export const FROM = `FROM intents i LEFT JOIN outcomes o ON o.id = i.id LEFT JOIN resolutions r ON r.id = i.id`;
export const SELECT = `SELECT ${COLUMNS} ${FROM}`;

/**
 * A JSON column as a value. Text damaged at rest (random bytes inside a row that SQLite still reads)
 * is undefined, as if absent: one garbled entry must not make every query, and with it every order's
 * check for an earlier one in doubt, fail.
 */
export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function toEntry(r: Row): JournalEntry {
  const entry: JournalEntry = {
    id: r.id,
    time: r.time,
    profileId: r.profile_id,
    operation: r.operation,
    request: parseJson(r.request_json),
    orderIds: ((parseJson(r.order_ids) as string[] | undefined) ?? []).sort(),
    outcome: r.outcome ?? 'pending',
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
  };
  if (r.response_json !== null) entry.response = parseJson(r.response_json);
  if (r.error_kind !== null)
    entry.error = {
      kind: r.error_kind,
      message: r.error_message ?? '',
      ...(r.http_status !== null ? { httpStatus: r.http_status } : {}),
    };
  if (r.resolved_at !== null)
    entry.resolution = {
      time: r.resolved_at,
      found: r.found === 1,
      message: r.resolution_message ?? '',
      ...(r.resolved_orderid !== null ? { orderid: r.resolved_orderid } : {}),
    };
  return entry;
}
