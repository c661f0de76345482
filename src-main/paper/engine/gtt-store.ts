// The paper ledger's GTT rows (table gtts of ledger-schema.ts): reads and writes, legs kept as JSON.
// Prices and margin are integers of ₹0.0001 (units.ts), as everywhere in the ledger. Writes run
// inside the engine's transactions, so a GTT, its margin movement and a triggered order commit
// together or not at all.
import type Database from 'better-sqlite3';
import type { Action, Product } from '../../contract/index.js';

export type GttStatus = 'active' | 'triggered' | 'cancelled' | 'rejected' | 'expired';

/** One leg: the order it places once the price reaches its trigger from `direction`'s side. */
export interface GttLegRow {
  /** Units. */
  trigger_price: number;
  /** 'below': fires when the price falls to the trigger (stoploss); 'above': when it rises to it. */
  direction: 'below' | 'above';
  action: Action;
  quantity: number;
  /** Limit price in units; 0 for MARKET. */
  price: number;
  pricetype: 'LIMIT' | 'MARKET';
  product: Product;
  triggered_order_id: string | null;
}

export interface GttRow {
  trigger_id: string;
  account: string;
  strategy: string;
  trigger_type: 'single' | 'two-leg';
  exchange: string;
  symbol: string;
  status: GttStatus;
  /** Units: the last price when placed or last modified. */
  last_price: number;
  /** Units held while active. */
  margin_blocked: number;
  legs: GttLegRow[];
  created_ms: number;
  updated_ms: number;
  expires_ms: number;
}

type Stored = Omit<GttRow, 'legs'> & { legs: string };

const COLUMNS =
  'trigger_id, account, strategy, trigger_type, exchange, symbol, status, last_price, margin_blocked, legs, created_ms, updated_ms, expires_ms';

const fromStored = (r: Stored): GttRow => ({ ...r, legs: JSON.parse(r.legs) as GttLegRow[] });

export class GttStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      insert: db.prepare<[Stored]>(
        `INSERT INTO gtts (${COLUMNS}) VALUES (@trigger_id, @account, @strategy, @trigger_type, @exchange,
           @symbol, @status, @last_price, @margin_blocked, @legs, @created_ms, @updated_ms, @expires_ms)`,
      ),
      update: db.prepare<[Stored]>(
        `UPDATE gtts SET status = @status, last_price = @last_price, margin_blocked = @margin_blocked,
           legs = @legs, updated_ms = @updated_ms WHERE trigger_id = @trigger_id`,
      ),
      get: db.prepare<[string, string], Stored>(
        `SELECT ${COLUMNS} FROM gtts WHERE account = ? AND trigger_id = ?`,
      ),
      exists: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM gtts WHERE trigger_id = ?'),
      ofAccount: db.prepare<[string], Stored>(
        `SELECT ${COLUMNS} FROM gtts WHERE account = ? ORDER BY seq DESC`,
      ),
      activeOfAccount: db.prepare<[string], Stored>(
        `SELECT ${COLUMNS} FROM gtts WHERE account = ? AND status = 'active' ORDER BY seq DESC`,
      ),
      active: db.prepare<[], Stored>(`SELECT ${COLUMNS} FROM gtts WHERE status = 'active' ORDER BY seq`),
      activeCount: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM gtts WHERE status = 'active'"),
    };
  }

  insert(row: GttRow): void {
    this.s.insert.run({ ...row, legs: JSON.stringify(row.legs) });
  }

  update(row: GttRow): void {
    this.s.update.run({ ...row, legs: JSON.stringify(row.legs) });
  }

  get(account: string, triggerId: string): GttRow | undefined {
    const r = this.s.get.get(account, triggerId);
    return r ? fromStored(r) : undefined;
  }

  exists(triggerId: string): boolean {
    return (this.s.exists.get(triggerId)?.n ?? 0) > 0;
  }

  /** An account's GTTs, newest first: the active ones, or all. */
  list(account: string, filter: 'active' | 'all'): GttRow[] {
    return (filter === 'all' ? this.s.ofAccount : this.s.activeOfAccount).all(account).map(fromStored);
  }

  /** Every account's active GTTs, oldest first (the order they are checked in). */
  active(): GttRow[] {
    return this.s.active.all().map(fromStored);
  }

  activeCount(): number {
    return this.s.activeCount.get()?.n ?? 0;
  }
}
