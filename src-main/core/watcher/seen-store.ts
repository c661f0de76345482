// What the watcher has already reported, per profile, in SQLite (dataDir/watcher.db), so a core
// restart neither repeats old fills nor misses the ones made while it was down.
import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files.js';
import { openOrSalvage, type SqliteRecovery } from '../sqlite-salvage.js';
import type { SeenOrder } from './order-diff.js';

export interface SeenState {
  /** Undefined until the first order book was read (the baseline). */
  orders: Map<string, SeenOrder> | undefined;
  positions: Map<string, number> | undefined;
}

export interface SeenStore {
  load(profileId: string): SeenState;
  /** Stores changed orders; forgets old ones that are no longer in the book (`present`). */
  saveOrders(
    profileId: string,
    updates: ReadonlyMap<string, SeenOrder>,
    nowMs: number,
    present: ReadonlySet<string>,
  ): void;
  savePositions(profileId: string, positions: ReadonlyMap<string, number>): void;
  /** What was done at open with a file SQLite called damaged (kept aside, rows copied); else undefined. */
  recovery?(): SqliteRecovery | undefined;
  close(): void;
}

export const WATCHER_DB = 'watcher.db';
/** Orders not seen in the book for this long are forgotten (order books are per day). */
const FORGET_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

interface OrderRow {
  orderid: string;
  status: string;
  filled: number;
  quantity: number;
  price: number;
  trigger_price: number;
}

const SCHEMA = `
    CREATE TABLE IF NOT EXISTS baselines (profile TEXT NOT NULL, book TEXT NOT NULL, PRIMARY KEY (profile, book));
    CREATE TABLE IF NOT EXISTS seen_orders (
      profile TEXT NOT NULL, orderid TEXT NOT NULL, status TEXT NOT NULL, filled REAL NOT NULL,
      quantity REAL NOT NULL, price REAL NOT NULL, trigger_price REAL NOT NULL, seen_ms INTEGER NOT NULL,
      PRIMARY KEY (profile, orderid));
    CREATE TABLE IF NOT EXISTS seen_positions (
      profile TEXT NOT NULL, key TEXT NOT NULL, quantity REAL NOT NULL, PRIMARY KEY (profile, key));
  `;

function openDb(path: string): Database.Database {
  ensurePrivateFile(path);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    // A file cut short can open cleanly and fail at the first read of a lost page; the store is small,
    // so it is checked whole before use. Typed as SQLite types it, for openOrSalvage.
    if (db.pragma('quick_check', { simple: true }) !== 'ok')
      throw Object.assign(new Error(`${path} failed its integrity check`), { code: 'SQLITE_CORRUPT' });
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

export function openSeenStore(path: string): SeenStore {
  // A damaged file (truncated, not a database) must not stop the core: kept aside, what it still
  // yields copied into a fresh one.
  const { db, recovery } = openOrSalvage(
    path,
    openDb,
    ['baselines', 'seen_orders', 'seen_positions'],
    Date.now(),
  );
  const hasBaseline = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM baselines WHERE profile = ? AND book = ?',
  );
  const setBaseline = db.prepare('INSERT OR IGNORE INTO baselines (profile, book) VALUES (?, ?)');
  const orderRows = db.prepare<[string], OrderRow>(
    'SELECT orderid, status, filled, quantity, price, trigger_price FROM seen_orders WHERE profile = ?',
  );
  const upsertOrder = db.prepare(
    `INSERT INTO seen_orders (profile, orderid, status, filled, quantity, price, trigger_price, seen_ms)
     VALUES (@profile, @orderid, @status, @filled, @quantity, @price, @trigger_price, @seen_ms)
     ON CONFLICT (profile, orderid) DO UPDATE SET status = excluded.status, filled = excluded.filled,
       quantity = excluded.quantity, price = excluded.price, trigger_price = excluded.trigger_price,
       seen_ms = excluded.seen_ms`,
  );
  const stale = db.prepare<[string, number], { orderid: string }>(
    'SELECT orderid FROM seen_orders WHERE profile = ? AND seen_ms < ?',
  );
  const forget = db.prepare('DELETE FROM seen_orders WHERE profile = ? AND orderid = ?');
  const positionRows = db.prepare<[string], { key: string; quantity: number }>(
    'SELECT key, quantity FROM seen_positions WHERE profile = ?',
  );
  const clearPositions = db.prepare('DELETE FROM seen_positions WHERE profile = ?');
  const insertPosition = db.prepare('INSERT INTO seen_positions (profile, key, quantity) VALUES (?, ?, ?)');

  const saveOrders = db.transaction(
    (
      profile: string,
      updates: ReadonlyMap<string, SeenOrder>,
      nowMs: number,
      present: ReadonlySet<string>,
    ) => {
      setBaseline.run(profile, 'orders');
      for (const [orderid, s] of updates)
        upsertOrder.run({
          profile,
          orderid,
          status: s.status,
          filled: s.filled,
          quantity: s.quantity,
          price: s.price,
          trigger_price: s.triggerPrice,
          seen_ms: nowMs,
        });
      for (const { orderid } of stale.all(profile, nowMs - FORGET_AFTER_MS))
        if (!present.has(orderid)) forget.run(profile, orderid);
    },
  );
  const savePositions = db.transaction((profile: string, positions: ReadonlyMap<string, number>) => {
    setBaseline.run(profile, 'positions');
    clearPositions.run(profile);
    for (const [key, quantity] of positions) if (quantity !== 0) insertPosition.run(profile, key, quantity);
  });

  return {
    load(profileId) {
      const orders = hasBaseline.get(profileId, 'orders')
        ? new Map(
            orderRows.all(profileId).map((r) => [
              r.orderid,
              {
                status: r.status,
                filled: r.filled,
                quantity: r.quantity,
                price: r.price,
                triggerPrice: r.trigger_price,
              },
            ]),
          )
        : undefined;
      const positions = hasBaseline.get(profileId, 'positions')
        ? new Map(positionRows.all(profileId).map((r) => [r.key, r.quantity]))
        : undefined;
      return { orders, positions };
    },
    saveOrders: (profileId, updates, nowMs, present) => saveOrders(profileId, updates, nowMs, present),
    savePositions: (profileId, positions) => savePositions(profileId, positions),
    recovery: () => recovery,
    close: () => db.close(),
  };
}
