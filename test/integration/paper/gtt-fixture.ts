// The shared setup of the gtt-*.test.ts files: the live server's recorded GTT shapes, one engine
// gateway per file, and helpers that place, read and check GTT orders.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { GTT_ID_PATTERN, OPERATIONS } from '../../../src-main/contract/index.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import {
  tickRound,
  useEngineGateway,
  type EngineTestGateway,
  type HttpResult,
} from '../../support/paper-gateway.js';

export const RECORDED = JSON.parse(
  readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openalgo/live-gtt/recorded.json'),
    'utf8',
  ),
) as Record<string, { request: Record<string, unknown>; status: number; response: Record<string, unknown> }>;
export const recordedRow = ((RECORDED['gttorderbook/after_place']?.response.data as
  Record<string, unknown>[] | undefined) ?? [])[1] as Record<string, unknown>;
export const recordedLeg = (recordedRow.legs as Record<string, unknown>[])[0] as Record<string, unknown>;
export const sortedKeys = (o: object): string[] => Object.keys(o).sort();

export type Fields = Record<string, unknown>;
export interface GttRow {
  trigger_id: string;
  trigger_type: string;
  status: string;
  trigger_prices: number[];
  last_price: number;
  margin_blocked: number;
  legs: { action: string; price: number; quantity: number; triggered_order_id: string | null }[];
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export const ltp = (g: EngineTestGateway, i: Instrument): number => g.gateway.market.lastPrice(i);
export function movePrice(g: EngineTestGateway, i: Instrument, price: number): void {
  // From the clock's current second on (the clock stays, so the price is exactly this).
  g.gateway.market.setPrice(i, tickRound(i, price));
  expect(g.gateway.market.lastPrice(i)).toBe(tickRound(i, price));
}
export function expectInvariants(g: EngineTestGateway): void {
  expect(checkLedgerInvariants(g.engine.ledger.db)).toEqual([]);
}
export function accepted(r: HttpResult): string {
  expect(r.status, r.text).toBe(200);
  expect(sortedKeys(r.body)).toEqual(sortedKeys(RECORDED['placegttorder/oco_sell_cnc']?.response ?? {}));
  const parsed = OPERATIONS.placegttorder.response.parse(r.json);
  expect(parsed).toMatchObject({ status: 'success', mode: 'analyze' });
  expect(parsed.trigger_id).toMatch(GTT_ID_PATTERN);
  return parsed.trigger_id;
}
export async function book(g: EngineTestGateway, key: string, status?: string): Promise<GttRow[]> {
  const r = await g.api('gttorderbook', key, status ? { status } : {});
  expect(r.status, r.text).toBe(200);
  expect(r.body.mode).toBe('analyze');
  OPERATIONS.gttorderbook.response.parse(r.json);
  return r.body.data as GttRow[];
}
export async function funds(g: EngineTestGateway, key: string): Promise<{ cash: number; used: number }> {
  const d = (await g.api('funds', key)).body.data as Record<string, string>;
  return {
    cash: Math.round(Number(d.availablecash) * 100),
    used: Math.round(Number(d.utiliseddebits) * 100),
  };
}
export const paise = (rupees: number): number => Math.round(rupees * 100);

export function single(i: Instrument, trigger: number, f: Fields = {}): Fields {
  return {
    strategy: 'gtt-test',
    exchange: i.exchange,
    symbol: i.symbol,
    action: 'BUY',
    product: 'CNC',
    quantity: 1,
    pricetype: 'LIMIT',
    trigger_type: 'SINGLE',
    price: trigger,
    triggerprice_sl: trigger,
    ...f,
  };
}
export function future(g: EngineTestGateway): Instrument {
  const i = g.gateway.master.all.find((x) => x.exchange === 'NFO' && x.kind === 'FUT');
  if (!i) throw new Error('no future');
  return i;
}

/** Starts the file's engine gateway (beforeAll/afterAll); returns it and the OCO order fields at its prices. */
export function useGttGateway() {
  const gw = useEngineGateway();
  function oco(i: Instrument, lot: number, sl: number, tg: number, f: Fields = {}): Fields {
    return {
      strategy: 'gtt-test',
      exchange: i.exchange,
      symbol: i.symbol,
      action: 'SELL',
      product: 'NRML',
      quantity: lot,
      pricetype: 'LIMIT',
      trigger_type: 'OCO',
      price: tickRound(i, ltp(gw, i)),
      triggerprice_sl: sl,
      stoploss: tickRound(i, sl * 0.99),
      triggerprice_tg: tg,
      target: tickRound(i, tg * 1.01),
      ...f,
    };
  }
  return { gw, oco };
}
