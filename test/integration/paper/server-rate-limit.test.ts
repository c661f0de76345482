// The paper gateway's HTTP server over real HTTP: per-key rate limiting with retry_after and Retry-
// After, at the defaults, from API_RATE_LIMIT, and its configuration.
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../src-main/contract/index.js';
import {
  createRateLimiter,
  parseRateLimit,
  resolveRateLimits,
} from '../../../src-main/paper/http/rate-limit.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

describe('rate limiting', () => {
  const limited = useTestGateway({ rateLimits: { api: 3, order: 2, ticker: 2, expiry: 2 } });

  it('429 after a burst, with retry_after and Retry-After, per bucket', async () => {
    const k = limited.apiKey;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => limited.post('/api/v1/ping', { apikey: k })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const r = results.find((x) => x.status === 429)!;
    expect(r.body['status']).toBe('error');
    expect(r.body['message']).toBe('Rate limit exceeded. Please slow down your requests.');
    expect(r.body['retry_after']).toBe(1);
    expect(r.headers.get('retry-after')).toBe('1');
    // The expiry bucket is separate.
    const e = await limited.post('/api/v1/expiry', {
      apikey: k,
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'futures',
    });
    expect(e.status).toBe(200);
  });

  it("the window moves with the gateway's clock: a second later requests pass again", async () => {
    const k = limited.apiKey;
    expect((await limited.post('/api/v1/ping', { apikey: k })).status).toBe(429);
    // The windows run on the gateway's clock, not on wall time: 999 ms on it leave the window full...
    limited.clock.advance(999);
    expect((await limited.post('/api/v1/ping', { apikey: k })).status).toBe(429);
    // ...until the clock has moved a whole second past the burst.
    limited.clock.advance(1);
    expect((await limited.post('/api/v1/ping', { apikey: k })).status).toBe(200);
  });

  it('each read route has its own window: saturated books do not starve search or quotes', async () => {
    const k = limited.newKey();
    const depth = await Promise.all(
      ['SBIN', 'INFY', 'TCS', 'RELIANCE', 'HDFCBANK'].map((symbol) =>
        limited.post('/api/v1/depth', { apikey: k, symbol, exchange: 'NSE' }),
      ),
    );
    expect(depth.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const search = await limited.post('/api/v1/search', { apikey: k, query: 'SBIN' });
    expect(search.status).toBe(200);
    const quotes = await limited.post('/api/v1/quotes', { apikey: k, symbol: 'SBIN', exchange: 'NSE' });
    expect(quotes.status).toBe(200);
    // Account reads on the same API_RATE_LIMIT are their own routes too.
    expect((await limited.post('/api/v1/funds', { apikey: k })).status).toBe(200);
  });

  it('each order route has its own window at ORDER_RATE_LIMIT', async () => {
    const k = limited.newKey();
    const order = { apikey: k, strategy: 't', exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity: 1 };
    const placed = await Promise.all(
      Array.from({ length: 3 }, () =>
        limited.post('/api/v1/placeorder', { ...order, pricetype: 'LIMIT', product: 'MIS', price: 1 }),
      ),
    );
    expect(placed.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const orderid = placed.find((r) => r.status === 200)!.body['orderid'];
    const cancel = await limited.post('/api/v1/cancelorder', { apikey: k, strategy: 't', orderid });
    expect(cancel.status, cancel.text).toBe(200);
  });

  it('ticker is limited on its own bucket, in txt as plain text', async () => {
    const k = limited.apiKey;
    const path = '/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-19&format=txt';
    const rs = await Promise.all(Array.from({ length: 4 }, () => limited.get(path, { 'X-API-KEY': k })));
    const over = rs.filter((r) => r.status === 429);
    expect(over).toHaveLength(2);
    expect(over[0]!.text).toBe('Rate limit exceeded. Please slow down your requests.');
    expect(over[0]!.headers.get('retry-after')).toBe('1');
  });
});

describe('rate limiting at the defaults (no override, empty environment)', () => {
  // `rateLimits: {}` replaces the test helper's raised limits; `env: {}` hides the caller's variables.
  const plain = useTestGateway({ rateLimits: {}, env: {} });

  const burst = <T extends { status: number }>(n: number, call: () => Promise<T>) =>
    Promise.all(Array.from({ length: n }, call));
  const count = (rs: readonly { status: number }[], status: number) =>
    rs.filter((r) => r.status === status).length;

  it('every bucket is 10 requests per second', () => {
    expect(plain.gateway.server.limits).toEqual({ api: 10, order: 10, smart: 10, ticker: 10, expiry: 10 });
  });

  it('ticker: the 11th request within a second is 429 with retry_after and Retry-After', async () => {
    const path = '/api/v1/ticker/NSE:SBIN?interval=1m&from=2026-11-20&to=2026-11-20';
    // Warm the series with another key so the burst's requests are all quick.
    const warm = 'warm-up-key-ticker';
    plain.gateway.keys.add(warm);
    expect((await plain.get(path, { 'X-API-KEY': warm })).status).toBe(200);
    const rs = await burst(14, () => plain.get(path, { 'X-API-KEY': plain.apiKey }));
    expect([count(rs, 200), count(rs, 429)]).toEqual([10, 4]);
    const over = rs.find((r) => r.status === 429)!;
    expect(over.json).toEqual({
      status: 'error',
      message: 'Rate limit exceeded. Please slow down your requests.',
      retry_after: 1,
    });
    expect(over.headers.get('retry-after')).toBe('1');
    // Limits are per API key: another key is still served at once.
    expect((await plain.get(path, { 'X-API-KEY': warm })).status).toBe(200);
  });

  it('expiry: the 11th request within a second is 429, on its own bucket', async () => {
    const body = { apikey: plain.apiKey, symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' };
    const rs = await burst(14, () => plain.post('/api/v1/expiry', body));
    expect([count(rs, 200), count(rs, 429)]).toEqual([10, 4]);
    expectExact(ErrorBody, rs.find((r) => r.status === 429)!.json);
    // The other buckets of the same key are untouched.
    expect((await plain.post('/api/v1/ping', { apikey: plain.apiKey })).status).toBe(200);
  });

  it('a bad key is 403, never 429, however fast it is sent', async () => {
    const rs = await burst(14, () =>
      plain.post('/api/v1/expiry', {
        apikey: 'f'.repeat(64),
        symbol: 'NIFTY',
        exchange: 'NFO',
        instrumenttype: 'options',
      }),
    );
    expect(count(rs, 403)).toBe(14);
  });
});

describe('rate limiting from API_RATE_LIMIT', () => {
  const fromEnv = useTestGateway({ rateLimits: {}, env: { API_RATE_LIMIT: '4 per second' } });

  it('sets the general bucket (and, per spec §8, the ticker and expiry ones); orders keep 10', async () => {
    expect(fromEnv.gateway.server.limits).toEqual({ api: 4, order: 10, smart: 10, ticker: 4, expiry: 4 });
    const rs = await Promise.all(
      Array.from({ length: 7 }, () => fromEnv.post('/api/v1/intervals', { apikey: fromEnv.apiKey })),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(4);
    expect(rs.filter((r) => r.status === 429)).toHaveLength(3);
  });
});

describe('rate limit configuration', () => {
  it('reads "N per second" and bare numbers', () => {
    expect(parseRateLimit('10 per second')).toBe(10);
    expect(parseRateLimit('50')).toBe(50);
    expect(parseRateLimit('5/s')).toBe(5);
    expect(parseRateLimit('10 per second;40 per minute')).toBe(10);
    expect(parseRateLimit('40 per minute')).toBeUndefined();
    expect(parseRateLimit('lots')).toBeUndefined();
  });

  it('environment then overrides; ticker and expiry follow API_RATE_LIMIT', () => {
    const l = resolveRateLimits({ API_RATE_LIMIT: '50 per second', ORDER_RATE_LIMIT: '7' }, { smart: 3 });
    expect(l).toEqual({ api: 50, order: 7, smart: 3, ticker: 50, expiry: 50 });
    expect(resolveRateLimits({})).toEqual({ api: 10, order: 10, smart: 10, ticker: 10, expiry: 10 });
    expect(() => resolveRateLimits({ API_RATE_LIMIT: 'fast' })).toThrow(/API_RATE_LIMIT/);
  });

  it('moving window: the limit holds in any 1000 ms', () => {
    let t = 0;
    const lim = createRateLimiter({ api: 2, order: 1, smart: 1, ticker: 1, expiry: 1 }, { now: () => t });
    expect(lim.take('a', 'api', '/r')).toBe(0);
    t = 600;
    expect(lim.take('a', 'api', '/r')).toBe(0);
    t = 900;
    expect(lim.take('a', 'api', '/r')).toBe(1);
    expect(lim.take('b', 'api', '/r')).toBe(0);
    expect(lim.take('a', 'api', '/other')).toBe(0);
    t = 1000;
    expect(lim.take('a', 'api', '/r')).toBe(0);
    t = 1100;
    expect(lim.take('a', 'api', '/r')).toBe(1);
    t = 1600;
    expect(lim.take('a', 'api', '/r')).toBe(0);
  });
});
