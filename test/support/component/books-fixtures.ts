// Books for the books tests: an order row, an order book view with its statistics, and (from
// session.ts) a session snapshot of the paper profile.
import type { OrderSnapshot, OrdersView, PositionView } from '@contract';

let n = 0;
export function order(over: Partial<OrderSnapshot> = {}): OrderSnapshot {
  n += 1;
  return {
    orderid: `O${String(n).padStart(5, '0')}`,
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    pricetype: 'LIMIT',
    quantity: 10,
    filledQuantity: 0,
    price: 905.3,
    triggerPrice: 0,
    averagePrice: 0,
    status: 'open',
    strategy: 'OrderDesk',
    timestamp: `20-Nov-2025 09:15:${String(n % 60).padStart(2, '0')}`,
    ...over,
  };
}

export function ordersView(orders: OrderSnapshot[]): OrdersView {
  const count = (s: string) => orders.filter((o) => o.status === s).length;
  return {
    orders,
    statistics: {
      totalBuyOrders: orders.filter((o) => o.action === 'BUY').length,
      totalSellOrders: orders.filter((o) => o.action === 'SELL').length,
      totalCompletedOrders: count('complete'),
      totalOpenOrders: count('open'),
      totalRejectedOrders: count('rejected'),
    },
  };
}

export function position(over: Partial<PositionView> = {}): PositionView {
  return {
    symbol: 'SBIN',
    exchange: 'NSE',
    product: 'MIS',
    quantity: 10,
    averagePrice: 900,
    ltp: 905.3,
    mtm: 53,
    ...over,
  };
}

export { flush, snapshot } from './session';
