// Every operation of the contract, called through the client against the embedded paper gateway,
// succeeds and comes back in the contract's normalised types, the real gateway's options, calendar
// and account extras included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../../src-main/contract/index.js';
import {
  createGatewayClient,
  type GatewayClient,
  type GatewayResult,
} from '../../../src-main/gateway/index.js';
import { startTestGateway, type TestGateway } from '../../support/paper-gateway.js';

let gw: TestGateway;
let client: GatewayClient;

beforeAll(async () => {
  gw = await startTestGateway();
  client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
});

afterAll(async () => {
  await gw?.stop();
});

/** The value of a successful result, or a failed test that says what the gateway said. */
function valueOf<T>(r: GatewayResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value;
}

const STRATEGY = 'client-ops';
const SBIN = { exchange: 'NSE', symbol: 'SBIN', product: 'MIS' } as const;
const called = new Set<OperationName>();
const mark = <T>(op: OperationName, r: GatewayResult<T>): T => {
  const v = valueOf(r);
  called.add(op);
  return v;
};

describe('account and reference reads', () => {
  it('ping, analyzer, intervals', async () => {
    expect(mark('ping', await client.ping()).data.message).toBe('pong');
    expect(typeof mark('analyzer', await client.analyzer()).data.analyze_mode).toBe('boolean');
    expect(mark('intervals', await client.intervals()).data.minutes.length).toBeGreaterThan(0);
  });

  it('funds, order book, trade book, position book, holdings', async () => {
    expect(mark('funds', await client.funds()).data.availablecash).toMatch(/^\d+\.\d{2}$/);
    expect(
      mark('orderbook', await client.orderbook()).data.statistics.total_buy_orders,
    ).toBeGreaterThanOrEqual(0);
    expect(Array.isArray(mark('tradebook', await client.tradebook()).data)).toBe(true);
    expect(Array.isArray(mark('positionbook', await client.positionbook()).data)).toBe(true);
    expect(Array.isArray(mark('holdings', await client.holdings()).data.holdings)).toBe(true);
  });

  it('depth, quotes, multiquotes, symbol, search, expiry', async () => {
    const depth = mark('depth', await client.depth({ symbol: 'SBIN', exchange: 'NSE' }));
    expect(depth.data.asks).toHaveLength(5);
    expect(mark('quotes', await client.quotes({ symbol: 'SBIN', exchange: 'NSE' })).data.ltp).toBeGreaterThan(
      0,
    );
    const multi = mark(
      'multiquotes',
      await client.multiquotes({
        symbols: [
          { symbol: 'RELIANCE', exchange: 'NSE' },
          { symbol: 'TCS', exchange: 'NSE' },
        ],
      }),
    );
    expect(multi.results).toHaveLength(2);
    expect(mark('symbol', await client.symbol({ symbol: 'RELIANCE', exchange: 'NSE' })).data.lotsize).toBe(1);
    const search = mark('search', await client.search({ query: 'NIFTY', exchange: 'NFO' }));
    expect(search.data.length).toBeGreaterThan(0);
    const expiry = mark(
      'expiry',
      await client.expiry({ symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' }),
    );
    expect(expiry.data.length).toBeGreaterThan(0);
  });

  it('history and ticker (json and txt give the same bars)', async () => {
    const history = mark(
      'history',
      await client.history({
        symbol: 'SBIN',
        exchange: 'NSE',
        interval: '5m',
        start_date: '2026-11-19',
        end_date: '2026-11-20',
      }),
    );
    expect(history.data.length).toBeGreaterThan(0);
    const range = {
      exchange: 'NSE',
      symbol: 'SBIN',
      interval: '5m',
      from: '2026-11-18',
      to: '2026-11-19',
    } as const;
    const json = mark('ticker', await client.ticker(range));
    const txt = valueOf(await client.ticker({ ...range, format: 'txt' }));
    expect(json.data.length).toBeGreaterThan(0);
    expect(txt.data.map((b) => [b.timestamp, b.close, b.volume])).toEqual(
      json.data.map((b) => [b.timestamp, b.close, b.volume]),
    );
    const daily = valueOf(
      await client.ticker({
        exchange: 'NSE',
        symbol: 'SBIN',
        from: '2026-11-02',
        to: '2026-11-19',
        format: 'txt',
      }),
    );
    expect(daily.data.length).toBeGreaterThan(5);
  });
});

describe('orders', () => {
  it('placeorder, orderstatus, openposition, positionsopen', async () => {
    const placed = mark(
      'placeorder',
      await client.placeorder({
        strategy: STRATEGY,
        ...SBIN,
        action: 'BUY',
        quantity: 2,
        pricetype: 'MARKET',
      }),
    );
    expect(placed.orderid).not.toBe('');
    const status = mark(
      'orderstatus',
      await client.orderstatus({ strategy: STRATEGY, orderid: placed.orderid }),
    );
    expect(status.data.orderid).toBe(placed.orderid);
    expect(['open', 'complete']).toContain(status.data.order_status);
    const open = mark('openposition', await client.openposition({ strategy: STRATEGY, ...SBIN }));
    expect(open.quantity).toBeGreaterThan(0);
    const scoped = mark('positionsopen', await client.positionsopen({ strategy: STRATEGY, ...SBIN }));
    expect(scoped.quantity).toBe(open.quantity);
  });

  it('modifyorder and cancelorder on a resting limit order', async () => {
    const quote = valueOf(await client.quotes({ symbol: 'SBIN', exchange: 'NSE' }));
    const price = Math.floor(quote.data.ltp * 0.9 * 20) / 20;
    const placed = valueOf(
      await client.placeorder({
        strategy: STRATEGY,
        ...SBIN,
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price,
      }),
    );
    const modified = mark(
      'modifyorder',
      await client.modifyorder({
        strategy: STRATEGY,
        ...SBIN,
        orderid: placed.orderid,
        action: 'BUY',
        quantity: 2,
        pricetype: 'LIMIT',
        price: price - 0.05,
        trigger_price: 0,
        disclosed_quantity: 0,
      }),
    );
    expect(modified.orderid).toBe(placed.orderid);
    const after = valueOf(await client.orderstatus({ strategy: STRATEGY, orderid: placed.orderid }));
    expect(after.data.quantity).toBe(2);
    expect(
      mark('cancelorder', await client.cancelorder({ strategy: STRATEGY, orderid: placed.orderid })).orderid,
    ).toBe(placed.orderid);
    const cancelled = valueOf(await client.orderstatus({ strategy: STRATEGY, orderid: placed.orderid }));
    expect(cancelled.data.order_status).toBe('cancelled');
  });

  it('cancelallorder', async () => {
    const quote = valueOf(await client.quotes({ symbol: 'SBIN', exchange: 'NSE' }));
    const price = Math.floor(quote.data.ltp * 0.9 * 20) / 20;
    const strategy = `${STRATEGY}-all`;
    for (let i = 0; i < 2; i++) {
      valueOf(
        await client.placeorder({ strategy, ...SBIN, action: 'BUY', quantity: 1, pricetype: 'LIMIT', price }),
      );
    }
    const all = mark('cancelallorder', await client.cancelallorder({ strategy }));
    expect(all.canceled_orders.length).toBeGreaterThanOrEqual(2);
  });

  it('splitorder and basketorder', async () => {
    const split = mark(
      'splitorder',
      await client.splitorder({ strategy: STRATEGY, ...SBIN, action: 'BUY', quantity: 7, splitsize: 3 }),
    );
    expect(split.results.map((r) => r.quantity)).toEqual([3, 3, 1]);
    const basket = mark(
      'basketorder',
      await client.basketorder({
        strategy: STRATEGY,
        orders: [
          { ...SBIN, action: 'BUY', quantity: 1 },
          { exchange: 'NSE', symbol: 'RELIANCE', action: 'BUY', quantity: 1, product: 'MIS' },
        ],
      }),
    );
    expect(basket.results).toHaveLength(2);
    expect(basket.results.every((r) => r.status === 'success')).toBe(true);
  });

  it('placesmartorder: an order, then a no-op once matched', async () => {
    const strategy = `${STRATEGY}-smart`;
    const input = {
      strategy,
      exchange: 'NSE',
      symbol: 'TCS',
      product: 'MIS',
      action: 'BUY',
      quantity: 0,
    } as const;
    const first = mark('placesmartorder', await client.placesmartorder({ ...input, position_size: 3 }));
    expect(first.orderid).toBeTruthy();
    const held = valueOf(
      await client.openposition({ strategy, exchange: 'NSE', symbol: 'TCS', product: 'MIS' }),
    );
    const again = valueOf(await client.placesmartorder({ ...input, position_size: held.quantity }));
    expect(again.orderid ?? '').toBe('');
    expect(again.message).toMatch(/no action needed|no openposition found/i);
  });

  it('closeposition and the hosted closeposition', async () => {
    const closed = mark('closeposition', await client.closeposition({ strategy: STRATEGY }));
    expect(closed.message.length).toBeGreaterThan(0);
    const mode = valueOf(await client.analyzer());
    const hosted = mark(
      'closepositionHosted',
      await client.closepositionHosted({
        strategy: `${STRATEGY}-smart`,
        expected_mode: mode.data.mode,
        expected_balance_type: mode.data.balance_type ?? 'sandbox',
        expected_mode_version: mode.data.mode_version ?? 1,
        request_id: 'client-ops-close-1',
      }),
    );
    expect(hosted.message.length).toBeGreaterThan(0);
  });
});

describe("the real gateway's options, calendar and account extras", () => {
  const NIFTY = { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: '01DEC26' } as const;

  it('margin, pnlsymbols, analyzertoggle', async () => {
    const m = mark(
      'margin',
      await client.margin({ positions: [{ ...SBIN, action: 'BUY', quantity: 1, pricetype: 'MARKET' }] }),
    );
    expect(m.data.total_margin_required).toBeGreaterThan(0);
    expect(Array.isArray(mark('pnlsymbols', await client.pnlsymbols()).data)).toBe(true);
    expect(mark('analyzertoggle', await client.analyzertoggle({ mode: true })).data.mode).toBe('analyze');
  });

  it('instruments, marketholidays, markettimings', async () => {
    const rows = mark('instruments', await client.instruments({ exchange: 'CDS' })).data;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.exchange === 'CDS')).toBe(true);
    const holidays = mark('marketholidays', await client.marketholidays({ year: 2026 })).data;
    expect(holidays.map((h) => h.date)).toContain('2026-12-25');
    expect(mark('markettimings', await client.markettimings({ date: '2026-11-21' })).data).toEqual([]);
  });

  it('option reads', async () => {
    const sym = mark(
      'optionsymbol',
      await client.optionsymbol({ ...NIFTY, offset: 'ATM', option_type: 'CE' }),
    );
    expect(sym.exchange).toBe('NFO');
    expect(mark('optionchain', await client.optionchain({ ...NIFTY, strike_count: 5 })).chain).toHaveLength(
      11,
    );
    const g = mark('optiongreeks', await client.optiongreeks({ symbol: sym.symbol, exchange: 'NFO' }));
    expect(g.greeks.delta).toBeGreaterThan(0);
    const many = mark(
      'multioptiongreeks',
      await client.multioptiongreeks({ symbols: [{ symbol: sym.symbol, exchange: 'NFO' }] }),
    );
    expect(many.summary).toEqual({ total: 1, success: 1, failed: 0 });
    expect(
      mark('syntheticfuture', await client.syntheticfuture(NIFTY)).synthetic_future_price,
    ).toBeGreaterThan(0);
  });

  it('option orders', async () => {
    const one = mark(
      'optionsorder',
      await client.optionsorder({
        ...NIFTY,
        strategy: STRATEGY,
        offset: 'ATM',
        option_type: 'CE',
        action: 'BUY',
        quantity: 65,
      }),
    );
    expect(one.orderid).toMatch(/^\d+$/);
    const multi = mark(
      'optionsmultiorder',
      await client.optionsmultiorder({
        ...NIFTY,
        strategy: STRATEGY,
        legs: [{ offset: 'OTM2', option_type: 'PE', action: 'SELL', quantity: 65 }],
      }),
    );
    expect(multi.results.map((r) => r.status)).toEqual(['success']);
  });
});

describe('GTT orders', () => {
  it('placegttorder, modifygttorder, gttorderbook, cancelgttorder', async () => {
    const q = mark('quotes', await client.quotes({ symbol: 'SBIN', exchange: 'NSE' }));
    const trigger = Math.round(q.data.ltp * 0.8 * 20) / 20;
    const gtt = {
      strategy: STRATEGY,
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      product: 'CNC',
      quantity: 1,
      pricetype: 'LIMIT',
      trigger_type: 'SINGLE',
      price: trigger,
      triggerprice_sl: trigger,
    } as const;
    const placed = mark('placegttorder', await client.placegttorder(gtt));
    expect(placed.trigger_id).toMatch(/^GTT-\d{6}-[0-9a-f]{8}$/);
    const id = placed.trigger_id;
    mark('modifygttorder', await client.modifygttorder({ ...gtt, trigger_id: id, quantity: 2 }));
    const book = mark('gttorderbook', await client.gttorderbook());
    expect(book.data.find((g) => g.trigger_id === id)?.legs[0]?.quantity).toBe(2);
    expect(
      mark('cancelgttorder', await client.cancelgttorder({ strategy: STRATEGY, trigger_id: id })).trigger_id,
    ).toBe(id);
  });
});

describe('coverage', () => {
  it('called every operation of the contract', () => {
    const missing = (Object.keys(OPERATIONS) as OperationName[]).filter((op) => !called.has(op));
    expect(missing).toEqual([]);
  });
});
