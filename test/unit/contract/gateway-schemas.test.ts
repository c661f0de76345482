// The gateway contract's schemas on their own: the numbers-as-strings request convention (spec §2.1),
// both documented bar timestamp shapes (§2.9, §4.19), the split/basket/cancel-all result shapes
// (§4.10, §4.11, §4.14), the error body (§7.1), and tolerant parsing of loosely typed answers.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BarTimestamp,
  BasketOrderRequest,
  BasketOrderResponse,
  CancelAllOrderResponse,
  DepthResponse,
  ErrorBody,
  ExpiryRequest,
  PlaceOrderRequest,
  SearchResponse,
  SplitOrderRequest,
  SplitOrderResponse,
  TickerResponse,
} from '../../../src-main/contract/index.js';

/** The first issue's message of a failed parse (the text the paper gateway answers with). */
function firstIssue(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}

const IST = (s: string) => Date.parse(`${s}+05:30`) / 1000;

describe('bar timestamps: both documented shapes (spec §4.19)', () => {
  it('an integer epoch is epoch seconds as is', () => {
    expect(BarTimestamp.parse(1_763_610_300)).toBe(1_763_610_300);
  });

  it('`YYYY-MM-DD, HH:MM:SS` is read as IST', () => {
    expect(BarTimestamp.parse('2025-11-20, 09:15:00')).toBe(IST('2025-11-20T09:15:00'));
    expect(BarTimestamp.parse('2025-11-20, 00:00:00')).toBe(IST('2025-11-20T00:00:00'));
  });

  it('both shapes of the same instant parse to the same bar', () => {
    const t = IST('2025-11-20T09:15:00');
    const bar = { open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 };
    const parsed = TickerResponse.parse({
      status: 'success',
      data: [
        { ...bar, timestamp: t },
        { ...bar, timestamp: '2025-11-20, 09:15:00' },
      ],
    });
    expect(parsed.data[0]).toEqual(parsed.data[1]);
    expect(parsed.data[0]?.timestamp).toBe(t);
  });

  it('also reads the real variants: milliseconds, an ISO offset, a bare date', () => {
    const t = IST('2025-04-01T09:15:00');
    expect(BarTimestamp.parse(t * 1000)).toBe(t);
    expect(BarTimestamp.parse(String(t))).toBe(t);
    expect(BarTimestamp.parse('2025-04-01 09:15:00+05:30')).toBe(t);
    expect(BarTimestamp.parse('2025-04-01T03:45:00Z')).toBe(t);
    expect(BarTimestamp.parse('2025-04-01')).toBe(IST('2025-04-01T00:00:00'));
  });

  it.each(['', 'yesterday', '20-11-2025 09:15', '2025/11/20', true, null])('rejects %j', (v) => {
    expect(BarTimestamp.safeParse(v).success).toBe(false);
  });

  it('volume is always an integer after parsing', () => {
    const parsed = TickerResponse.parse({
      status: 'success',
      data: [{ timestamp: 1, open: '1', high: '2', low: '0.5', close: '1.5', volume: '10.6' }],
    });
    expect(parsed.data[0]).toEqual({ timestamp: 1, open: 1, high: 2, low: 0.5, close: 1.5, volume: 11 });
  });
});

describe('requests: numbers as JSON numbers or strings (spec §2.1)', () => {
  const order = {
    apikey: 'k',
    strategy: 'Test',
    exchange: 'NSE',
    symbol: 'SBIN',
    action: 'buy',
  };

  it('string numbers become numbers; defaults fill the optional fields', () => {
    const r = PlaceOrderRequest.parse({ ...order, quantity: '10', price: '16.5', trigger_price: ' 0 ' });
    expect(r).toEqual({
      ...order,
      action: 'BUY',
      quantity: 10,
      price: 16.5,
      trigger_price: 0,
      pricetype: 'MARKET',
      product: 'MIS',
      disclosed_quantity: 0,
    });
    expect(PlaceOrderRequest.parse({ ...order, quantity: 10 }).quantity).toBe(10);
  });

  it.each([
    [{ quantity: 'abc' }, 'quantity must be a number'],
    [{ quantity: '' }, 'quantity must be a number'],
    [{ quantity: '1.5' }, 'quantity must be a whole number'],
    [{ quantity: '0' }, 'quantity must be a positive number'],
    [{ quantity: true }, 'quantity must be a number'],
    [{}, 'quantity is required'],
    [{ quantity: '1', price: '-1' }, 'price must be a non-negative number'],
    [{ quantity: '1', price: 'Infinity' }, 'price must be a number'],
  ])('%j → %s', (patch, message) => {
    expect(firstIssue(PlaceOrderRequest, { ...order, ...patch })).toBe(message);
  });

  it('split and basket legs follow the same convention', () => {
    expect(SplitOrderRequest.parse({ ...order, quantity: '105', splitsize: '20' })).toMatchObject({
      quantity: 105,
      splitsize: 20,
    });
    expect(firstIssue(SplitOrderRequest, { ...order, quantity: '105', splitsize: '0' })).toBe(
      'splitsize must be a positive number',
    );
    const basket = BasketOrderRequest.parse({
      apikey: 'k',
      strategy: 'Test',
      orders: [
        { exchange: 'NSE', symbol: 'SBIN', action: 'SELL', quantity: '2', pricetype: 'LIMIT', price: '800' },
      ],
    });
    expect(basket.orders[0]).toMatchObject({ quantity: 2, price: 800, pricetype: 'LIMIT', product: 'MIS' });
  });

  it('expiry requests carry the exact §7.3 messages', () => {
    const base = { apikey: 'k', symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' };
    expect(ExpiryRequest.parse(base)).toEqual(base);
    expect(firstIssue(ExpiryRequest, { ...base, exchange: 'NSE' })).toBe(
      'Exchange must be one of: NFO, BFO, MCX, CDS',
    );
    expect(firstIssue(ExpiryRequest, { ...base, instrumenttype: 'spot' })).toBe(
      "Instrumenttype must be either 'futures' or 'options'",
    );
  });
});

describe('order results (spec §4.10, §4.11, §4.14)', () => {
  it('split: split_size, total_quantity and numbered children', () => {
    const body = {
      status: 'success',
      split_size: 20,
      total_quantity: 105,
      results: [
        { order_num: 1, orderid: '25112000000001', quantity: 20, status: 'success' },
        { order_num: 6, orderid: '25112000000006', quantity: 5, status: 'success' },
      ],
    };
    expect(SplitOrderResponse.parse(body)).toEqual(body);
    // Tolerant of numbers as strings and numeric order ids.
    const loose = SplitOrderResponse.parse({
      ...body,
      split_size: '20',
      results: [{ order_num: '1', orderid: 25112000000001, quantity: '20', status: 'success' }],
    });
    expect(loose.split_size).toBe(20);
    expect(loose.results[0]).toEqual({
      order_num: 1,
      orderid: '25112000000001',
      quantity: 20,
      status: 'success',
    });
    // Tolerance stops at the shape: a missing results list is not a split answer.
    expect(
      SplitOrderResponse.safeParse({ status: 'success', split_size: 20, total_quantity: 105 }).success,
    ).toBe(false);
  });

  it('basket: per-leg orderid, status and symbol', () => {
    const body = {
      status: 'success',
      results: [
        { orderid: '1', status: 'success', symbol: 'SBIN' },
        { status: 'error', symbol: 'FOO', message: 'Symbol FOO not found' },
      ],
    };
    expect(BasketOrderResponse.parse(body)).toEqual(body);
    expect(BasketOrderResponse.safeParse({ status: 'success', results: 'none' }).success).toBe(false);
  });

  it('cancel all: canceled_orders, failed_cancellations in either real shape, and the message', () => {
    const body = {
      status: 'success',
      canceled_orders: ['1', '2'],
      failed_cancellations: [],
      message: 'Canceled 2 orders. Failed to cancel 0 orders.',
    };
    expect(CancelAllOrderResponse.parse(body)).toEqual(body);
    const mixed = CancelAllOrderResponse.parse({
      ...body,
      canceled_orders: [3],
      failed_cancellations: ['4', { orderid: '5', reason: 'complete' }],
    });
    expect(mixed.canceled_orders).toEqual(['3']);
    expect(mixed.failed_cancellations).toEqual([
      { orderid: '4', message: '' },
      { orderid: '5', message: 'complete' },
    ]);
  });
});

describe('error body (spec §7.1)', () => {
  it('a string message, with retry_after on a 429', () => {
    expect(ErrorBody.parse({ status: 'error', message: 'Invalid openalgo apikey' })).toEqual({
      status: 'error',
      message: 'Invalid openalgo apikey',
    });
    expect(
      ErrorBody.parse({ status: 'error', message: 'Rate limit exceeded.', retry_after: '1' }).retry_after,
    ).toBe(1);
  });

  it("the data family's object of field errors becomes one readable message", () => {
    const parsed = ErrorBody.parse({
      status: 'error',
      message: { apikey: ['Missing data for required field.'] },
    });
    expect(parsed.message).toBe('apikey: Missing data for required field.');
  });

  it('is not a success body', () => {
    expect(ErrorBody.safeParse({ status: 'success', message: 'x' }).success).toBe(false);
    expect(ErrorBody.safeParse({ status: 'error' }).success).toBe(false);
  });
});

describe('client parsing is tolerant of loosely typed answers (gateway-behaviour, client decisions)', () => {
  it('numeric strings in depth and search rows become numbers; unknown keys are kept', () => {
    const level = { price: '100.5', quantity: '10' };
    const depth = DepthResponse.parse({
      status: 'success',
      data: {
        asks: [level],
        bids: [level],
        totalbuyqty: '10',
        totalsellqty: 10,
        high: '101',
        low: 99,
        ltp: '100.5',
        ltq: '',
        open: 100,
        prev_close: '99.5',
        volume: '1,234',
        oi: null,
        extra: 'kept',
      },
    });
    expect(depth.data).toMatchObject({ ltp: 100.5, ltq: 0, volume: 1234, oi: 0, extra: 'kept' });
    expect(depth.data.asks[0]).toEqual({ price: 100.5, quantity: 10 });
    const search = SearchResponse.parse({
      status: 'success',
      message: 'Found 1 matching symbols',
      data: [
        {
          symbol: 'NIFTY29DEC2626000CE',
          brsymbol: 'NIFTY 26000 CE 29 DEC 26',
          name: 'NIFTY',
          exchange: 'NFO',
          brexchange: 'NSE_FO',
          token: 35001,
          expiry: '29-DEC-26',
          strike: '26000',
          lotsize: '65',
          instrumenttype: 'OPTIDX',
          tick_size: '0.05',
        },
      ],
    });
    expect(search.data[0]).toMatchObject({ token: '35001', strike: 26000, lotsize: 65, tick_size: 0.05 });
  });
});
