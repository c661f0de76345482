// Reads and orders the core-level bracket tests share: the order book read fresh, the brackets the
// core shows, a MARKET entry through the router.
import type { BracketView, OrderSnapshot } from '../../src-main/contract/index.js';
import type { Harness } from './core-harness.js';

export { move } from './guard-harness.js';

/** The order book read fresh from the gateway, the rows of one symbol. */
export async function ordersOf(h: Harness, symbol: string): Promise<OrderSnapshot[]> {
  await h.core.pollNow();
  const r = await h.core.router.invoke('books.orders');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.orders.filter((o) => o.symbol === symbol);
}

export async function bracketsOf(h: Harness): Promise<BracketView[]> {
  const r = await h.core.router.invoke('protection.brackets');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.brackets;
}

/** A MARKET BUY on NSE through the router; its order id. */
export async function marketBuy(
  h: Harness,
  symbol: string,
  quantity: number,
  product: 'MIS' | 'CNC' = 'MIS',
): Promise<string> {
  const r = await h.core.router.invoke('orders.place', {
    symbol,
    exchange: 'NSE',
    action: 'BUY',
    quantity,
    pricetype: 'MARKET',
    product,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.orderid;
}
