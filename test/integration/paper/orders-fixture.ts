// The shared setup of the orders-*.test.ts files: one engine gateway per file and small helpers
// for placing orders and reading the order book, funds and positions over HTTP.
import { expect } from 'vitest';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { useEngineGateway, tickRound, type HttpResult } from '../../support/paper-gateway.js';

export type Fields = Record<string, unknown>;

export interface OrderRow {
  orderid: string;
  order_status: string;
  quantity: number;
  filled_quantity: number;
  pending_quantity: number;
  average_price: number;
  price: number;
  trigger_price: number;
  rejection_reason: string;
  timestamp: string;
}

/** Paise of a two-decimal string, to compare money exactly. */
export const paise = (s: unknown): number => Math.round(Number(s) * 100);
export const show = (n: number): string => String(Number(n.toFixed(4)));

/** Starts the file's engine gateway (beforeAll/afterAll) and returns it with helpers bound to it. */
export function useOrdersGateway() {
  const gw = useEngineGateway();

  function firstFuture(exchange = 'NFO'): Instrument {
    const i = gw.gateway.master.all.find((x) => x.exchange === exchange && x.kind === 'FUT');
    if (!i) throw new Error('no future');
    return i;
  }
  const place = (key: string, f: Fields): Promise<HttpResult> =>
    gw.api('placeorder', key, { strategy: 'test', exchange: 'NSE', action: 'BUY', ...f });
  async function status(key: string, orderid: string): Promise<OrderRow> {
    const r = await gw.api('orderstatus', key, { strategy: 'test', orderid });
    expect(r.status).toBe(200);
    return r.body.data as OrderRow;
  }
  async function funds(key: string): Promise<Record<string, string>> {
    return (await gw.api('funds', key)).body.data as Record<string, string>;
  }
  async function positions(key: string): Promise<Record<string, unknown>[]> {
    return (await gw.api('positionbook', key)).body.data as Record<string, unknown>[];
  }
  async function orderbook(key: string): Promise<{ orders: OrderRow[]; statistics: Record<string, number> }> {
    return (await gw.api('orderbook', key)).body.data as {
      orders: OrderRow[];
      statistics: Record<string, number>;
    };
  }
  function ok(r: HttpResult): string {
    expect(r.status, r.text).toBe(200);
    return r.body.orderid as string;
  }
  const ltp = (i: Instrument): number => gw.gateway.market.lastPrice(i);
  function expectInvariants(): void {
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  }
  function firstOf(exchange: string, kind: Instrument['kind'], minLot = 1): Instrument {
    const i = gw.gateway.master.all.find(
      (x) => x.exchange === exchange && x.kind === kind && x.lotsize >= minLot,
    );
    if (!i) throw new Error(`no ${kind} on ${exchange}`);
    return i;
  }
  /** A price on the instrument's grid `pct` percent away from the last price (a BUY below it rests). */
  const away = (i: Instrument, pct: number): number => tickRound(i, ltp(i) * (1 + pct / 100));

  return {
    gw,
    firstFuture,
    place,
    status,
    funds,
    positions,
    orderbook,
    ok,
    ltp,
    expectInvariants,
    firstOf,
    away,
  };
}
