// The gateway client against a scripted fetch and a manual clock.
import { describe, expect, it } from 'vitest';
import {
  ManualClock,
  RateWindow,
  sleep,
  type Priority,
  type Release,
  UNKNOWN_OUTCOME_MESSAGE,
  createGatewayClient,
  type GatewayClientOptions,
} from '../../../src-main/gateway/index.js';
import { dropped, fakeFetch, hang, json, refused, type Handler } from '../../support/fake-fetch.js';

const KEY = 'f3c2a1b0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2';
const ORDER = {
  strategy: 'Ticket',
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 1,
  pricetype: 'MARKET',
  product: 'MIS',
} as const;
const ORDER_BOOK = {
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

function setup(handler: Handler, options: Partial<GatewayClientOptions> = {}) {
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

describe('error classification', () => {
  it('403: says key invalid or broker session expired, with the gateway text', async () => {
    const { client } = setup(() => json({ status: 'error', message: 'Invalid openalgo apikey' }, 403));
    const result = await client.funds();
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'forbidden',
        message: 'invalid key or broker session expired (gateway: Invalid openalgo apikey)',
        httpStatus: 403,
      },
    });
  });

  it('403 in semi-auto mode: the gateway text, not a key problem', async () => {
    const said =
      'Cancel order operation is not allowed in Semi-Auto mode. Please switch to Auto mode to cancel orders.';
    const { client } = setup(() => json({ status: 'error', message: said }, 403));
    expect(await client.cancelorder({ strategy: 's', orderid: '1' })).toEqual({
      ok: false,
      error: { kind: 'forbidden', message: said, httpStatus: 403 },
    });
  });

  it('401: broker session invalid or expired', async () => {
    const { client } = setup(() => json({ status: 'error', message: 'Session expired' }, 401));
    expect(await client.funds()).toMatchObject({
      ok: false,
      error: { kind: 'unauthorised', message: /^broker session invalid or expired/, httpStatus: 401 },
    });
  });

  it('400: the message, from a string or an object of field errors', async () => {
    const bodies = [
      { status: 'error', message: "{'strategy': ['Missing data for required field.']}" },
      { status: 'error', message: { exchange: ['Must be one of: NSE, NFO.'] } },
    ];
    const { client } = setup((_c, n) => json(bodies[n - 1], 400));
    expect(await client.funds()).toMatchObject({
      ok: false,
      error: {
        kind: 'bad_input',
        message: "{'strategy': ['Missing data for required field.']}",
        httpStatus: 400,
      },
    });
    expect(await client.funds()).toMatchObject({
      ok: false,
      error: { kind: 'bad_input', message: 'exchange: Must be one of: NSE, NFO.' },
    });
  });

  it('404 on a missing route: not_offered, remembered, later calls send nothing', async () => {
    const { client, calls } = setup((call) =>
      call.url.endsWith('/positionsopen')
        ? json({ status: 'error', message: 'Not found', path: '/api/v1/positionsopen' }, 404)
        : json(ORDER_BOOK),
    );
    const input = { strategy: 's', symbol: 'SBIN', exchange: 'NSE', product: 'MIS' } as const;
    const first = await client.positionsopen(input);
    expect(first).toEqual({
      ok: false,
      error: { kind: 'not_offered', message: 'the gateway does not offer positionsopen', httpStatus: 404 },
    });
    expect(calls).toHaveLength(1);
    const second = await client.positionsopen(input);
    expect(second).toMatchObject({ ok: false, error: { kind: 'not_offered' } });
    expect(calls).toHaveLength(1);
    expect(client.notOffered()).toEqual(['positionsopen']);
    expect((await client.orderbook()).ok).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('404 about a thing (unknown order) is an answer, not a missing route', async () => {
    const { client, calls } = setup(() => json({ status: 'error', message: 'Order 42 not found' }, 404));
    const result = await client.orderstatus({ strategy: 's', orderid: '42' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_input', message: 'Order 42 not found' } });
    await client.orderstatus({ strategy: 's', orderid: '42' });
    expect(calls).toHaveLength(2);
    expect(client.notOffered()).toEqual([]);
  });

  it('404 "Broker-specific module not found": not_offered saying so, not remembered', async () => {
    const { client, calls } = setup((_c, n) =>
      n === 1
        ? json({ status: 'error', message: 'Broker-specific module not found' }, 404)
        : json(ORDER_BOOK),
    );
    expect(await client.orderbook()).toEqual({
      ok: false,
      error: {
        kind: 'not_offered',
        message: 'the gateway has no module for its broker (gateway: Broker-specific module not found)',
        httpStatus: 404,
      },
    });
    // Once the gateway's broker module is installed, the next call goes through.
    expect((await client.orderbook()).ok).toBe(true);
    expect(calls).toHaveLength(2);
    expect(client.notOffered()).toEqual([]);
  });

  it('404 from a non-JSON page is a missing route', async () => {
    const { client } = setup(() => new Response('<html>404</html>', { status: 404 }));
    expect(await client.intervals()).toMatchObject({ ok: false, error: { kind: 'not_offered' } });
  });

  it('429: retryAfter from the body, else from the Retry-After header', async () => {
    const { client } = setup(
      (_c, n) =>
        n === 1
          ? json({ status: 'error', message: 'Rate limit exceeded.', retry_after: 60 }, 429)
          : json({ status: 'error', message: 'Rate limit exceeded.' }, 429, { 'Retry-After': '30' }),
      { retry: { maxRetries: 0 } },
    );
    expect(await client.placeorder(ORDER)).toEqual({
      ok: false,
      error: { kind: 'rate_limited', message: 'Rate limit exceeded.', httpStatus: 429, retryAfter: 60 },
    });
    expect(await client.orderbook()).toMatchObject({
      ok: false,
      error: { kind: 'rate_limited', retryAfter: 30 },
    });
  });

  it('a 429 holds back that operation until retry_after has passed', async () => {
    const { client, calls, clock } = setup((_c, n) =>
      n === 1
        ? json({ status: 'error', message: 'slow down', retry_after: 60 }, 429)
        : json({ status: 'success', orderid: '7' }),
    );
    await client.placeorder(ORDER);
    const held = await client.placeorder(ORDER);
    expect(held).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfter: 60 } });
    expect(calls).toHaveLength(1);
    await clock.advance(60_000);
    expect(await client.placeorder(ORDER)).toMatchObject({ ok: true, value: { orderid: '7' } });
    expect(calls).toHaveLength(2);
  });

  it('5xx: server, with the gateway message', async () => {
    const { client } = setup(() => json({ status: 'error', message: 'An unexpected error occurred' }, 500), {
      retry: { maxRetries: 0 },
    });
    expect(await client.funds()).toEqual({
      ok: false,
      error: { kind: 'server', message: 'An unexpected error occurred', httpStatus: 500 },
    });
  });

  it('a read answered with garbage or the wrong shape: bad_response', async () => {
    const bodies = [
      '<html>oops</html>',
      '{"status":"success","data":{"orders":[',
      '{"status":"success","data":5}',
    ];
    const { client } = setup((_c, n) => new Response(bodies[n - 1], { status: 200 }));
    for (let i = 0; i < bodies.length; i++) {
      expect(await client.orderbook()).toMatchObject({
        ok: false,
        error: { kind: 'bad_response', httpStatus: 200 },
      });
    }
  });

  it('a mutation accepted with an unreadable answer: unknown_outcome', async () => {
    const { client, calls } = setup(() => new Response('{"orderid":"12', { status: 200 }));
    expect(await client.placeorder(ORDER)).toEqual({
      ok: false,
      error: { kind: 'unknown_outcome', message: UNKNOWN_OUTCOME_MESSAGE },
    });
    expect(calls).toHaveLength(1);
  });

  it('never lets the key travel on in a message the gateway echoed', async () => {
    const { client } = setup(() => json({ status: 'error', message: `bad key ${KEY}` }, 400));
    const result = await client.funds();
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result).toMatchObject({ ok: false, error: { message: 'bad key [redacted]' } });
  });

  it('a refused connection is network, for reads and mutations alike', async () => {
    const { client, calls } = setup(() => refused(), { retry: { maxRetries: 0 } });
    expect(await client.placeorder(ORDER)).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await client.orderbook()).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(calls).toHaveLength(2);
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

describe('mutations are never retried', () => {
  it('timeout: one request, unknown_outcome', async () => {
    const { client, calls, clock } = setup((call) => hang(call));
    const pending = client.placeorder(ORDER);
    await clock.advance(14_999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    expect(await pending).toEqual({
      ok: false,
      error: { kind: 'unknown_outcome', message: UNKNOWN_OUTCOME_MESSAGE },
    });
    await clock.advance(60_000);
    expect(calls).toHaveLength(1);
  });

  it('500: one request, server', async () => {
    const { client, calls, clock } = setup(() =>
      json({ status: 'error', message: 'Failed to place order' }, 500),
    );
    const result = await client.placeorder(ORDER);
    await clock.advance(60_000);
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', httpStatus: 500 } });
    expect(calls).toHaveLength(1);
  });

  it('connection dropped after sending: one request, unknown_outcome', async () => {
    const { client, calls, clock } = setup(() => dropped());
    const result = await client.cancelorder({ strategy: 's', orderid: '1' });
    await clock.advance(60_000);
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unknown_outcome', message: UNKNOWN_OUTCOME_MESSAGE },
    });
    expect(calls).toHaveLength(1);
  });

  it('a port fetch refuses to use: network (nothing left the machine)', async () => {
    const { client, calls } = setup(() => {
      throw new TypeError('fetch failed', { cause: new Error('bad port') });
    });
    expect(await client.placeorder(ORDER)).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(calls).toHaveLength(1);
  });

  it('a plain fetch failure is treated as possibly sent', async () => {
    const { client, calls } = setup(() => {
      throw new TypeError('fetch failed');
    });
    expect(
      await client.modifyorder({ ...ORDER, orderid: '1', price: 1, trigger_price: 0, disclosed_quantity: 0 }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'unknown_outcome' },
    });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['null', null, 'no error detail (null was thrown)'],
    ['a string', 'socket hang up', 'socket hang up'],
    ['an object without a prototype', Object.create(null) as object, '[object Object]'],
  ])('a fetch that throws %s is a typed failure, never a rejection', async (_what, thrown, said) => {
    const { client, calls } = setup(
      () => {
        throw thrown;
      },
      { retry: { maxRetries: 0 } },
    );
    const read = await client.orderbook();
    expect(read).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(!read.ok && read.error.message).toContain(said);
    // It may have been sent: a mutation's outcome is unknown, and it goes once.
    expect(await client.cancelorder({ strategy: 's', orderid: '1' })).toMatchObject({
      ok: false,
      error: { kind: 'unknown_outcome' },
    });
    expect(calls).toHaveLength(2);
  });

  it('429: one request, rate_limited (nothing was placed)', async () => {
    const { client, calls, clock } = setup(() =>
      json({ status: 'error', message: 'slow', retry_after: 1 }, 429),
    );
    const result = await client.placeorder(ORDER);
    await clock.advance(10_000);
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfter: 1 } });
    expect(calls).toHaveLength(1);
  });
});

describe('reads are retried', () => {
  it('after 5xx and dropped connections, with backoff, up to twice', async () => {
    const { client, calls, clock } = setup((_c, n) =>
      n === 1 ? json({ status: 'error', message: 'boom' }, 502) : n === 2 ? dropped() : json(ORDER_BOOK),
    );
    const pending = client.orderbook();
    await clock.advance(0);
    expect(calls).toHaveLength(1);
    await clock.advance(10_000);
    expect((await pending).ok).toBe(true);
    expect(calls).toHaveLength(3);
    // Backoff: base 250 ms plus jitter (0.5 × 250 × 2^attempt).
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBe(375);
    expect((calls[2]?.at ?? 0) - (calls[1]?.at ?? 0)).toBe(500);
  });

  it('gives up after three attempts with the last error', async () => {
    const { client, calls, clock } = setup(() => json({ status: 'error', message: 'boom' }, 500));
    const pending = client.funds();
    await clock.advance(10_000);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(calls).toHaveLength(3);
  });

  it('after a timeout, then reports timeout', async () => {
    const { client, calls, clock } = setup((call) => hang(call));
    const pending = client.positionbook();
    await clock.advance(60_000);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(calls).toHaveLength(3);
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(10_000);
  });

  it('honours retry_after on 429', async () => {
    const { client, calls, clock } = setup((_c, n) =>
      n === 1 ? json({ status: 'error', message: 'slow', retry_after: 2 }, 429) : json(ORDER_BOOK),
    );
    const pending = client.orderbook();
    await clock.advance(1_999);
    expect(calls).toHaveLength(1);
    await clock.advance(2_000);
    expect((await pending).ok).toBe(true);
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
  });

  it('does not sit out a long retry_after: returns rate_limited', async () => {
    const { client, calls, clock } = setup(() =>
      json({ status: 'error', message: 'slow', retry_after: 60 }, 429),
    );
    const result = await client.orderbook();
    await clock.advance(120_000);
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfter: 60 } });
    expect(calls).toHaveLength(1);
  });

  it('not after a bad input or an unreadable answer', async () => {
    const { client, calls, clock } = setup((_c, n) =>
      n === 1 ? json({ status: 'error', message: 'bad' }, 400) : new Response('garbage'),
    );
    await client.funds();
    await client.funds();
    await clock.advance(10_000);
    expect(calls).toHaveLength(2);
  });
});

describe('one rate budget per client', () => {
  it('honours N requests per second over time', async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 10 });
    const start = clock.now();
    const all = Promise.all(Array.from({ length: 25 }, () => client.orderbook()));
    await clock.advance(5_000);
    const results = await all;
    expect(results.every((r) => r.ok)).toBe(true);
    const offsets = calls.map((c) => c.at - start);
    // Reads take 9 of the 10: the last slot is kept for an order.
    expect(offsets.filter((t) => t === 0)).toHaveLength(9);
    expect(offsets.filter((t) => t === 1000)).toHaveLength(9);
    expect(offsets.filter((t) => t === 2000)).toHaveLength(7);
    // No window of one second ever holds more than 10 requests.
    for (const t of offsets)
      expect(offsets.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(10);
  });

  it('is configurable', async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 2 });
    const all = Promise.all(Array.from({ length: 5 }, () => client.funds()));
    await clock.advance(5_000);
    await all;
    expect(calls.map((c) => c.at - (calls[0]?.at ?? 0))).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('sends queued mutations of the api window ahead of its queued reads', async () => {
    const { client, calls, clock } = setup(
      (call) =>
        call.url.endsWith('/cancelallorder')
          ? json({ status: 'success', canceled_orders: [], failed_cancellations: [], message: 'none open' })
          : json(ORDER_BOOK),
      { rateLimit: 1 },
    );
    const reads = [client.orderbook(), client.tradebook(), client.holdings()];
    await clock.advance(0);
    // Cancel-all is a mutation the gateway counts with the reads (API_RATE_LIMIT).
    const cancelAll = client.cancelallorder({ strategy: 'Ticket' });
    await clock.advance(10_000);
    await Promise.all([...reads, cancelAll]);
    expect(calls.map((c) => c.url.replace('http://gateway.test/api/v1/', ''))).toEqual([
      'orderbook',
      'cancelallorder',
      'tradebook',
      'holdings',
    ]);
  });

  it("sends an order's reads ahead of the trader's reads, and background polling last", async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 1 });
    const polling = client.withPriority('background');
    const polls = [polling.orderbook(), polling.positionbook(), polling.tradebook()];
    await clock.advance(0);
    const asked = client.holdings();
    const order = client.withPriority('order').funds();
    // A view's mutations stay mutations, whatever its lane (cancel-all counts in the api window).
    const mutation = polling.cancelallorder({ strategy: 'Ticket' });
    await clock.advance(10_000);
    await Promise.all([...polls, asked, order, mutation]);
    expect(calls.map((c) => c.url.replace('http://gateway.test/api/v1/', ''))).toEqual([
      'orderbook',
      'cancelallorder',
      'funds',
      'holdings',
      'positionbook',
      'tradebook',
    ]);
    // One budget behind every view: one request a second in the api window.
    expect(calls.map((c) => c.at - (calls[0]?.at ?? 0))).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
  });
});

describe("the budget's windows are the gateway's limiter classes", () => {
  const QUOTE = {
    status: 'success',
    data: { ask: 1, bid: 1, high: 1, low: 1, ltp: 1, open: 1, prev_close: 1, volume: 0 },
  };
  /** Answers each path as the gateway would; every answer is ok. */
  const gateway: Handler = (call) => {
    const op = call.url.replace('http://gateway.test/api/v1/', '');
    if (['placeorder', 'modifyorder', 'cancelorder'].includes(op))
      return json({ status: 'success', orderid: '1' });
    if (op === 'placesmartorder') return json({ status: 'success', orderid: '2' });
    if (op === 'quotes') return json(QUOTE);
    return json(ORDER_BOOK);
  };
  const opOf = (url: string) => url.replace('http://gateway.test/api/v1/', '');
  const MODIFY = {
    ...ORDER,
    orderid: '1',
    pricetype: 'LIMIT',
    price: 100,
    trigger_price: 0,
    disclosed_quantity: 0,
  } as const;

  it('a saturated api window does not delay a placeorder, a modify or a cancel', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const polling = client.withPriority('background');
    const polls = Array.from({ length: 30 }, () => polling.orderbook());
    const asked = Array.from({ length: 5 }, () => client.funds());
    await clock.advance(100);
    const start = clock.now();
    const orders = [
      client.placeorder(ORDER),
      client.modifyorder(MODIFY),
      client.cancelorder({ orderid: '1', strategy: 'Ticket' }),
    ];
    await clock.advance(0);
    const mutations = calls.filter((c) => /placeorder|modifyorder|cancelorder/.test(c.url));
    expect(mutations.map((c) => c.at - start)).toEqual([0, 0, 0]);
    await clock.advance(10_000);
    expect((await Promise.all(orders)).every((r) => r.ok)).toBe(true);
    await Promise.all([...polls, ...asked]);
  });

  it('10 order mutations and their 10 quote reads within a second all go without waiting', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const risk = client.withPriority('order');
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      all.push(risk.quotes({ symbol: 'SBIN', exchange: 'NSE' }));
      all.push(client.placeorder(ORDER));
      await clock.advance(50);
    }
    expect(calls).toHaveLength(20);
    await clock.advance(10_000);
    await Promise.all(all);
    // Each went when it was asked: the i-th pair at i × 50 ms.
    calls.forEach((c, i) => expect(c.at - calls[0]!.at).toBe(Math.floor(i / 2) * 50));
  });

  it('still sends at most N a second in each class, the classes side by side', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const start = clock.now();
    const all = [
      ...Array.from({ length: 25 }, () => client.placeorder(ORDER)),
      ...Array.from({ length: 25 }, () => client.placesmartorder({ ...ORDER, position_size: 1 })),
      ...Array.from({ length: 25 }, () =>
        client.withPriority('order').quotes({ symbol: 'SBIN', exchange: 'NSE' }),
      ),
      // Cancel-all is counted with the reads, not with the order mutations.
      client.cancelallorder({ strategy: 'Ticket' }),
    ];
    await clock.advance(10_000);
    await Promise.all(all);
    const classOf = (op: string) =>
      op === 'placeorder' ? 'order' : op === 'placesmartorder' ? 'smart' : 'api';
    for (const cls of ['order', 'smart', 'api']) {
      const at = calls.filter((c) => classOf(opOf(c.url)) === cls).map((c) => c.at - start);
      expect(at.length).toBe(cls === 'api' ? 26 : 25);
      for (const t of at) expect(at.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(10);
      // Each class had its own ten at once.
      expect(at.filter((t) => t === 0)).toHaveLength(10);
    }
    expect(calls.filter((c) => c.at === start)).toHaveLength(30);
  });

  it('lanes still order the api window; an order mutation takes no api slot', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 1 });
    const polling = client.withPriority('background');
    const polls = [polling.orderbook(), polling.positionbook()];
    await clock.advance(0);
    const asked = client.holdings();
    const quote = client.withPriority('order').quotes({ symbol: 'SBIN', exchange: 'NSE' });
    const order = polling.placeorder(ORDER);
    await clock.advance(10_000);
    await Promise.all([...polls, asked, quote, order]);
    expect(calls.map((c) => [opOf(c.url), c.at - calls[0]!.at])).toEqual([
      ['orderbook', 0],
      ['placeorder', 0],
      ['quotes', 1000],
      ['holdings', 2000],
      ['positionbook', 3000],
    ]);
  });
});

describe('RateWindow: one limiter window, its lanes', () => {
  it('grants in priority order, FIFO within a priority, and never more than N per window', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 2, 1000);
    const log: string[] = [];
    const take = (p: 'read' | 'mutation', name: string) =>
      budget.acquire(p).then((release) => {
        log.push(`${name}@${clock.now()}`);
        release();
      });
    const all = [
      take('read', 'r1'),
      take('read', 'r2'),
      take('read', 'r3'),
      take('mutation', 'm1'),
      take('read', 'r4'),
      take('mutation', 'm2'),
    ];
    await clock.advance(0);
    expect(log).toEqual(['r1@0', 'r2@0']);
    await clock.advance(3_000);
    await Promise.all(all);
    expect(log).toEqual(['r1@0', 'r2@0', 'm1@1000', 'm2@1000', 'r3@2000', 'r4@2000']);
    expect(budget.waiting).toBe(0);
  });

  it('holds a slot while its request is in flight and for a window after its answer', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 1, 1000);
    const slow = await budget.acquire('read');
    let next = false;
    const waiting = budget.acquire('read').then((release) => {
      next = true;
      return release;
    });
    await clock.advance(5_000);
    expect(next).toBe(false);
    slow();
    slow(); // a second release changes nothing
    await clock.advance(999);
    expect(next).toBe(false);
    await clock.advance(1);
    expect(next).toBe(true);
    (await waiting)();
  });

  it('keeps one slot for mutations: reads in flight never hold an order back', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 3, 1000);
    const reads = [await budget.acquire('read'), await budget.acquire('read')];
    let third = false;
    void budget.acquire('read').then(() => (third = true));
    await clock.advance(0);
    expect(third).toBe(false);
    let order = false;
    void budget.acquire('mutation').then(() => (order = true));
    await clock.advance(0);
    expect(order).toBe(true);
    // The reserved slot is the mutation's now; the waiting read goes once a read's window is over.
    for (const release of reads) release();
    await clock.advance(999);
    expect(third).toBe(false);
    await clock.advance(1);
    expect(third).toBe(true);
  });

  it('grants an order-path request queued behind N background requests first, within the cap', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 10, 1000);
    const grants: { name: string; at: number }[] = [];
    const take = (p: Priority, name: string) =>
      budget.acquire(p).then((release) => {
        grants.push({ name, at: clock.now() });
        // Answered 50 ms later: the slot is held for a window after that.
        void sleep(clock, 50).then(release);
      });
    const polls = Array.from({ length: 30 }, (_, i) => take('background', `poll${i}`));
    await clock.advance(0);
    // Nine polls go at once; the last slot is kept for the order path.
    expect(grants).toHaveLength(9);
    const asked = take('read', 'refresh');
    const quote = take('order', 'quote');
    await clock.advance(0);
    // The quote an order waits on takes the kept slot at once, ahead of 21 queued polls.
    expect(grants.map((g) => g.name)).toContain('quote');
    const mutation = take('mutation', 'place');
    await clock.advance(10_000);
    await Promise.all([...polls, asked, quote, mutation]);
    const names = grants.map((g) => g.name);
    // When the first slots free (one window after the polls' answers), the mutation goes, then the
    // trader's refresh, and only then the polls that were queued before both.
    expect(names.slice(9, 13)).toEqual(['quote', 'place', 'refresh', 'poll9']);
    expect(grants.find((g) => g.name === 'place')?.at).toBe(1050);
    // Never more than 10 grants within any second.
    for (const g of grants)
      expect(grants.filter((h) => h.at >= g.at && h.at < g.at + 1000).length).toBeLessThanOrEqual(10);
    expect(grants).toHaveLength(33);
  });

  it('keeps the last slot for the order path: background and trader reads never take it', async () => {
    const clock = new ManualClock(0);
    const budget = new RateWindow(clock, 3, 1000);
    const held = [await budget.acquire('background'), await budget.acquire('read')];
    const granted: string[] = [];
    void budget.acquire('background').then(() => granted.push('background'));
    void budget.acquire('read').then(() => granted.push('read'));
    await clock.advance(0);
    expect(granted).toEqual([]);
    let order: Release | undefined;
    void budget.acquire('order').then((release) => {
      order = release;
      granted.push('order');
    });
    await clock.advance(0);
    expect(granted).toEqual(['order']);
    // Two slots free a window after their answers: the trader's read takes one, the poll not the last.
    for (const release of held) release();
    await clock.advance(1000);
    expect(granted).toEqual(['order', 'read']);
    order?.();
    await clock.advance(1000);
    expect(granted).toEqual(['order', 'read', 'background']);
  });

  it('is disabled by a rate of 0', async () => {
    const budget = new RateWindow(new ManualClock(0), 0);
    await Promise.all(Array.from({ length: 100 }, () => budget.acquire('read')));
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
