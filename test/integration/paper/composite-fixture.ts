// The shared setup of the composite-*.test.ts files: one engine gateway per file and helpers that set up positions with real orders and read the books back.
import { expect } from 'vitest';
import { useEngineGateway, type HttpResult } from '../../support/paper-gateway.js';

export type Fields = Record<string, unknown>;
export type Action = 'BUY' | 'SELL';

export function ok(r: HttpResult): string {
  expect(r.status, r.text).toBe(200);
  expect(r.body.status, r.text).toBe('success');
  return r.body.orderid as string;
}
export interface OrderRow {
  orderid: string;
  order_status: string;
  quantity: number;
  action: string;
  pricetype: string;
  price: number;
  strategy?: string;
  symbol: string;
}

/** Starts the file's engine gateway (beforeAll/afterAll) and returns it with helpers bound to it. */
export function useCompositeGateway() {
  const gw = useEngineGateway();
  async function market(key: string, action: Action, quantity: number, strategy = 'setup', symbol = 'SBIN') {
    const id = ok(
      await gw.api('placeorder', key, {
        strategy,
        exchange: 'NSE',
        symbol,
        action,
        quantity,
        product: 'MIS',
      }),
    );
    expect((await orderStatus(key, id)).order_status).toBe('complete');
    return id;
  }
  async function orderStatus(key: string, orderid: string): Promise<OrderRow> {
    return (await gw.api('orderstatus', key, { strategy: 'x', orderid })).body.data as OrderRow;
  }
  async function orders(key: string): Promise<OrderRow[]> {
    return ((await gw.api('orderbook', key, {})).body.data as { orders: OrderRow[] }).orders;
  }
  async function net(key: string, symbol = 'SBIN'): Promise<number> {
    const rows = (await gw.api('positionbook', key, {})).body.data as { symbol: string; quantity: number }[];
    return rows.filter((r) => r.symbol === symbol).reduce((a, r) => a + Number(r.quantity), 0);
  }
  async function strategyQty(key: string, strategy: string, symbol = 'SBIN'): Promise<number> {
    const r = await gw.api('positionsopen', key, { strategy, symbol, exchange: 'NSE', product: 'MIS' });
    expect(r.status, r.text).toBe(200);
    return r.body.quantity as number;
  }
  async function modeVersion(key: string): Promise<number> {
    return ((await gw.api('analyzer', key, {})).body.data as { mode_version: number }).mode_version;
  }

  return { gw, market, orderStatus, orders, net, strategyQty, modeVersion };
}
