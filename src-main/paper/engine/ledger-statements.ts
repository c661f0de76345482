// The ledger's prepared statements, one per query, compiled once per connection.
import type Database from 'better-sqlite3';
import type { StrategyExposure } from './engine.js';
import type {
  AccountRow,
  FundTotals,
  HoldingRow,
  NewOrderRow,
  OrderRow,
  PositionRow,
  StoredResponse,
  TradeRow,
} from './ledger-rows.js';

export type LedgerStatements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: Database.Database) {
  return {
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
    strategyOf: db.prepare<[string, string], StrategyExposure>(
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
