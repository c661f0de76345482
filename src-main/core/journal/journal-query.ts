// Reading the journal by filters (time, profile, operation, order id, symbol, strategy, outcome): one
// page by limit and offset, or every matching entry page by page, each page after the last row of the
// one before.
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { JournalQuery, type JournalEntry } from '../../contract/index.js';
import { JournalStoreError } from './journal-db.js';
import { COLUMNS, FROM, SELECT, toEntry, type Row } from './journal-rows.js';

/** A query without paging: which entries, in which order. */
export type JournalFilters = Omit<JournalQuery, 'limit' | 'offset'>;

/** Text matched literally by LIKE (which ignores ASCII case): %, _ and backslash escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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

/** Most distinct filter shapes a connection keeps compiled; the order path asks the same few each time. */
const STATEMENTS_KEPT = 32;
const compiled = new WeakMap<Database.Database, Map<string, Database.Statement<(string | number)[], Row>>>();

/**
 * The connection's compiled statement for this SQL: compiling the join on every read cost more than
 * running it (the duplicate hold-back reads twice per order). Values are bound, never in the text.
 */
function statementOf(db: Database.Database, sql: string): Database.Statement<(string | number)[], Row> {
  let kept = compiled.get(db);
  if (!kept) compiled.set(db, (kept = new Map()));
  let statement = kept.get(sql);
  if (!statement) {
    if (kept.size >= STATEMENTS_KEPT) kept.clear();
    statement = db.prepare<(string | number)[], Row>(sql);
    kept.set(sql, statement);
  }
  return statement;
}

/** One page of matching rows, by the query's limit and offset. */
export function selectRows(db: Database.Database, q: JournalQuery = {}): Row[] {
  const query = JournalQuery.parse(q);
  const { where, params } = filtersOf(query);
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const sql = `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY i.time ${direction}, i.seq ${direction} LIMIT ? OFFSET ?`;
  return statementOf(db, sql).all(...params, query.limit, query.offset);
}

/** Every matching entry, `pageSize` at a time (oldest first unless the query says otherwise). */
export function* pagesOf(
  db: Database.Database,
  q: JournalFilters,
  pageSize: number,
): Generator<JournalEntry[], void, undefined> {
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
