// Over 300 lines: one method per ledger read or write, with the caches those writes keep current.
// The SQLite ledger behind the trading engine: reads and writes of the tables of ledger-schema.ts
// (statements in ledger-statements.ts), with write-through caches of the rows every placement and
// book read needs. The engine wraps each mutation in `transaction`, so an answer is only sent after
// everything it reports is committed.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files.js';
import type { StrategyExposure } from './engine.js';
import type {
  AccountRow,
  FundDelta,
  FundTotals,
  HoldingRow,
  NewOrderRow,
  OrderRow,
  PositionRow,
  StoredResponse,
  TradeRow,
} from './ledger-rows.js';
import { createOrMigrate } from './ledger-schema.js';
import { prepareStatements, type LedgerStatements } from './ledger-statements.js';

export const LEDGER_FILE = 'paper.db';

export interface LedgerOptions {
  /**
   * 'normal' (default): WAL + synchronous=NORMAL. A committed transaction is in the WAL file (in the
   * OS page cache) before COMMIT returns, so a SIGKILLed gateway loses nothing it acknowledged; only
   * an OS crash or power cut could drop the last few commits. 'full' also fsyncs every commit.
   */
  durability?: 'normal' | 'full';
}

/**
 * Throws, as SQLite's own SQLITE_CORRUPT, when SQLite's quick check refuses the ledger: random bytes
 * over a page in the middle open without a word and fail only when that page is read (the next
 * order, not the start). Its embedder then says which file is damaged at start.
 */
function assertSound(db: Database.Database, file: string): void {
  const verdict = db.pragma('quick_check(1)', { simple: true });
  if (verdict !== 'ok')
    throw Object.assign(new Error(`${file} failed SQLite's quick check: ${String(verdict)}`), {
      code: 'SQLITE_CORRUPT',
    });
}

export class Ledger {
  readonly db: Database.Database;
  readonly file: string;

  private readonly s: LedgerStatements;
  /**
   * Write-through caches of the rows every placement reads (account balances, the position being
   * traded). Only this connection writes the ledger while it is open, so they stay exact; null
   * records a known-missing row.
   */
  private readonly accountCache = new Map<string, AccountRow | null>();
  private readonly positionCache = new Map<string, PositionRow | null>();
  /**
   * Per account whose book was read: its orders created since `since` or active when loaded, by id
   * in seq order, kept write-through, so a book read is not thousands of row lookups.
   */
  private readonly recentCache = new Map<string, { since: number; rows: Map<string, OrderRow> }>();
  /** One transaction wrapper for the ledger's life (nested calls become savepoints). */
  private readonly tx: (fn: () => unknown) => unknown;
  /** Told of every order row written (the engine's order events; uncommitted until it says so). */
  onOrderWrite: ((row: NewOrderRow) => void) | undefined;

  constructor(dataDir: string, opts: LedgerOptions = {}) {
    this.file = join(dataDir, LEDGER_FILE);
    // 0600 in a 0700 dir before SQLite opens it (its -wal/-shm take the file's mode).
    ensurePrivateFile(this.file);
    const db = new Database(this.file);
    // Small pages for a new ledger (no effect on an existing file): a placement dirties about a
    // dozen pages, each appended whole to the WAL on commit, so 1 KiB pages write a quarter of the
    // bytes of the 4 KiB default, and each order commits faster.
    db.pragma('page_size = 1024');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = OFF');
    db.pragma('busy_timeout = 5000');
    try {
      assertSound(db, this.file);
    } catch (err) {
      db.close();
      throw err;
    }
    createOrMigrate(db);
    this.db = db;
    this.tx = db.transaction((fn: () => unknown) => fn());
    this.s = prepareStatements(db);
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.tx(fn) as T;
    } catch (err) {
      // Rolled back (to the savepoint, or wholly): the row caches may hold undone writes.
      this.forgetCaches();
      throw err;
    }
  }

  /** Opens an explicit transaction; transaction() calls inside it become savepoints (group commit). */
  begin(): void {
    this.s.begin.run();
  }
  commit(): void {
    this.s.commit.run();
  }
  /** Undoes an explicit transaction (if one is still open) and drops the row caches. */
  rollback(): void {
    if (this.db.inTransaction) this.s.rollback.run();
    this.forgetCaches();
  }
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /** Drops the in-memory row caches (they refill from SQLite on use). */
  forgetCaches(): void {
    this.accountCache.clear();
    this.positionCache.clear();
    this.recentCache.clear();
  }

  meta(key: string): string | undefined {
    return this.s.metaGet.get(key)?.value;
  }
  setMeta(key: string, value: string): void {
    this.s.metaSet.run(key, value);
  }

  /** An account's row (shared with the cache: do not mutate). */
  account(account: string): AccountRow | undefined {
    let row = this.accountCache.get(account);
    if (row === undefined) {
      row = this.s.accountGet.get(account) ?? null;
      this.accountCache.set(account, row);
    }
    return row ?? undefined;
  }
  insertAccount(row: Pick<AccountRow, 'account' | 'capital' | 'settled_day' | 'created_ms'>): void {
    this.s.accountInsert.run(row.account, row.capital, row.settled_day, row.created_ms, row.capital);
    this.accountCache.delete(row.account);
  }
  setSettledDay(account: string, day: number): void {
    this.s.accountSettled.run(day, account);
    this.accountCache.delete(account);
  }
  accounts(): AccountRow[] {
    return this.s.accountsAll.all();
  }

  /** Inserts an order and returns its seq (rowid). */
  insertOrder(row: NewOrderRow): number {
    const seq = Number(this.s.orderInsert.run(row).lastInsertRowid);
    this.recentCache.get(row.account)?.rows.set(row.orderid, { ...row, seq });
    this.onOrderWrite?.(row);
    return seq;
  }
  updateOrder(row: OrderRow): void {
    this.s.orderUpdate.run(row);
    const rows = this.recentCache.get(row.account)?.rows;
    // A new object, never a change in place: readers keep what they derive from a cached row (its
    // record, its JSON) for as long as that same object is handed out.
    if (rows?.has(row.orderid)) rows.set(row.orderid, { ...row });
    this.onOrderWrite?.(row);
  }
  /**
   * An account's orders created at or after `sinceMs`, plus any still active, newest first (and
   * possibly more: callers filter). Rows are shared with the cache: do not mutate. A row that is
   * the same object as at an earlier call has not changed since.
   */
  recentOrders(account: string, sinceMs: number): OrderRow[] {
    let c = this.recentCache.get(account);
    if (!c || c.since !== sinceMs) {
      const rows = new Map<string, OrderRow>();
      for (const r of this.s.ordersRecent.all(account, sinceMs)) rows.set(r.orderid, r);
      c = { since: sinceMs, rows };
      this.recentCache.set(account, c);
    }
    const out = Array.from(c.rows.values());
    return out.reverse();
  }
  order(account: string, orderid: string): OrderRow | undefined {
    return this.s.orderGet.get(account, orderid);
  }
  /** Every order of an account, newest first. */
  orders(account: string): OrderRow[] {
    return this.s.ordersOf.all(account);
  }
  activeOrders(): OrderRow[] {
    return this.s.ordersActive.all();
  }
  activeOrderCount(): number {
    return this.s.ordersActiveCount.get()?.n ?? 0;
  }
  /** Largest order id in [from, to), for resuming the id counter after a restart. */
  maxOrderId(from: string, to: string): string | undefined {
    return this.s.maxOrderId.get(from, to)?.id ?? undefined;
  }

  insertTrade(row: Omit<TradeRow, 'seq'>): void {
    this.s.tradeInsert.run(row);
  }
  /** Every trade of an account, newest first. */
  trades(account: string): TradeRow[] {
    return this.s.tradesOf.all(account);
  }
  maxTradeSeq(): number {
    return this.s.maxTradeSeq.get()?.n ?? 0;
  }

  /** A position row (shared with the cache: do not mutate). */
  position(account: string, exchange: string, symbol: string, product: string): PositionRow | undefined {
    const key = `${account}\u0000${exchange}\u0000${symbol}\u0000${product}`;
    let row = this.positionCache.get(key);
    if (row === undefined) {
      row = this.s.positionGet.get(account, exchange, symbol, product) ?? null;
      this.positionCache.set(key, row);
    }
    return row ?? undefined;
  }
  putPosition(row: PositionRow): void {
    this.s.positionPut.run(row);
    const key = `${row.account}\u0000${row.exchange}\u0000${row.symbol}\u0000${row.product}`;
    this.positionCache.set(key, { ...row });
  }
  positions(account: string): PositionRow[] {
    return this.s.positionsOf.all(account);
  }
  cncLongPositions(account: string): PositionRow[] {
    return this.s.cncLongPositions.all(account);
  }

  addStrategyQuantity(
    account: string,
    strategy: string,
    exchange: string,
    symbol: string,
    product: string,
    delta: number,
  ): void {
    this.s.strategyAdd.run(account, strategy, exchange, symbol, product, delta);
  }
  strategyQuantity(
    account: string,
    strategy: string,
    exchange: string,
    symbol: string,
    product: string,
  ): number {
    return this.s.strategyGet.get(account, strategy, exchange, symbol, product)?.quantity ?? 0;
  }
  strategyExposure(account: string, strategy: string): StrategyExposure[] {
    return this.s.strategyOf.all(account, strategy);
  }

  holding(account: string, exchange: string, symbol: string): HoldingRow | undefined {
    return this.s.holdingGet.get(account, exchange, symbol);
  }
  putHolding(row: HoldingRow): void {
    this.s.holdingPut.run(row);
  }
  holdings(account: string): HoldingRow[] {
    return this.s.holdingsOf.all(account);
  }

  /** Applies a change to an account's balances and journals it (available > 0 frees cash). */
  movement(account: string, timeMs: number, kind: string, delta: FundDelta, ref: string): void {
    const used = delta.used ?? 0;
    const realised = delta.realised ?? 0;
    if (delta.available === 0 && used === 0 && realised === 0) return;
    this.s.accountAdjust.run(delta.available, used, realised, account);
    const cached = this.accountCache.get(account);
    if (cached) {
      cached.available += delta.available;
      cached.used_margin += used;
      cached.realised += realised;
    }
    if (delta.available !== 0) this.s.movementInsert.run(account, timeMs, kind, delta.available, ref);
  }

  totals(account: string): FundTotals {
    const t = this.s.totals.get(account, account, account, account, account);
    return t ?? { realised: 0, positionMargin: 0, orderMargin: 0, holdingsCost: 0, movements: 0 };
  }

  response(account: string, requestId: string): StoredResponse | undefined {
    return this.s.responseGet.get(account, requestId);
  }
  insertResponse(account: string, requestId: string, stored: StoredResponse, nowMs: number): void {
    this.s.responseInsert.run(account, requestId, stored.request, stored.body, nowMs);
  }

  /** Empties every book (orders, GTTs, trades, positions, holdings, journal, responses) and restores capital. */
  clearBooks(capital: number, settledDay: number): void {
    this.db
      .exec(`DELETE FROM orders; DELETE FROM trades; DELETE FROM positions; DELETE FROM strategy_positions;
      DELETE FROM holdings; DELETE FROM fund_movements; DELETE FROM responses; DELETE FROM gtts;`);
    this.forgetCaches();
    this.db
      .prepare(
        'UPDATE accounts SET capital = ?, settled_day = ?, available = ?, used_margin = 0, realised = 0',
      )
      .run(capital, settledDay, capital);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
