// The paper gateway's REST answers where the live server's recording (test/fixtures/openalgo/live)
// differs from what the spec let us infer: a wrong method is the unknown-route 404, daily candles are
// stamped 00:00 UTC of their date, the option batch answers carry the live keys, the sandbox extras
// (quote sizes, positionbook P&L fields and totals, `mode: "analyze"` on account, order and composite
// order answers), and multioptiongreeks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BasketOrderResponse,
  CancelAllOrderResponse,
  ClosePositionResponse,
  MultiOptionGreeksResponse,
  OptionsMultiOrderResponse,
  OptionsOrderResponse,
  PositionBookResponse,
  QuotesResponse,
  SmartOrderResponse,
  SplitOrderResponse,
} from '../../../src-main/contract/index.js';
import { createGatewayClient } from '../../../src-main/gateway/index.js';
import { useEngineGateway } from '../../support/paper-gateway.js';
import { FIXTURES } from '../../support/gateway-samples.js';

const REST = (
  JSON.parse(readFileSync(`${FIXTURES}/live/recorded.json`, 'utf8')) as {
    rest: Record<string, Record<string, unknown>>;
  }
).rest;
const rec = <T>(name: string) => REST[name] as T;

const gw = useEngineGateway();
const sorted = (o: object) => Object.keys(o).sort();
const NIFTY = { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: '01DEC26' };

describe('routing as the live server', () => {
  it('answers a wrong method on a known route with the unknown-route 404 body', async () => {
    for (const name of ['wrong_method_get_on_funds', 'wrong_method_put_on_ping']) {
      const c = rec<{ request: { method: string; path: string }; http_status: number; response: unknown }>(
        name,
      );
      const r = await gw.request(c.request.path, { method: c.request.method });
      expect(r.status).toBe(c.http_status);
      expect(r.json).toEqual(c.response);
      expect(r.headers.get('allow')).toBeNull();
    }
    const slash = await gw.request('/api/v1/depth/', { method: 'GET' });
    expect(slash.status).toBe(404);
    expect(slash.json).toEqual({ status: 'error', message: 'Not found', path: '/api/v1/depth/' });
  });
});

describe('daily candles', () => {
  it('stamps D bars in /history and /ticker at 00:00 UTC of their date; intraday bars unchanged', async () => {
    const rule = rec<{ date: string; timestamp: number }>('history_nifty_index_D');
    expect(Date.parse(`${rule.date}T00:00:00Z`) / 1000).toBe(rule.timestamp);
    const h = await gw.api('history', gw.apiKey, {
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: 'D',
      start_date: '2026-11-02',
      end_date: '2026-11-06',
    });
    const days = (h.body.data as { timestamp: number }[]).map((b) => b.timestamp);
    expect(days).toEqual(
      ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'].map(
        (d) => Date.parse(`${d}T00:00:00Z`) / 1000,
      ),
    );
    const t = await gw.get(
      `/api/v1/ticker/NSE:SBIN?apikey=${gw.apiKey}&interval=D&from=2026-11-02&to=2026-11-06`,
    );
    expect((t.body.data as { timestamp: number }[]).map((b) => b.timestamp)).toEqual(days);
    // The text form still names each bar's own date.
    const txt = await gw.get(
      `/api/v1/ticker/NSE:SBIN?apikey=${gw.apiKey}&interval=D&from=2026-11-02&to=2026-11-06&format=txt`,
    );
    expect(txt.text.split('\n').map((l) => l.split(',')[1])).toEqual([
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
    ]);
    const m = await gw.api('history', gw.apiKey, {
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: '5m',
      start_date: '2026-11-02',
      end_date: '2026-11-02',
    });
    // 09:15 IST is 03:45 UTC.
    expect((m.body.data as { timestamp: number }[])[0]?.timestamp).toBe(
      Date.parse('2026-11-02T03:45:00Z') / 1000,
    );
  });
});

describe('option batch answers', () => {
  it('optionsorder with splitsize answers split_size and total_quantity beside results', async () => {
    const r = await gw.api('optionsorder', gw.apiKey, {
      strategy: 'rec',
      ...NIFTY,
      offset: 'ATM',
      option_type: 'CE',
      action: 'BUY',
      quantity: 130,
      splitsize: 65,
      product: 'NRML',
    });
    expect(r.status).toBe(200);
    const keys = rec<{ keys: string[] }>('optionsorder_atm_ce_buy_with_splitsize').keys;
    expect(sorted(r.body)).toEqual(keys);
    expect(r.body).toMatchObject({ split_size: 65, total_quantity: 130 });
    OptionsOrderResponse.parse(r.json);
  });

  it('optionsmultiorder legs carry exchange and product', async () => {
    const r = await gw.api('optionsmultiorder', gw.apiKey, {
      strategy: 'rec',
      ...NIFTY,
      legs: [
        { offset: 'ATM', option_type: 'CE', action: 'BUY', quantity: 65, product: 'NRML' },
        { offset: 'OTM2', option_type: 'CE', action: 'SELL', quantity: 65 },
      ],
    });
    const legs = OptionsMultiOrderResponse.parse(r.json).results;
    const keys = rec<{ keys: string[] }>('optionsmultiorder_leg').keys;
    for (const leg of legs) expect(sorted(leg)).toEqual(keys);
    expect(legs.map((l) => [l.exchange, l.product, l.strike])).toEqual([
      ['NFO', 'NRML', null],
      ['NFO', 'MIS', null],
    ]);
  });
});

describe('sandbox extras', () => {
  it('quotes carry bid_qty and ask_qty', async () => {
    const r = await gw.api('quotes', gw.apiKey, { symbol: 'RELIANCE', exchange: 'NSE' });
    expect(sorted(r.body.data as object)).toEqual(
      rec<{ data_keys: string[] }>('quotes_reliance_nse').data_keys,
    );
    const book = gw.gateway.market.book(gw.instrument('NSE', 'RELIANCE'));
    expect(r.body.data).toMatchObject({ bid_qty: book.bids[0]?.quantity, ask_qty: book.asks[0]?.quantity });
  });

  it('positionbook rows and totals, and mode "analyze" on account and order answers', async () => {
    const placed = await gw.api('placeorder', gw.apiKey, {
      strategy: 'rec',
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 10,
      pricetype: 'MARKET',
      product: 'MIS',
    });
    expect(placed.body).toMatchObject({ status: 'success', mode: 'analyze' });
    gw.clock.advance(1000);
    const p = await gw.api('positionbook', gw.apiKey);
    const shape = rec<{ row_keys: string[]; top_level_keys: string[] }>('positionbook_populated');
    expect(sorted(p.body)).toEqual(shape.top_level_keys);
    const rows = p.body.data as Record<string, number | string>[];
    const row = rows.find((r) => r.symbol === 'SBIN') ?? {};
    for (const k of shape.row_keys) expect(Object.keys(row)).toContain(k);
    expect(row.lot_size).toBe(1);
    const invested = Math.abs(Number(row.average_price) * Number(row.quantity));
    expect(row.pnlpercent).toBeCloseTo((Number(row.total_pnl_today) / invested) * 100, 2);
    const total = rows.reduce((a, r) => a + Number(r.total_pnl_today), 0);
    expect(p.body.total_pnl).toBeCloseTo(total, 2);
    expect(p.body.total_pnl_today).toBe(p.body.total_pnl);

    const all = rec<{ mode: string; endpoints: string[] }>('account_and_order_mode');
    const orderid = placed.body.orderid as string;
    const fields: Record<string, Record<string, unknown>> = {
      orderstatus: { orderid, strategy: 'rec' },
      openposition: { strategy: 'rec', symbol: 'SBIN', exchange: 'NSE', product: 'MIS' },
      modifyorder: {
        orderid,
        strategy: 'rec',
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        product: 'MIS',
        price: 2,
        trigger_price: 0,
        disclosed_quantity: 0,
      },
      cancelorder: { orderid, strategy: 'rec' },
    };
    const limit = await gw.api('placeorder', gw.apiKey, {
      strategy: 'rec',
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 1,
      pricetype: 'LIMIT',
      price: 1,
      product: 'MIS',
    });
    const open = limit.body.orderid as string;
    for (const name of all.endpoints.filter((e) => e !== 'placeorder')) {
      const f =
        name === 'modifyorder' || name === 'cancelorder' ? { ...fields[name], orderid: open } : fields[name];
      const r = await gw.api(name, gw.apiKey, f ?? {});
      expect([name, r.status, r.body.mode]).toEqual([name, 200, all.mode]);
    }
  });

  it('the client passes the sandbox fields on (a real gateway leaves them out)', async () => {
    const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
    const p = await client.positionbook();
    if (!p.ok) throw new Error(p.error.message);
    expect(p.value).toMatchObject({ mode: 'analyze', total_pnl: expect.any(Number) });
    expect(p.value.total_unrealized_pnl).toEqual(expect.any(Number));
    const f = await client.funds();
    expect(f.ok && f.value.mode).toBe('analyze');
    const q = await client.quotes({ symbol: 'SBIN', exchange: 'NSE' });
    expect(q.ok && typeof q.value.data.bid_qty).toBe('number');
    const a = await client.analyzer();
    if (!a.ok) throw new Error(a.error.message);
    const recorded = rec<{ response: { data: { analyze_mode: boolean; mode: string } } }>('analyzer_status')
      .response.data;
    expect(a.value.data).toMatchObject({ analyze_mode: recorded.analyze_mode, mode: recorded.mode });
    // A live gateway's answers without them still parse.
    expect(PositionBookResponse.parse({ status: 'success', data: [] })).toEqual({
      status: 'success',
      data: [],
    });
    expect(
      QuotesResponse.safeParse({
        status: 'success',
        data: { ask: 1, bid: 1, high: 1, low: 1, ltp: 1, open: 1, prev_close: 1, volume: 0 },
      }).success,
    ).toBe(true);
  });
});

describe('multioptiongreeks', () => {
  it('answers per-symbol results and a summary; partial when some fail, always HTTP 200', async () => {
    const listed = [...gw.gateway.master.derivatives('NFO', 'NIFTY')].find(
      (r) => r.kind === 'CE' && r.expiryDate === '2026-12-01',
    );
    if (!listed) throw new Error('no NIFTY option');
    const rule = rec<{ http_status: number; status: string; summary: object }>(
      'multioptiongreeks_one_valid_one_unknown',
    );
    const r = await gw.api('multioptiongreeks', gw.apiKey, {
      symbols: [
        { symbol: listed.symbol, exchange: 'NFO' },
        { symbol: 'NIFTY01DEC2699999CE', exchange: 'NFO' },
      ],
    });
    expect(r.status).toBe(rule.http_status);
    const body = MultiOptionGreeksResponse.parse(r.json);
    expect(body.status).toBe(rule.status);
    expect(body.summary).toEqual(rule.summary);
    const single = await gw.api('optiongreeks', gw.apiKey, { symbol: listed.symbol, exchange: 'NFO' });
    expect(body.data[0]).toEqual(single.json);
    expect(body.data[1]).toMatchObject({ status: 'error', symbol: 'NIFTY01DEC2699999CE', exchange: 'NFO' });

    const none = await gw.api('multioptiongreeks', gw.apiKey, {
      symbols: [{ symbol: 'NOPE', exchange: 'NFO' }],
    });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ status: 'error', summary: { total: 1, success: 0, failed: 1 } });
    const ok = await gw.api('multioptiongreeks', gw.apiKey, {
      symbols: [{ symbol: listed.symbol, exchange: 'NFO' }],
    });
    expect(ok.body).toMatchObject({ status: 'success', summary: { total: 1, success: 1, failed: 0 } });

    const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
    const c = await client.multioptiongreeks({ symbols: [{ symbol: listed.symbol, exchange: 'NFO' }] });
    expect(c.ok && c.value.summary).toEqual({ total: 1, success: 1, failed: 0 });
  });
});

describe('composite order answers say mode "analyze"', () => {
  const shape = rec<{
    mode: string;
    keys: Record<string, string[]>;
    result_keys: Record<string, string[]>;
    responses: Record<string, Record<string, unknown>>;
  }>('composite_order_mode');
  const SBIN = { strategy: 'rec', symbol: 'SBIN', exchange: 'NSE', pricetype: 'MARKET', product: 'MIS' };
  const smart = (key: string, quantity: number, position_size: number) =>
    gw.api('placesmartorder', key, { ...SBIN, action: 'BUY', quantity, position_size });

  it('placesmartorder: a placed order and the "no action needed" answer', async () => {
    const key = gw.newKey();
    const placed = await smart(key, 10, 10);
    expect(placed.status, placed.text).toBe(200);
    expect(sorted(placed.body)).toEqual(shape.keys['placesmartorder/open_from_flat_to_10']);
    expect(placed.body.mode).toBe(shape.mode);
    const none = await smart(key, 10, 10);
    expect(none.body).toEqual(shape.responses['placesmartorder/no_action_qty_nonzero_position_matches']);
  });

  it('splitorder: at the top level, not on each child', async () => {
    const r = await gw.api('splitorder', gw.newKey(), { ...SBIN, action: 'BUY', quantity: 10, splitsize: 3 });
    expect(r.status, r.text).toBe(200);
    expect(sorted(r.body)).toEqual(shape.keys['splitorder/sbin_10_split_3']);
    expect(r.body.mode).toBe(shape.mode);
    const children = r.body.results as object[];
    expect(children.map(sorted)).toEqual(children.map(() => shape.result_keys['splitorder/sbin_10_split_3']));
  });

  it('basketorder: at the top level, not on each leg', async () => {
    const r = await gw.api('basketorder', gw.newKey(), {
      strategy: 'rec',
      orders: [
        { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 1, pricetype: 'MARKET', product: 'MIS' },
        { symbol: 'TCS', exchange: 'NSE', action: 'SELL', quantity: 1, pricetype: 'MARKET', product: 'MIS' },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(sorted(r.body)).toEqual(shape.keys['basketorder/three_legs_mixed']);
    expect(r.body.mode).toBe(shape.mode);
    expect(shape.result_keys['basketorder/three_legs_mixed']).not.toContain('mode');
    for (const leg of r.body.results as object[]) expect(leg).not.toHaveProperty('mode');
  });

  it('cancelallorder: with orders to cancel and with none', async () => {
    const key = gw.newKey();
    const none = await gw.api('cancelallorder', key, { strategy: 'rec' });
    expect(none.body).toEqual(shape.responses['cancelallorder/nothing_open']);
    const resting = await gw.api('placeorder', key, {
      ...SBIN,
      action: 'BUY',
      quantity: 1,
      pricetype: 'LIMIT',
      price: 1,
    });
    expect(resting.status, resting.text).toBe(200);
    const r = await gw.api('cancelallorder', key, { strategy: 'rec' });
    expect(r.status, r.text).toBe(200);
    expect(sorted(r.body)).toEqual(shape.keys['cancelallorder/with_open_orders']);
    expect(r.body).toMatchObject({ canceled_orders: [resting.body.orderid], mode: shape.mode });
  });

  it('closeposition: the plain variant, as the hosted one already did', async () => {
    const key = gw.newKey();
    const bought = await gw.api('placeorder', key, { ...SBIN, action: 'BUY', quantity: 5 });
    expect(bought.status, bought.text).toBe(200);
    gw.clock.advance(1000);
    const r = await gw.api('closeposition', key, { strategy: 'rec' });
    expect(r.status, r.text).toBe(200);
    expect(sorted(r.body)).toEqual(shape.keys['closeposition/with_open_positions']);
    expect(r.body).toMatchObject({ closed_positions: 1, failed_closures: 0, mode: shape.mode });
    // Nothing left to close: the paper gateway's NO_STRATEGY_EXPOSURE answer says the mode too.
    const again = await gw.api('closeposition', key, { strategy: 'rec' });
    expect(again.body).toMatchObject({ code: 'NO_STRATEGY_EXPOSURE', mode: shape.mode });
  });

  it('optionsmultiorder: at the top level beside each placed leg', async () => {
    const r = await gw.api('optionsmultiorder', gw.newKey(), {
      strategy: 'rec',
      ...NIFTY,
      legs: [
        { offset: 'ATM', option_type: 'CE', action: 'BUY', quantity: 65, product: 'NRML' },
        { offset: 'OTM2', option_type: 'CE', action: 'SELL', quantity: 65, product: 'NRML' },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(sorted(r.body)).toEqual(shape.keys['optionsmultiorder/bull_call_spread_2_legs']);
    const body = OptionsMultiOrderResponse.parse(r.json);
    expect([body.mode, ...body.results.map((l) => l.mode)]).toEqual([shape.mode, shape.mode, shape.mode]);
  });

  it('the contract keeps mode on each answer and parses one without it (a live gateway)', () => {
    const answers: [z.ZodType, Record<string, unknown>][] = [
      [SmartOrderResponse, { status: 'success', orderid: '1' }],
      [SplitOrderResponse, { status: 'success', split_size: 1, total_quantity: 1, results: [] }],
      [BasketOrderResponse, { status: 'success', results: [] }],
      [CancelAllOrderResponse, { status: 'success', message: 'm' }],
      [ClosePositionResponse, { status: 'success', message: 'm' }],
      [OptionsMultiOrderResponse, { status: 'success', underlying: 'NIFTY', underlying_ltp: 1, results: [] }],
    ];
    for (const [schema, live] of answers) {
      expect(schema.parse(live)).not.toHaveProperty('mode');
      expect(schema.parse({ ...live, mode: 'analyze' })).toMatchObject({ mode: 'analyze' });
    }
  });
});
