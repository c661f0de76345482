// The paper ledger's tables. Money columns are integers of ₹0.0001 (see units.ts); quantities are
// whole units. Every engine mutation writes these in one transaction (ledger.ts).
import type Database from 'better-sqlite3';
export const LEDGER_SCHEMA_VERSION = 5;

export const LEDGER_DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- One row per API key; capital is what a reset restores.
CREATE TABLE IF NOT EXISTS accounts (
  account     TEXT PRIMARY KEY,
  capital     INTEGER NOT NULL,
  -- IST day index up to which CNC positions have been settled into holdings.
  settled_day INTEGER NOT NULL,
  created_ms  INTEGER NOT NULL,
  -- Running balances kept with every movement, so funds and the margin check are O(1):
  -- available = capital + realised − order blocks − position margin − holdings cost.
  available   INTEGER NOT NULL,
  used_margin INTEGER NOT NULL,
  realised    INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS orders (
  seq               INTEGER PRIMARY KEY,
  orderid           TEXT NOT NULL UNIQUE,
  account           TEXT NOT NULL,
  strategy          TEXT NOT NULL,
  exchange          TEXT NOT NULL,
  symbol            TEXT NOT NULL,
  action            TEXT NOT NULL,
  quantity          INTEGER NOT NULL,
  pricetype         TEXT NOT NULL,
  product           TEXT NOT NULL,
  price             INTEGER NOT NULL,
  trigger_price     INTEGER NOT NULL,
  disclosed_quantity INTEGER NOT NULL,
  status            TEXT NOT NULL,
  filled_quantity   INTEGER NOT NULL,
  -- Σ fill quantity × fill price (units); average price = fill_value / filled_quantity.
  fill_value        INTEGER NOT NULL,
  rejection_reason  TEXT NOT NULL,
  -- Margin still blocked for the unfilled part.
  margin_blocked    INTEGER NOT NULL,
  -- Unfilled quantity that reduces an opposite position and so blocks nothing; no other working
  -- order of the same side may claim it too.
  claimed           INTEGER NOT NULL DEFAULT 0,
  created_ms        INTEGER NOT NULL,
  updated_ms        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_account ON orders(account, seq);
CREATE INDEX IF NOT EXISTS orders_active ON orders(status) WHERE status IN ('open', 'trigger pending');

CREATE TABLE IF NOT EXISTS trades (
  seq       INTEGER PRIMARY KEY,
  tradeid   TEXT NOT NULL UNIQUE,
  orderid   TEXT NOT NULL,
  account   TEXT NOT NULL,
  strategy  TEXT NOT NULL,
  exchange  TEXT NOT NULL,
  symbol    TEXT NOT NULL,
  product   TEXT NOT NULL,
  action    TEXT NOT NULL,
  quantity  INTEGER NOT NULL,
  price     INTEGER NOT NULL,
  time_ms   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS trades_by_account ON trades(account, seq);

-- Net position per (account, exchange, symbol, product). cost = signed quantity × average price
-- (units) of the open leg; realised accumulates since the last reset; margin is what the open leg
-- holds. Rows stay at quantity 0 once closed.
CREATE TABLE IF NOT EXISTS positions (
  account    TEXT NOT NULL,
  exchange   TEXT NOT NULL,
  symbol     TEXT NOT NULL,
  product    TEXT NOT NULL,
  quantity   INTEGER NOT NULL,
  cost       INTEGER NOT NULL,
  realised   INTEGER NOT NULL,
  margin     INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account, exchange, symbol, product)
);

-- Net filled quantity attributed to each strategy (Decision 8).
CREATE TABLE IF NOT EXISTS strategy_positions (
  account  TEXT NOT NULL,
  strategy TEXT NOT NULL,
  exchange TEXT NOT NULL,
  symbol   TEXT NOT NULL,
  product  TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  PRIMARY KEY (account, strategy, exchange, symbol, product)
);

-- Settled CNC shares; cost = quantity × average price (units).
CREATE TABLE IF NOT EXISTS holdings (
  account    TEXT NOT NULL,
  exchange   TEXT NOT NULL,
  symbol     TEXT NOT NULL,
  quantity   INTEGER NOT NULL,
  cost       INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account, exchange, symbol)
);

-- Journal of every change to available cash: amount > 0 frees cash, < 0 uses it.
CREATE TABLE IF NOT EXISTS fund_movements (
  seq     INTEGER PRIMARY KEY,
  account TEXT NOT NULL,
  time_ms INTEGER NOT NULL,
  kind    TEXT NOT NULL,
  amount  INTEGER NOT NULL,
  ref     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS fund_movements_by_account ON fund_movements(account);

-- First answer per request id (hosted closeposition replays it), with the request it answered so
-- a reused id carrying another request is refused instead of replayed.
CREATE TABLE IF NOT EXISTS responses (
  account    TEXT NOT NULL,
  request_id TEXT NOT NULL,
  request    TEXT NOT NULL DEFAULT '',
  body       TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (account, request_id)
);

-- GTT orders (version 5): a resting trigger per row with its one or two legs as JSON
-- ([{trigger_price, direction, action, quantity, price, pricetype, product, triggered_order_id}],
-- prices in units). margin_blocked is held while status is 'active' and is 0 otherwise.
CREATE TABLE IF NOT EXISTS gtts (
  seq            INTEGER PRIMARY KEY,
  trigger_id     TEXT NOT NULL UNIQUE,
  account        TEXT NOT NULL,
  strategy       TEXT NOT NULL,
  trigger_type   TEXT NOT NULL,
  exchange       TEXT NOT NULL,
  symbol         TEXT NOT NULL,
  status         TEXT NOT NULL,
  last_price     INTEGER NOT NULL,
  margin_blocked INTEGER NOT NULL,
  legs           TEXT NOT NULL,
  created_ms     INTEGER NOT NULL,
  updated_ms     INTEGER NOT NULL,
  expires_ms     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS gtts_by_account ON gtts(account, seq);
CREATE INDEX IF NOT EXISTS gtts_active ON gtts(status) WHERE status = 'active';
`;

/** Columns added since version 2, for ledgers created before them (ALTER TABLE when missing). */
export const LEDGER_ADDED_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'orders', column: 'claimed', definition: 'INTEGER NOT NULL DEFAULT 0' },
  { table: 'responses', column: 'request', definition: "TEXT NOT NULL DEFAULT ''" },
];

/** Creates the tables of a new ledger, or brings an older one up to this version. */
export function createOrMigrate(db: Database.Database): void {
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
}
