// The SQLite ledger behind the trading engine: prepared statements over the tables of
// ledger-schema.ts. The engine wraps each mutation in `transaction`, so an answer is only sent
// after everything it reports is committed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Product } from '../../contract/index.js';
import type { PaperOrder, PaperTrade } from './engine.js';
import { LEDGER_ADDED_COLUMNS, LEDGER_DDL, LEDGER_SCHEMA_VERSION } from './ledger-schema.js';

export const LEDGER_FILE = 'paper.db';

/**
 * An orders row: a PaperOrder with `price`, `trigger_price` and `margin_blocked` in units, and the
 * fill value (units, Σ price × quantity) kept instead of the average price; `seq` is the insertion
 * order; `claimed` the unfilled quantity that reduces an opposite position (it blocks no margin).
 */
export interface OrderRow extends Omit<PaperOrder, 'average_price'> {
  seq: number;
  fill_value: number;
  claimed: number;
}
export type NewOrderRow = Omit<OrderRow, 'seq'>;

/** A trades row: a PaperTrade with `price` in units; `seq` is the insertion order. */
export interface TradeRow extends PaperTrade {
  seq: number;
}

export interface PositionRow {
  account: string;
  exchange: string;
  symbol: string;
  product: Product;
  quantity: number;
  cost: number;
  realised: number;
  margin: number;
  updated_ms: number;
}

export interface HoldingRow {
  account: string;
  exchange: string;
  symbol: string;
  quantity: number;
  cost: number;
  updated_ms: number;
}

export interface AccountRow {
  account: string;
  capital: number;
  settled_day: number;
  created_ms: number;
  /** Available cash (units). */
  available: number;
  /** Order blocks + position margin (units). */
  used_margin: number;
  /** Realised P&L since the last reset (units). */
  realised: number;
}

/** One change of an account's balances; `available` is what the journal records. */
export interface FundDelta {
  available: number;
  used?: number;
  realised?: number;
}

export interface FundTotals {
  /** Σ position realised P&L (units). */
  realised: number;
  /** Σ margin held by open positions. */
  positionMargin: number;
  /** Σ margin blocked by unfilled order quantity. */
  orderMargin: number;
  /** Σ cost of settled holdings. */
  holdingsCost: number;
  /** Σ fund_movements amounts. */
  movements: number;
}

/** A remembered answer (JSON) and the request (a caller-made fingerprint) it answered. */
export interface StoredResponse {
  request: string;
  body: string;
}

export interface LedgerOptions {
  /**
   * 'normal' (default): WAL + synchronous=NORMAL. A committed transaction is in the WAL file (in the
   * OS page cache) before COMMIT returns, so a SIGKILLed gateway loses nothing it acknowledged; only
   * an OS crash or power cut could drop the last few commits. 'full' also fsyncs every commit.
   */
  durability?: 'normal' | 'full';
}

export class Ledger {
  readonly db: Database.Database;
  readonly file: string;

  private readonly s;
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

  constructor(dataDir: string, opts: LedgerOptions = {}) {
    mkdirSync(dataDir, { recursive: true });
    this.file = join(dataDir, LEDGER_FILE);
    const db = new Database(this.file);
    // Small pages for a new ledger (no effect on an existing file): a placement dirties about a
    // dozen pages, each appended whole to the WAL on commit, so 1 KiB pages write a quarter of the
    // bytes of the 4 KiB default (measured ~30% faster per order).
    db.pragma('page_size = 1024');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = OFF');
    db.pragma('busy_timeout = 5000');
    db.exec(LEDGER_DDL);
    for (const c of LEDGER_ADDED_COLUMNS) {
      const has = db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${c.table}')`)
        .all()
        .some((r) => r.name === c.column);
      if (!has) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.column} ${c.definition}`);
    }
    db.prepare(
      `INSERT INTO meta(key, value) VALUES ('schema_version', ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(String(LEDGER_SCHEMA_VERSION));
    this.db = db;
    this.tx = db.transaction((fn: () => unknown) => fn());

    this.s = {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      metaGet: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      metaSet: db.prepare<[string, string]>(
        'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ),
      accountGet: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE account = ?'),
      accountInsert: db.prepare<[string, number, number, number, number]>(
        `INSERT INTO accounts(account, capital, settled_day, created_ms, available, used_margin, realised)
         VALUES (?, ?, ?, ?, ?, 0, 0)`,
      ),
      accountAdjust: db.prepare<[number, number, number, string]>(
        `UPDATE accounts SET available = available + ?, used_margin = used_margin + ?, realised = realised + ?
         WHERE account = ?`,
      ),
      accountSettled: db.prepare<[number, string]>('UPDATE accounts SET settled_day = ? WHERE account = ?'),
      accountsAll: db.prepare<[], AccountRow>('SELECT * FROM accounts'),

      orderInsert: db.prepare<NewOrderRow>(
        `INSERT INTO orders(orderid, account, strategy, exchange, symbol, action, quantity, pricetype,
           product, price, trigger_price, disclosed_quantity, status, filled_quantity, fill_value,
           rejection_reason, margin_blocked, claimed, created_ms, updated_ms)
         VALUES (@orderid, @account, @strategy, @exchange, @symbol, @action, @quantity, @pricetype,
           @product, @price, @trigger_price, @disclosed_quantity, @status, @filled_quantity, @fill_value,
           @rejection_reason, @margin_blocked, @claimed, @created_ms, @updated_ms)`,
      ),
      orderUpdate: db.prepare<OrderRow>(
        `UPDATE orders SET quantity = @quantity, pricetype = @pricetype, price = @price,
           trigger_price = @trigger_price, disclosed_quantity = @disclosed_quantity, status = @status, filled_quantity = @filled_quantity, fill_value = @fill_value,
           margin_blocked = @margin_blocked, claimed = @claimed, rejection_reason = @rejection_reason,
           updated_ms = @updated_ms
         WHERE orderid = @orderid`,
      ),
      orderGet: db.prepare<[string, string], OrderRow>(
        'SELECT * FROM orders WHERE account = ? AND orderid = ?',
      ),
      ordersOf: db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE account = ? ORDER BY seq DESC'),
      ordersRecent: db.prepare<[string, number], OrderRow>(
        `SELECT * FROM orders WHERE account = ? AND (created_ms >= ? OR status IN ('open', 'trigger pending'))
         ORDER BY seq`,
      ),
      ordersActive: db.prepare<[], OrderRow>(
        `SELECT * FROM orders WHERE status IN ('open', 'trigger pending') ORDER BY seq`,
      ),
      ordersActiveCount: db.prepare<[], { n: number }>(
        `SELECT count(*) AS n FROM orders WHERE status IN ('open', 'trigger pending')`,
      ),
      maxOrderId: db.prepare<[string, string], { id: string | null }>(
        'SELECT max(orderid) AS id FROM orders WHERE orderid >= ? AND orderid < ?',
      ),

      tradeInsert: db.prepare<Omit<TradeRow, 'seq'>>(
        `INSERT INTO trades(tradeid, orderid, account, strategy, exchange, symbol, product, action,
           quantity, price, time_ms)
         VALUES (@tradeid, @orderid, @account, @strategy, @exchange, @symbol, @product, @action,
           @quantity, @price, @time_ms)`,
      ),
      tradesOf: db.prepare<[string], TradeRow>('SELECT * FROM trades WHERE account = ? ORDER BY seq DESC'),
      maxTradeSeq: db.prepare<[], { n: number | null }>('SELECT max(seq) AS n FROM trades'),

      positionGet: db.prepare<[string, string, string, string], PositionRow>(
        'SELECT * FROM positions WHERE account = ? AND exchange = ? AND symbol = ? AND product = ?',
      ),
      positionPut: db.prepare<PositionRow>(
        `INSERT INTO positions(account, exchange, symbol, product, quantity, cost, realised, margin, updated_ms)
         VALUES (@account, @exchange, @symbol, @product, @quantity, @cost, @realised, @margin, @updated_ms)
         ON CONFLICT(account, exchange, symbol, product) DO UPDATE SET quantity = excluded.quantity,
           cost = excluded.cost, realised = excluded.realised, margin = excluded.margin,
           updated_ms = excluded.updated_ms`,
      ),
      positionsOf: db.prepare<[string], PositionRow>(
        'SELECT * FROM positions WHERE account = ? ORDER BY exchange, symbol, product',
      ),
      cncLongPositions: db.prepare<[string], PositionRow>(
        `SELECT * FROM positions WHERE account = ? AND product = 'CNC' AND quantity > 0`,
      ),

      strategyAdd: db.prepare<[string, string, string, string, string, number]>(
        `INSERT INTO strategy_positions(account, strategy, exchange, symbol, product, quantity)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(account, strategy, exchange, symbol, product)
         DO UPDATE SET quantity = quantity + excluded.quantity`,
      ),
      strategyGet: db.prepare<[string, string, string, string, string], { quantity: number }>(
        `SELECT quantity FROM strategy_positions
         WHERE account = ? AND strategy = ? AND exchange = ? AND symbol = ? AND product = ?`,
      ),
      strategyOf: db.prepare<
        [string, string],
        { exchange: string; symbol: string; product: Product; quantity: number }
      >(
        `SELECT exchange, symbol, product, quantity FROM strategy_positions
         WHERE account = ? AND strategy = ? AND quantity != 0 ORDER BY exchange, symbol, product`,
      ),

      holdingGet: db.prepare<[string, string, string], HoldingRow>(
        'SELECT * FROM holdings WHERE account = ? AND exchange = ? AND symbol = ?',
      ),
      holdingPut: db.prepare<HoldingRow>(
        `INSERT INTO holdings(account, exchange, symbol, quantity, cost, updated_ms)
         VALUES (@account, @exchange, @symbol, @quantity, @cost, @updated_ms)
         ON CONFLICT(account, exchange, symbol) DO UPDATE SET quantity = excluded.quantity,
           cost = excluded.cost, updated_ms = excluded.updated_ms`,
      ),
      holdingsOf: db.prepare<[string], HoldingRow>(
        'SELECT * FROM holdings WHERE account = ? AND quantity != 0 ORDER BY exchange, symbol',
      ),

      movementInsert: db.prepare<[string, number, string, number, string]>(
        'INSERT INTO fund_movements(account, time_ms, kind, amount, ref) VALUES (?, ?, ?, ?, ?)',
      ),

      totals: db.prepare<[string, string, string, string, string], FundTotals>(
        `SELECT
           (SELECT coalesce(sum(realised), 0) FROM positions WHERE account = ?) AS realised,
           (SELECT coalesce(sum(margin), 0) FROM positions WHERE account = ?) AS positionMargin,
           (SELECT coalesce(sum(margin_blocked), 0) FROM orders
              WHERE account = ? AND status IN ('open', 'trigger pending')) AS orderMargin,
           (SELECT coalesce(sum(cost), 0) FROM holdings WHERE account = ?) AS holdingsCost,
           (SELECT coalesce(sum(amount), 0) FROM fund_movements WHERE account = ?) AS movements`,
      ),

      responseGet: db.prepare<[string, string], StoredResponse>(
        'SELECT request, body FROM responses WHERE account = ? AND request_id = ?',
      ),
      responseInsert: db.prepare<[string, string, string, string, number]>(
        'INSERT INTO responses(account, request_id, request, body, created_ms) VALUES (?, ?, ?, ?, ?)',
      ),
    };
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
    return seq;
  }
  updateOrder(row: OrderRow): void {
    this.s.orderUpdate.run(row);
    const cached = this.recentCache.get(row.account)?.rows.get(row.orderid);
    if (cached) {
      // The columns orderUpdate writes.
      cached.quantity = row.quantity;
      cached.pricetype = row.pricetype;
      cached.price = row.price;
      cached.disclosed_quantity = row.disclosed_quantity;
      cached.trigger_price = row.trigger_price;
      cached.status = row.status;
      cached.filled_quantity = row.filled_quantity;
      cached.fill_value = row.fill_value;
      cached.margin_blocked = row.margin_blocked;
      cached.claimed = row.claimed;
      cached.rejection_reason = row.rejection_reason;
      cached.updated_ms = row.updated_ms;
    }
  }
  /**
   * An account's orders created at or after `sinceMs`, plus any still active, newest first (and
   * possibly more: callers filter). Rows are shared with the cache: do not mutate.
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
  strategyExposure(
    account: string,
    strategy: string,
  ): { exchange: string; symbol: string; product: Product; quantity: number }[] {
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

  /** Empties every book (orders, trades, positions, holdings, journal, responses) and restores capital. */
  clearBooks(capital: number, settledDay: number): void {
    this.db
      .exec(`DELETE FROM orders; DELETE FROM trades; DELETE FROM positions; DELETE FROM strategy_positions;
      DELETE FROM holdings; DELETE FROM fund_movements; DELETE FROM responses;`);
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
