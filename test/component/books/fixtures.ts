// Books for the books tests: an order row, an order book view with its statistics, a session
// snapshot of the paper profile.
import type {
  OrderSnapshot,
  OrdersView,
  PositionView,
  SessionSnapshot,
} from '../../../src-main/contract/index.js';

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

export function snapshot(over: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    profile: {
      id: 'paper',
      name: 'Paper (simulated)',
      kind: 'paper',
      baseUrl: '',
      strategy: 'OrderDesk',
      rateLimitPerSecond: 10,
      active: true,
      hasKey: true,
    },
    mode: 'paper',
    connection: 'connected',
    apiKey: { profileId: 'paper', present: true, backend: 'memory', persistent: false },
    alerts: { paused: false, muted: [], sticky: [] },
    orders: null,
    trades: null,
    positions: null,
    funds: null,
    seq: 10,
    ...over,
  };
}

export const flush = () => new Promise((r) => setTimeout(r, 0));
