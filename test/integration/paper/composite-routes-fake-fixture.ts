// The shared setup of the composite-routes-fake-*.test.ts files: the composite routes over an in-
// memory fake engine, fresh for each test, and helpers that post and set up positions.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import type { Action } from '../../../src-main/contract/index.js';
import { compositeRoutes } from '../../../src-main/paper/http/routes/composite.js';
import { FakeEngine, fakeServer } from '../../support/composite-fake-engine.js';

export let engine: FakeEngine;
export let app: FastifyInstance;

/** A fresh fake engine behind the composite routes for each test (the exports above follow it). */
export function useFakeEngineServer(): void {
  beforeEach(async () => {
    engine = new FakeEngine();
    app = await fakeServer(compositeRoutes(engine));
  });
  afterEach(async () => {
    await app.close();
  });
}

export async function post(path: string, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: `/api/v1/${path}`, payload: body });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

export function fill(action: Action, quantity: number, strategy = 'Setup', symbol = 'SBIN', account = 'A') {
  const r = engine.placeOrder(account, {
    strategy,
    exchange: 'NSE',
    symbol,
    action,
    quantity,
    pricetype: 'MARKET',
    product: 'MIS',
    price: 0,
    trigger_price: 0,
    disclosed_quantity: 0,
  });
  if (!r.ok) throw new Error(r.message);
}

export function rest(pricetype: 'LIMIT' | 'SL', strategy: string) {
  const r = engine.placeOrder('A', {
    strategy,
    exchange: 'NSE',
    symbol: 'SBIN',
    action: 'BUY',
    quantity: 1,
    pricetype,
    product: 'MIS',
    price: 90,
    trigger_price: pricetype === 'SL' ? 91 : 0,
    disclosed_quantity: 0,
  });
  if (!r.ok) throw new Error(r.message);
  return r.value.orderid;
}

export const net = () => engine.positions('A').find((p) => p.symbol === 'SBIN')?.quantity ?? 0;
