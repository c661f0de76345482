// The gateway client against a scripted fetch and a manual clock: requests and their answers, the
// ticker, smart orders, and a success that lacks its order id.
import { describe, expect, it } from 'vitest';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src-main/gateway/index.js';
import { json } from '../../support/fake-fetch.js';
import { KEY, ORDER, ORDER_BOOK, setup } from './client-fixture.js';

describe('requests', () => {
  it('puts the key in the body, numbers as strings, defaults filled, unknown fields dropped', async () => {
    const { client, calls } = setup(() => json({ status: 'success', orderid: 123 }));
    const result = await client.placeorder({ ...ORDER, action: 'buy', price: 0, extra: 'x' } as never);
    expect(result).toEqual({ ok: true, value: { status: 'success', orderid: '123' } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://gateway.test/api/v1/placeorder');
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers['content-type']).toBe('application/json');
    expect(calls[0]?.body).toEqual({
      apikey: KEY,
      strategy: 'Ticket',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: '1',
      pricetype: 'MARKET',
      product: 'MIS',
      price: '0',
      trigger_price: '0',
      disclosed_quantity: '0',
    });
    expect(calls[0]?.url).not.toContain(KEY);
  });

  it('reads the key on every call and never sends without one', async () => {
    let key: string | undefined = KEY;
    const { client, calls } = setup(() => json(ORDER_BOOK), { getApiKey: async () => key });
    expect((await client.orderbook()).ok).toBe(true);
    key = undefined;
    const result = await client.orderbook();
    expect(result).toMatchObject({ ok: false, error: { kind: 'no_key' } });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a string', 'keyring locked', 'keyring locked'],
    ['null', null, 'no error detail (null was thrown)'],
  ])('a key store that throws %s is secret_store, and nothing is sent', async (_what, thrown, said) => {
    const { client, calls } = setup(() => json(ORDER_BOOK), {
      getApiKey: () => {
        throw thrown;
      },
    });
    expect(await client.placeorder(ORDER)).toEqual({
      ok: false,
      error: { kind: 'secret_store', message: `the API key could not be read from the key store: ${said}` },
    });
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['a missing symbol', { ...ORDER, symbol: undefined }, /symbol is required/],
    ['a zero quantity', { ...ORDER, quantity: 0 }, /quantity must be a positive number/],
    ['a non-numeric quantity', { ...ORDER, quantity: 'abc' }, /quantity must be a number/],
    ['a fractional quantity', { ...ORDER, quantity: 1.5 }, /quantity must be a whole number/],
    ['an unknown exchange', { ...ORDER, exchange: 'LSE' }, /exchange must be one of/],
    ['a negative price', { ...ORDER, price: -1 }, /price must be a non-negative number/],
  ])('never sends an order with %s', async (_what, input, message) => {
    const { client, calls } = setup(() => json({ status: 'success', orderid: '1' }));
    const result = await client.placeorder(input as never);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('bad_input');
      expect(result.error.message).toMatch(message);
    }
    expect(calls).toHaveLength(0);
  });

  it('names the leg of a bad basket order', async () => {
    const { client, calls } = setup(() => json({ status: 'success', results: [] }));
    const result = await client.basketorder({ strategy: 's', orders: [ORDER, { ...ORDER, quantity: -2 }] });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_input', message: /orders\.1\.quantity/ } });
    expect(calls).toHaveLength(0);
  });
});

describe('the ticker', () => {
  it('sends the key only in the X-API-KEY header, never in the URL', async () => {
    const { client, calls } = setup(() =>
      json({
        status: 'success',
        data: [{ timestamp: 1783296000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 }],
      }),
    );
    const result = await client.ticker({
      exchange: 'NSE',
      symbol: 'M&M',
      interval: '5m',
      from: '2025-01-01',
      to: '2025-01-31',
      adjusted: false,
      sort: 'desc',
    });
    expect(result.ok).toBe(true);
    const call = calls[0];
    expect(call?.method).toBe('GET');
    expect(call?.body).toBeUndefined();
    expect(call?.headers['x-api-key']).toBe(KEY);
    expect(call?.url).not.toContain(KEY);
    expect(call?.url).not.toMatch(/apikey/i);
    const url = new URL(call?.url ?? '');
    expect(url.pathname).toBe('/api/v1/ticker/NSE:M%26M');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      interval: '5m',
      from: '2025-01-01',
      to: '2025-01-31',
      adjusted: 'false',
      sort: 'desc',
      format: 'json',
    });
  });

  it('parses format=txt lines into the same bars (IST dates and times)', async () => {
    const text =
      'NSE:SBIN,2025-01-01,09:15:00,766.5,774.0,763.2,772.5,318625\nNSE:SBIN,2025-01-01,09:20:00,772.45,774.95,772.1,773.2,197189';
    const { client } = setup(
      () => new Response(text, { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    const result = await client.ticker({ exchange: 'NSE', symbol: 'SBIN', interval: '5m', format: 'txt' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.data).toEqual([
      {
        timestamp: Date.UTC(2025, 0, 1, 3, 45) / 1000,
        open: 766.5,
        high: 774,
        low: 763.2,
        close: 772.5,
        volume: 318625,
      },
      {
        timestamp: Date.UTC(2025, 0, 1, 3, 50) / 1000,
        open: 772.45,
        high: 774.95,
        low: 772.1,
        close: 773.2,
        volume: 197189,
      },
    ]);
  });

  it('parses daily txt lines and reports a bad line as bad_response', async () => {
    let body = 'NSE:SBIN,2025-01-01,766.5,774.0,763.2,772.5,318625';
    const { client } = setup(() => new Response(body, { status: 200 }));
    const daily = await client.ticker({ exchange: 'NSE', symbol: 'SBIN', format: 'txt' });
    expect(daily.ok && daily.value.data[0]?.timestamp).toBe(Date.UTC(2024, 11, 31, 18, 30) / 1000);
    body = 'NSE:SBIN,2025-01-01,766.5\n';
    const bad = await client.ticker({ exchange: 'NSE', symbol: 'SBIN', format: 'txt' });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'bad_response', message: /line 1/ } });
  });

  it('rejects a bad interval or date without a request', async () => {
    const { client, calls } = setup(() => json({ status: 'success', data: [] }));
    expect(await client.ticker({ exchange: 'NSE', symbol: 'SBIN', interval: '7m' as never })).toMatchObject({
      ok: false,
      error: { kind: 'bad_input' },
    });
    expect(await client.ticker({ exchange: 'NSE', symbol: 'SBIN', from: '01/02/2025' })).toMatchObject({
      ok: false,
      error: { kind: 'bad_input' },
    });
    expect(calls).toHaveLength(0);
  });
});

describe('smart orders', () => {
  it.each([
    [200, 'Positions Already Matched. No Action needed.'],
    [500, 'No OpenPosition Found. Not placing Exit order.'],
  ])('HTTP %i "%s" is a successful no-op', async (status, message) => {
    const { client, calls } = setup(() =>
      json({ status: status === 200 ? 'success' : 'error', message }, status),
    );
    const result = await client.placesmartorder({ ...ORDER, quantity: 0, position_size: 0 });
    expect(result).toEqual({ ok: true, value: { status: 'success', message } });
    expect(calls).toHaveLength(1);
  });

  it('another 500 stays a failure', async () => {
    const { client } = setup(() => json({ status: 'error', message: 'Failed to place smart order' }, 500));
    expect(await client.placesmartorder({ ...ORDER, position_size: 1 })).toMatchObject({
      ok: false,
      error: { kind: 'server' },
    });
  });
});

describe('a success without the order id it exists to return', () => {
  const MODIFY = { ...ORDER, orderid: '7', price: 1, trigger_price: 0, disclosed_quantity: 0 };
  it.each([
    ['missing', { status: 'success' }, 'orderid is missing'],
    ['null', { status: 'success', orderid: null }, 'orderid is missing'],
    ['empty', { status: 'success', orderid: '  ' }, 'orderid is empty'],
  ])(
    'orderid %s: unknown_outcome for placeorder, modifyorder and cancelorder, sent once',
    async (_w, body, why) => {
      const { client, calls } = setup(() => json(body));
      const expected = {
        ok: false,
        error: {
          kind: 'unknown_outcome',
          message: `${UNKNOWN_OUTCOME_MESSAGE} (the gateway answered success but ${why})`,
        },
      };
      expect(await client.placeorder(ORDER)).toEqual(expected);
      expect(await client.modifyorder(MODIFY)).toEqual(expected);
      expect(await client.cancelorder({ strategy: 's', orderid: '7' })).toEqual(expected);
      expect(calls.map((c) => c.url.split('/').pop())).toEqual(['placeorder', 'modifyorder', 'cancelorder']);
    },
  );

  it('a numeric orderid is still an order id', async () => {
    const { client } = setup(() => json({ status: 'success', orderid: 250408000989443 }));
    expect(await client.placeorder(ORDER)).toEqual({
      ok: true,
      value: { status: 'success', orderid: '250408000989443' },
    });
  });
});
