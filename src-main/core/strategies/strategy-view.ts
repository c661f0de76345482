// A strategy as the desk sees it: the stored legs with what their trades hold open, the entry
// average, and the P&L (realised, at the last prices, total) as rupee text, exact to the paisa.
import type {
  OrderSnapshot,
  StoredStrategy,
  StoredStrategyLeg,
  StrategyView,
  TradeRow,
} from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import { rupeeText } from './exact-money.js';
import { legPnl, strategyPnl, type LegPnl, type StrategyPnl } from './strategy-pnl.js';

/** The last price of an instrument the core knows, or null. */
export type PriceOf = (symbol: string, exchange: string) => number | null;

export const legKey = (l: { symbol: string; exchange: string }): string => `${l.exchange}:${l.symbol}`;

/** The trades of one leg: its own orders' and the exit basket's, in its contract, oldest first. */
export function legTrades(
  s: StoredStrategy,
  leg: StoredStrategyLeg,
  trades: readonly TradeRow[],
): TradeRow[] {
  const ids = new Set([...leg.orderids, ...(s.exit?.orderids ?? [])]);
  const mine = trades
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => ids.has(t.orderid) && t.symbol === leg.symbol && t.exchange === leg.exchange);
  // Oldest first: by time, then by order id (numeric ids grow), then as the book listed them.
  mine.sort(
    (a, b) =>
      a.t.timestamp.localeCompare(b.t.timestamp) ||
      a.t.orderid.localeCompare(b.t.orderid, undefined, { numeric: true }) ||
      a.i - b.i,
  );
  return mine.map(({ t }) => t);
}

/**
 * The strategy's orders whose fills the order book shows and the trade book does not hold yet (a
 * broker lists trades late, or their read failed): until it does, the legs' open units are not known
 * and nothing is closed, exited or forgotten by them.
 */
export function tradesBehind(
  s: StoredStrategy,
  orders: readonly OrderSnapshot[],
  trades: readonly TradeRow[],
): string[] {
  const ids = new Set([...s.legs.flatMap((l) => l.orderids), ...(s.exit?.orderids ?? [])]);
  const traded = new Map<string, number>();
  for (const t of trades)
    if (ids.has(t.orderid)) traded.set(t.orderid, (traded.get(t.orderid) ?? 0) + t.quantity);
  return orders
    .filter((o) => ids.has(o.orderid) && o.filledQuantity > (traded.get(o.orderid) ?? 0))
    .map((o) => o.orderid);
}

export interface Figures {
  legs: LegPnl[];
  total: StrategyPnl;
}

export function figuresOf(s: StoredStrategy, trades: readonly TradeRow[], priceOf: PriceOf): Figures {
  const legs = s.legs.map((l) =>
    legPnl(
      l.action,
      legTrades(s, l, trades).map((t) => ({ action: t.action, quantity: t.quantity, price: t.averagePrice })),
      priceOf(l.symbol, l.exchange),
    ),
  );
  return { legs, total: strategyPnl(legs) };
}

export function strategyView(s: StoredStrategy, f: Figures, priceOf: PriceOf): StrategyView {
  return {
    id: s.id,
    name: s.name,
    product: s.product,
    underlying: s.underlying,
    createdAt: formatIstIso(s.createdAt),
    state: s.state,
    legs: s.legs.map((l, i) => ({
      symbol: l.symbol,
      exchange: l.exchange,
      action: l.action,
      quantity: l.quantity,
      lotSize: l.lotSize,
      pricetype: l.pricetype,
      price: l.price,
      state: l.state,
      orderids: [...l.orderids],
      ...(l.reason !== undefined ? { reason: l.reason } : {}),
      open: f.legs[i]!.open,
      averagePrice: f.legs[i]!.entryAverage ? rupeeText(f.legs[i]!.entryAverage!) : null,
      ltp: priceOf(l.symbol, l.exchange),
    })),
    realised: rupeeText(f.total.realised),
    unrealised: f.total.unrealised ? rupeeText(f.total.unrealised) : null,
    pnl: f.total.pnl ? rupeeText(f.total.pnl) : null,
    ...(s.stop !== undefined ? { stop: s.stop } : {}),
    ...(s.target !== undefined ? { target: s.target } : {}),
    ...(s.exit
      ? {
          exit: {
            why: s.exit.why,
            at: formatIstIso(s.exit.at),
            ...(s.exit.pnl !== undefined ? { pnl: s.exit.pnl } : {}),
            orderids: [...s.exit.orderids],
            refused: [...s.exit.refused],
            ...(s.exit.note !== undefined ? { note: s.exit.note } : {}),
          },
        }
      : {}),
  };
}
