// The shared setup of the client-*.test.ts files: a gateway client over a scripted fetch and a
// manual clock, and the order and order book they send and answer.
import {
  ManualClock,
  createGatewayClient,
  type GatewayClientOptions,
} from '../../../src-main/gateway/index.js';
import { fakeFetch, type Handler } from '../../support/fake-fetch.js';

export const KEY = 'f3c2a1b0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2';
export const ORDER = {
  strategy: 'Ticket',
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 1,
  pricetype: 'MARKET',
  product: 'MIS',
} as const;
export const ORDER_BOOK = {
  status: 'success',
  data: {
    orders: [],
    statistics: {
      total_buy_orders: 0,
      total_sell_orders: 0,
      total_completed_orders: 0,
      total_open_orders: 0,
      total_rejected_orders: 0,
    },
  },
};

export function setup(handler: Handler, options: Partial<GatewayClientOptions> = {}) {
  const clock = new ManualClock(1_000_000);
  const fake = fakeFetch(clock, handler);
  const client = createGatewayClient({
    baseUrl: 'http://gateway.test/',
    getApiKey: () => KEY,
    fetch: fake.fetch,
    clock,
    random: () => 0.5,
    ...options,
  });
  return { clock, client, calls: fake.calls };
}
