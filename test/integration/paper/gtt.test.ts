// GTT orders over real HTTP against the embedded paper gateway (ManualClock): placegttorder,
// modifygttorder, cancelgttorder and gttorderbook in the live server's recorded shapes
// (test/fixtures/openalgo/live-gtt), triggered by the simulator's price, durable across a restart.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GTT_ID_PATTERN, OPERATIONS } from '../../../src-main/contract/index.js';
import type { PaperOrder } from '../../../src-main/paper/engine/engine.js';
import { engineExtension } from '../../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import { startPaperGateway } from '../../../src-main/paper/gateway.js';
import { systemClock } from '../../../src-main/paper/market/index.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import {
  startEngineGateway,
  tickRound,
  useEngineGateway,
  type EngineTestGateway,
  type HttpResult,
} from '../../support/paper-gateway.js';

const RECORDED = JSON.parse(
  readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openalgo/live-gtt/recorded.json'),
    'utf8',
  ),
) as Record<string, { request: Record<string, unknown>; status: number; response: Record<string, unknown> }>;
const recordedRow = ((RECORDED['gttorderbook/after_place']?.response.data as
  Record<string, unknown>[] | undefined) ?? [])[1] as Record<string, unknown>;
const recordedLeg = (recordedRow.legs as Record<string, unknown>[])[0] as Record<string, unknown>;
const sortedKeys = (o: object): string[] => Object.keys(o).sort();

const gw = useEngineGateway();

type Fields = Record<string, unknown>;
interface GttRow {
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

const ltp = (g: EngineTestGateway, i: Instrument): number => g.gateway.market.lastPrice(i);
function movePrice(g: EngineTestGateway, i: Instrument, price: number): void {
  // From the clock's current second on (the clock stays, so the price is exactly this).
  g.gateway.market.setPrice(i, tickRound(i, price));
  expect(g.gateway.market.lastPrice(i)).toBe(tickRound(i, price));
}
function expectInvariants(g: EngineTestGateway): void {
  expect(checkLedgerInvariants(g.engine.ledger.db)).toEqual([]);
}
function accepted(r: HttpResult): string {
  expect(r.status, r.text).toBe(200);
  expect(sortedKeys(r.body)).toEqual(sortedKeys(RECORDED['placegttorder/oco_sell_cnc']?.response ?? {}));
  const parsed = OPERATIONS.placegttorder.response.parse(r.json);
  expect(parsed).toMatchObject({ status: 'success', mode: 'analyze' });
  expect(parsed.trigger_id).toMatch(GTT_ID_PATTERN);
  return parsed.trigger_id;
}
async function book(g: EngineTestGateway, key: string, status?: string): Promise<GttRow[]> {
  const r = await g.api('gttorderbook', key, status ? { status } : {});
  expect(r.status, r.text).toBe(200);
  expect(r.body.mode).toBe('analyze');
  OPERATIONS.gttorderbook.response.parse(r.json);
  return r.body.data as GttRow[];
}
async function funds(g: EngineTestGateway, key: string): Promise<{ cash: number; used: number }> {
  const d = (await g.api('funds', key)).body.data as Record<string, string>;
  return {
    cash: Math.round(Number(d.availablecash) * 100),
    used: Math.round(Number(d.utiliseddebits) * 100),
  };
}
const paise = (rupees: number): number => Math.round(rupees * 100);

function single(i: Instrument, trigger: number, f: Fields = {}): Fields {
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
function future(g: EngineTestGateway): Instrument {
  const i = g.gateway.master.all.find((x) => x.exchange === 'NFO' && x.kind === 'FUT');
  if (!i) throw new Error('no future');
  return i;
}

describe('placegttorder and gttorderbook', () => {
  it('places a SINGLE, reserves its value, and lists it in the recorded row shape', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const trigger = tickRound(i, ltp(gw, i) * 0.95);
    const before = await funds(gw, key);
    const id = accepted(await gw.api('placegttorder', key, single(i, trigger)));

    const [row] = await book(gw, key);
    expect(sortedKeys(row ?? {})).toEqual(sortedKeys(recordedRow));
    expect(sortedKeys(row?.legs[0] ?? {})).toEqual(sortedKeys(recordedLeg));
    expect(row).toMatchObject({
      trigger_id: id,
      trigger_type: 'single',
      status: 'active',
      trigger_prices: [trigger],
      margin_blocked: trigger,
      legs: [
        {
          action: 'BUY',
          price: trigger,
          pricetype: 'LIMIT',
          product: 'CNC',
          quantity: 1,
          triggered_order_id: null,
        },
      ],
    });
    // ISO IST without a zone, expiring a year on.
    expect(row?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(row?.created_at.slice(0, 19)).toBe(
      new Date(gw.clock.now() + 19_800_000).toISOString().slice(0, 19),
    );
    const year = Date.parse(`${row?.expires_at ?? ''}Z`) - Date.parse(`${row?.created_at ?? ''}Z`);
    expect(year).toBe(365 * 86_400_000);

    const after = await funds(gw, key);
    expect(before.cash - after.cash).toBe(paise(trigger));
    expect(after.used - before.used).toBe(paise(trigger));
    expectInvariants(gw);
  });

  it('places an OCO as a two-leg row holding the larger leg', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const sl = tickRound(i, p * 0.95);
    const tg = tickRound(i, p * 1.05);
    const id = accepted(await gw.api('placegttorder', key, oco(i, i.lotsize, sl, tg)));
    const [row] = await book(gw, key);
    const target = tickRound(i, tg * 1.01);
    expect(row).toMatchObject({
      trigger_id: id,
      trigger_type: 'two-leg',
      trigger_prices: [sl, tg],
      legs: [
        { action: 'SELL', price: tickRound(i, sl * 0.99), triggered_order_id: null },
        { action: 'SELL', price: target, triggered_order_id: null },
      ],
    });
    // Futures at 10×: the target leg (the dearer one) over the leverage.
    expect(paise(row?.margin_blocked ?? 0)).toBe(Math.ceil(paise(target * i.lotsize) / 10));
    expectInvariants(gw);
  });

  it('refuses what the live server refuses, with the field named', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.9);
    const cases: [Fields, RegExp][] = [
      [single(i, t, { trigger_type: 'TRIPLE' }), /trigger_type must be 'SINGLE' or 'OCO'/],
      [single(i, t, { product: 'MIS' }), /GTT supports only CNC \(delivery\) or NRML/],
      [single(i, t, { trigger_type: 'OCO' }), /stoploss is required for OCO/],
      [single(i, t, { symbol: 'NOTASYMBOL' }), /Symbol NOTASYMBOL not found on NSE/],
      [single(i, t, { triggerprice_sl: 0 }), /needs a positive triggerprice_sl or triggerprice_tg/],
      [single(i, t + 0.01), /is not a multiple of tick size/],
      [single(i, t, { quantity: 0 }), /quantity must be a positive number/],
    ];
    for (const [fields, message] of cases) {
      const r = await gw.api('placegttorder', key, fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body).toMatchObject({ status: 'error' });
      expect(String(r.body.message)).toMatch(message);
    }
    const badFilter = await gw.api('gttorderbook', key, { status: 'cancelled' });
    expect(badFilter.status).toBe(400);
    expect(String(badFilter.body.message)).toMatch(/status must be one of: active, all/);
    const noId = await gw.api('cancelgttorder', key, { strategy: 'gtt-test' });
    expect(noId.status).toBe(400);
    expect(String(noId.body.message)).toMatch(/trigger_id is required/);
    expect(await book(gw, key, 'all')).toEqual([]);
  });
});

describe('triggering by price', () => {
  it('fires a SINGLE once the price falls to its trigger: an order in the book and the feed', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'ITC');
    const trigger = tickRound(i, ltp(gw, i) * 0.97);
    const before = await funds(gw, key);
    const id = accepted(await gw.api('placegttorder', key, single(i, trigger, { quantity: 3 })));
    const seen: PaperOrder[] = [];
    const stop = gw.engine.onOrderChange((o) => seen.push(o));
    try {
      movePrice(gw, i, trigger + i.tickSize);
      expect((await book(gw, key)).map((r) => r.trigger_id)).toEqual([id]);

      movePrice(gw, i, trigger - 2 * i.tickSize);
      expect(await book(gw, key)).toEqual([]);
      const [row] = await book(gw, key, 'all');
      expect(row).toMatchObject({ trigger_id: id, status: 'triggered', margin_blocked: 0 });
      const orderid = row?.legs[0]?.triggered_order_id;
      expect(orderid).toMatch(/^\d+$/);

      const orders = (await gw.api('orderbook', key)).body.data as { orders: Record<string, unknown>[] };
      expect(orders.orders).toHaveLength(1);
      expect(orders.orders[0]).toMatchObject({
        orderid,
        action: 'BUY',
        symbol: 'ITC',
        quantity: 3,
        pricetype: 'LIMIT',
        product: 'CNC',
        strategy: 'gtt-test',
      });
      // The price is through the limit: the order filled, and the desk's feed heard of it.
      expect(orders.orders[0]?.order_status).toBe('complete');
      expect(seen.filter((o) => o.orderid === orderid).map((o) => o.status)).toContain('complete');
    } finally {
      stop();
    }
    // The GTT's reservation went; the position holds the bought value instead.
    const after = await funds(gw, key);
    expect(before.used).toBe(0);
    expect(after.used).toBeGreaterThan(0);
    expectInvariants(gw);
  });

  it('fires the target leg of an OCO when the price rises, and drops the stoploss leg', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const sl = tickRound(i, p * 0.95);
    const tg = tickRound(i, p * 1.04);
    const id = accepted(await gw.api('placegttorder', key, oco(i, i.lotsize, sl, tg)));
    movePrice(gw, i, tg + i.tickSize);
    const [row] = await book(gw, key, 'all');
    expect(row).toMatchObject({ trigger_id: id, status: 'triggered', margin_blocked: 0 });
    expect(row?.legs[0]?.triggered_order_id).toBeNull();
    const orderid = row?.legs[1]?.triggered_order_id;
    const o = (await gw.api('orderstatus', key, { strategy: 'gtt-test', orderid })).body.data as Record<
      string,
      unknown
    >;
    expect(o).toMatchObject({ action: 'SELL', price: tickRound(i, tg * 1.01), quantity: i.lotsize });
    // The stoploss side no longer fires: one order only, however far the price then falls.
    movePrice(gw, i, sl * 0.9);
    const orders = (await gw.api('orderbook', key)).body.data as { orders: unknown[] };
    expect(orders.orders).toHaveLength(1);
    expectInvariants(gw);
  });
});

describe('modifygttorder and cancelgttorder', () => {
  it('modifies a SINGLE (trigger and quantity), moving the reservation by the difference', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.95);
    const id = accepted(await gw.api('placegttorder', key, single(i, t)));
    const before = await funds(gw, key);
    const t2 = tickRound(i, t * 0.98);
    const r = await gw.api('modifygttorder', key, single(i, t2, { trigger_id: id, quantity: 2 }));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ status: 'success', trigger_id: id, mode: 'analyze' });
    const [row] = await book(gw, key);
    expect(row).toMatchObject({ trigger_prices: [t2], margin_blocked: Number((t2 * 2).toFixed(4)) });
    expect(row?.legs[0]).toMatchObject({ quantity: 2, price: t2 });
    const after = await funds(gw, key);
    expect(before.cash - after.cash).toBe(paise(t2 * 2) - paise(t));
    expectInvariants(gw);
  });

  it('answers a refused modify with a 4xx and its reason, never a 500', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.95);
    const id = accepted(await gw.api('placegttorder', key, single(i, t)));
    const flip = await gw.api('modifygttorder', key, single(i, t, { trigger_id: id, action: 'SELL' }));
    expect(flip.status).toBe(400);
    expect(flip.body.message).toBe(
      'action cannot be changed on an existing GTT (BUY -> SELL). Cancel it and place a new one.',
    );
    const shape = await gw.api(
      'modifygttorder',
      key,
      oco(i, 1, t, t * 1.1, { trigger_id: id, action: 'BUY', product: 'CNC' }),
    );
    expect(shape.status).toBe(400);
    expect(String(shape.body.message)).toMatch(/trigger_type cannot be changed/);
    const unknown = await gw.api('modifygttorder', key, single(i, t, { trigger_id: 'GTT-261003-00000000' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      status: 'error',
      message: "No active GTT with trigger_id 'GTT-261003-00000000'",
      mode: 'analyze',
    });
    const poor = await gw.api('modifygttorder', key, single(i, t, { trigger_id: id, quantity: 15_000 }));
    expect(poor.status).toBe(400);
    expect(String(poor.body.message)).toMatch(/^Insufficient funds/);
    // A failed modify changes nothing.
    const [row] = await book(gw, key);
    expect(row).toMatchObject({
      trigger_prices: [t],
      margin_blocked: t,
      legs: [{ action: 'BUY', quantity: 1 }],
    });
    expectInvariants(gw);
  });

  it('cancels and releases everything reserved; a second cancel or modify is the recorded 404', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const before = await funds(gw, key);
    const id = accepted(
      await gw.api('placegttorder', key, oco(i, i.lotsize, tickRound(i, p * 0.9), tickRound(i, p * 1.1))),
    );
    // Modified first (the recorded server could no longer cancel an OCO after this).
    const mod = await gw.api(
      'modifygttorder',
      key,
      oco(i, 2 * i.lotsize, tickRound(i, p * 0.9), tickRound(i, p * 1.2), { trigger_id: id }),
    );
    expect(mod.status, mod.text).toBe(200);
    expect((await funds(gw, key)).cash).toBeLessThan(before.cash);

    const r = await gw.api('cancelgttorder', key, { strategy: 'gtt-test', trigger_id: id });
    expect(r.status, r.text).toBe(200);
    expect(sortedKeys(r.body)).toEqual(sortedKeys(RECORDED['cancelgttorder/single']?.response ?? {}));
    expect(r.body).toEqual({ status: 'success', trigger_id: id, mode: 'analyze' });
    expect(await funds(gw, key)).toEqual(before);
    const [row] = await book(gw, key, 'all');
    expect(row).toMatchObject({ trigger_id: id, status: 'cancelled', margin_blocked: 0 });
    expect(await book(gw, key)).toEqual([]);

    const again = await gw.api('cancelgttorder', key, { strategy: 'gtt-test', trigger_id: id });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      status: 'error',
      message: `No active GTT with trigger_id '${id}'`,
      mode: 'analyze',
    });
    const modify = await gw.api(
      'modifygttorder',
      key,
      oco(i, i.lotsize, p * 0.9, p * 1.1, { trigger_id: id }),
    );
    expect(modify.status).toBe(404);
    // Cancelled, it never fires.
    movePrice(gw, i, p * 0.8);
    expect(((await gw.api('orderbook', key)).body.data as { orders: unknown[] }).orders).toEqual([]);
    expectInvariants(gw);
  });

  it('keeps GTTs per account: another key cannot see or cancel them', async () => {
    const owner = gw.newKey();
    const other = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const id = accepted(await gw.api('placegttorder', owner, single(i, tickRound(i, ltp(gw, i) * 0.9))));
    expect(await book(gw, other, 'all')).toEqual([]);
    const r = await gw.api('cancelgttorder', other, { strategy: 'x', trigger_id: id });
    expect(r.status).toBe(404);
    expect((await book(gw, owner)).map((g) => g.trigger_id)).toEqual([id]);
  });
});

describe('a restart of the paper gateway', () => {
  it('keeps active GTTs active with their reservation, and they still trigger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-gtt-'));
    let g = await startEngineGateway({ dataDir });
    const key = g.apiKey;
    try {
      const i = future(g);
      const p = ltp(g, i);
      const sl = tickRound(i, p * 0.95);
      const tg = tickRound(i, p * 1.05);
      const ocoId = accepted(
        await g.api('placegttorder', key, { ...oco(i, i.lotsize, sl, tg), price: tickRound(i, p) }),
      );
      const s = g.instrument('NSE', 'SBIN');
      const singleId = accepted(await g.api('placegttorder', key, single(s, tickRound(s, ltp(g, s) * 0.9))));
      const cancelledId = accepted(
        await g.api('placegttorder', key, single(s, tickRound(s, ltp(g, s) * 0.8))),
      );
      expect((await g.api('cancelgttorder', key, { strategy: 'x', trigger_id: cancelledId })).status).toBe(
        200,
      );
      const rows = await book(g, key, 'all');
      const fundsBefore = await funds(g, key);

      await g.stop();
      g = await startEngineGateway({ dataDir, apiKey: key });

      expect(await book(g, key, 'all')).toEqual(rows);
      expect((await book(g, key)).map((r) => r.trigger_id).sort()).toEqual([ocoId, singleId].sort());
      expect(await funds(g, key)).toEqual(fundsBefore);

      // The OCO's stoploss fires on the restarted gateway's prices (its own master's instrument).
      const again = future(g);
      movePrice(g, again, sl - again.tickSize);
      const after = await book(g, key, 'all');
      const fired = after.find((r) => r.trigger_id === ocoId);
      expect(fired).toMatchObject({ status: 'triggered', margin_blocked: 0 });
      expect(fired?.legs[0]?.triggered_order_id).toMatch(/^\d+$/);
      expect(fired?.legs[1]?.triggered_order_id).toBeNull();
      expect(after.find((r) => r.trigger_id === singleId)?.status).toBe('active');
      const orders = (await g.api('orderbook', key)).body.data as { orders: { orderid: string }[] };
      expect(orders.orders.map((o) => o.orderid)).toEqual([fired?.legs[0]?.triggered_order_id]);
      expectInvariants(g);

      // A reset of the paper books (Settings, --reset) drops the GTTs with everything else.
      g.engine.reset();
      expect(await book(g, key, 'all')).toEqual([]);
      expect((await funds(g, key)).used).toBe(0);
      expectInvariants(g);
    } finally {
      await g.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('on the system clock', () => {
  it('fires on its timer, with no request to the gateway', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-gtt-rt-'));
    let engine: PaperTradingEngine | undefined;
    const gateway = await startPaperGateway({
      dataDir,
      clock: systemClock,
      extensions: [engineExtension({ tickMs: 20, onEngine: (e) => (engine = e) })],
    });
    try {
      const key = gateway.apiKey ?? '';
      const i = gateway.master.get('NSE', 'SBIN');
      if (!i || !engine) throw new Error('no SBIN or no engine');
      const p = gateway.market.lastPrice(i);
      const trigger = tickRound(i, p * 0.8);
      const r = await fetch(`${gateway.url}/api/v1/placegttorder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apikey: key, ...single(i, trigger) }),
      });
      expect(r.status).toBe(200);
      gateway.market.setPrice(i, tickRound(i, p * 0.7));
      const e = engine;
      const placed = await new Promise<PaperOrder | undefined>((resolve) => {
        const stop = e.onOrderChange((o) => {
          stop();
          resolve(o);
        });
        setTimeout(() => resolve(undefined), 3000);
      });
      expect(placed).toMatchObject({ symbol: 'SBIN', action: 'BUY', price: trigger });
    } finally {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
