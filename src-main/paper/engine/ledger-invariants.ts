// Consistency checks over a ledger database, used by tests and the crash test. Each returns a
// readable line per violation; an empty list means the books agree with themselves.
//  1. Position = Σ its trades: per (account, exchange, symbol, product), Σ signed trade quantity =
//     position quantity (+ settled holding quantity for CNC) and Σ trade cash flow
//     (−signed qty × price) = realised − cost (− holding cost for CNC).
//  2. Strategy attribution sums to the position: Σ strategy quantity = Σ signed trade quantity.
//  3. Orders agree with their trades: filled_quantity and fill_value = Σ of the order's trades;
//     finished orders block and claim nothing; filled ≤ quantity; claimed ≤ unfilled.
//  4. Funds identity: available (the account's running balance) = capital + Σ fund movements =
//     capital + realised − order blocks − GTT blocks − position margin − holdings cost; used margin =
//     order blocks + GTT blocks + position margin; realised = Σ position realised. Only an active
//     GTT blocks margin.
import type Database from 'better-sqlite3';

interface Agg {
  account: string;
  exchange: string;
  symbol: string;
  product: string;
  qty: number;
  flow: number;
}

export function checkLedgerInvariants(db: Database.Database): string[] {
  const bad: string[] = [];
  const trades = db
    .prepare<[], Agg>(
      `SELECT account, exchange, symbol, product,
         sum(CASE action WHEN 'BUY' THEN quantity ELSE -quantity END) AS qty,
         sum(CASE action WHEN 'BUY' THEN -quantity * price ELSE quantity * price END) AS flow
       FROM trades GROUP BY account, exchange, symbol, product`,
    )
    .all();
  const position = db.prepare<
    [string, string, string, string],
    { quantity: number; cost: number; realised: number }
  >(
    'SELECT quantity, cost, realised FROM positions WHERE account = ? AND exchange = ? AND symbol = ? AND product = ?',
  );
  const holding = db.prepare<[string, string, string], { quantity: number; cost: number }>(
    'SELECT quantity, cost FROM holdings WHERE account = ? AND exchange = ? AND symbol = ?',
  );
  const strategies = db.prepare<[string, string, string, string], { q: number | null }>(
    `SELECT sum(quantity) AS q FROM strategy_positions
     WHERE account = ? AND exchange = ? AND symbol = ? AND product = ?`,
  );
  for (const t of trades) {
    const key = `${t.account} ${t.exchange}:${t.symbol} ${t.product}`;
    const p = position.get(t.account, t.exchange, t.symbol, t.product) ?? {
      quantity: 0,
      cost: 0,
      realised: 0,
    };
    const h =
      t.product === 'CNC'
        ? (holding.get(t.account, t.exchange, t.symbol) ?? { quantity: 0, cost: 0 })
        : undefined;
    const qty = p.quantity + (h?.quantity ?? 0);
    if (qty !== t.qty) bad.push(`${key}: position quantity ${qty} ≠ Σ trades ${t.qty}`);
    const flow = p.realised - p.cost - (h?.cost ?? 0);
    if (flow !== t.flow) bad.push(`${key}: realised − cost ${flow} ≠ Σ trade cash flow ${t.flow}`);
    const s = strategies.get(t.account, t.exchange, t.symbol, t.product)?.q ?? 0;
    if (s !== t.qty) bad.push(`${key}: Σ strategy quantity ${s} ≠ Σ trades ${t.qty}`);
  }
  const orphanPositions = db
    .prepare<[], { n: number }>(
      `SELECT count(*) AS n FROM positions p WHERE (p.quantity != 0 OR p.realised != 0) AND NOT EXISTS
         (SELECT 1 FROM trades t WHERE t.account = p.account AND t.exchange = p.exchange
            AND t.symbol = p.symbol AND t.product = p.product)`,
    )
    .get();
  if (orphanPositions && orphanPositions.n > 0) bad.push(`${orphanPositions.n} positions have no trades`);

  const orders = db
    .prepare<
      [],
      {
        orderid: string;
        status: string;
        quantity: number;
        filled_quantity: number;
        fill_value: number;
        margin_blocked: number;
        claimed: number;
        tq: number | null;
        tv: number | null;
      }
    >(
      `SELECT o.orderid, o.status, o.quantity, o.filled_quantity, o.fill_value, o.margin_blocked, o.claimed,
         sum(t.quantity) AS tq, sum(t.quantity * t.price) AS tv
       FROM orders o LEFT JOIN trades t ON t.orderid = o.orderid GROUP BY o.orderid`,
    )
    .all();
  for (const o of orders) {
    if ((o.tq ?? 0) !== o.filled_quantity)
      bad.push(`order ${o.orderid}: filled ${o.filled_quantity} ≠ Σ trades ${o.tq ?? 0}`);
    if ((o.tv ?? 0) !== o.fill_value)
      bad.push(`order ${o.orderid}: fill value ${o.fill_value} ≠ Σ trades ${o.tv ?? 0}`);
    if (o.filled_quantity > o.quantity) bad.push(`order ${o.orderid}: overfilled`);
    const active = o.status === 'open' || o.status === 'trigger pending';
    if (!active && o.margin_blocked !== 0)
      bad.push(`order ${o.orderid} (${o.status}) still blocks ${o.margin_blocked}`);
    if (!active && o.claimed !== 0) bad.push(`order ${o.orderid} (${o.status}) still claims ${o.claimed}`);
    if (o.claimed < 0 || o.claimed > o.quantity - o.filled_quantity)
      bad.push(`order ${o.orderid}: claims ${o.claimed} of ${o.quantity - o.filled_quantity} unfilled`);
    if (o.status === 'complete' && o.filled_quantity !== o.quantity)
      bad.push(`order ${o.orderid}: complete but unfilled`);
  }

  const funds = db
    .prepare<
      [],
      {
        account: string;
        expected: number;
        journal: number;
        capital: number;
        available: number;
        used_margin: number;
        realised: number;
        used: number;
        realisedSum: number;
      }
    >(
      `SELECT a.account, a.capital, a.available, a.used_margin, a.realised,
         (SELECT coalesce(sum(margin), 0) FROM positions p WHERE p.account = a.account)
         + (SELECT coalesce(sum(margin_blocked), 0) FROM orders o
              WHERE o.account = a.account AND o.status IN ('open', 'trigger pending'))
         + (SELECT coalesce(sum(margin_blocked), 0) FROM gtts g WHERE g.account = a.account) AS used,
         (SELECT coalesce(sum(realised), 0) FROM positions p WHERE p.account = a.account) AS realisedSum,
         (SELECT coalesce(sum(realised), 0) - coalesce(sum(margin), 0) FROM positions p WHERE p.account = a.account)
         - (SELECT coalesce(sum(margin_blocked), 0) FROM orders o
              WHERE o.account = a.account AND o.status IN ('open', 'trigger pending'))
         - (SELECT coalesce(sum(cost), 0) FROM holdings h WHERE h.account = a.account)
         - (SELECT coalesce(sum(margin_blocked), 0) FROM gtts g WHERE g.account = a.account) AS expected,
         (SELECT coalesce(sum(amount), 0) FROM fund_movements f WHERE f.account = a.account) AS journal
       FROM accounts a`,
    )
    .all();
  const idleGtts = db
    .prepare<[], { trigger_id: string; status: string; margin_blocked: number }>(
      "SELECT trigger_id, status, margin_blocked FROM gtts WHERE status != 'active' AND margin_blocked != 0",
    )
    .all();
  for (const g of idleGtts) bad.push(`GTT ${g.trigger_id} (${g.status}) still blocks ${g.margin_blocked}`);

  for (const f of funds) {
    if (f.expected !== f.journal)
      bad.push(`account ${f.account}: funds identity ${f.expected} ≠ journal ${f.journal}`);
    // The running balances /funds reports must agree with the journal and the rows.
    if (f.available !== f.capital + f.journal)
      bad.push(`account ${f.account}: available ${f.available} ≠ capital + journal ${f.capital + f.journal}`);
    if (f.used_margin !== f.used)
      bad.push(`account ${f.account}: used margin ${f.used_margin} ≠ blocks + position margin ${f.used}`);
    if (f.realised !== f.realisedSum)
      bad.push(`account ${f.account}: realised ${f.realised} ≠ Σ position realised ${f.realisedSum}`);
  }
  return bad;
}
