// What the positions view does not carry but the Positions pane shows: the strategy (from the day's
// orders that traded the instrument and product: the gateway's positions are per account) and the
// change % (from the quote the desk watches for each open position: the view has no previous close).
import type { OrderSnapshot, PositionView } from '@contract';

/** The strategies of the orders that filled for this position's instrument and product, sorted. */
export function strategiesOf(p: PositionView, orders: readonly OrderSnapshot[]): string[] {
  const product = p.product.toUpperCase();
  const found = new Set<string>();
  for (const o of orders) {
    if (
      o.filledQuantity > 0 &&
      o.strategy &&
      o.symbol === p.symbol &&
      o.exchange === p.exchange &&
      o.product.toUpperCase() === product
    )
      found.add(o.strategy);
  }
  return [...found].sort();
}

/** The instruments of the open positions, once each, in a stable order (one watch for them all). */
export function openInstruments(positions: readonly PositionView[]): { symbol: string; exchange: string }[] {
  const seen = new Map<string, { symbol: string; exchange: string }>();
  for (const p of positions)
    if (p.quantity !== 0) seen.set(`${p.exchange}:${p.symbol}`, { symbol: p.symbol, exchange: p.exchange });
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
}
