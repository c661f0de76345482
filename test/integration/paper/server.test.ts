// The paper gateway's HTTP server over real HTTP: malformed and hostile input never crashes it
// (fast-check fuzz over every route), error envelopes and statuses, 404s, trailing slashes, and
// per-key rate limiting with retry_after and Retry-After.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../src-main/contract/index.js';
import {
  createRateLimiter,
  parseRateLimit,
  resolveRateLimits,
} from '../../../src-main/paper/http/rate-limit.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const POST_ROUTES = [
  '/api/v1/ping',
  '/api/v1/depth',
  '/api/v1/quotes',
  '/api/v1/multiquotes',
  '/api/v1/symbol',
  '/api/v1/search',
  '/api/v1/expiry',
  '/api/v1/history',
  '/api/v1/intervals',
  '/api/v1/analyzer',
];

const gw = useTestGateway();

describe('bad bodies are 400 with a message', () => {
  it.each(POST_ROUTES)('%s: malformed JSON', async (path) => {
    const r = await gw.post(path, '{"apikey": ');
    expect(r.status).toBe(400);
    expect(r.body['status']).toBe('error');
    expect(r.body['message']).toMatch(/JSON/);
  });

  it.each(['[]', 'null', '"text"', '42', 'true', '[{"apikey":"x"}]'])('non-object body %s', async (raw) => {
    const r = await gw.post('/api/v1/depth', raw);
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/JSON object/);
  });

  it('empty body with a JSON content type', async () => {
    const r = await gw.post('/api/v1/ping', '');
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/empty/);
  });

  it('no body and no content type', async () => {
    const r = await gw.request('/api/v1/ping', { method: 'POST' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/JSON object/);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'content type %s',
    async (type) => {
      const r = await gw.post('/api/v1/ping', JSON.stringify({ apikey: gw.apiKey }), {
        'content-type': type,
      });
      expect(r.status).toBe(400);
      expect(r.body['message']).toMatch(/Content-Type must be application\/json/);
    },
  );

  it('JSON with a charset is fine', async () => {
    const r = await gw.post(
      '/api/v1/ping',
      { apikey: gw.apiKey },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(r.status).toBe(200);
  });

  it.each([
    [{ symbol: 5, exchange: 'NSE' }, /^symbol must be a string$/],
    [{ symbol: 'SBIN', exchange: 5 }, /^exchange must be a string$/],
    [{ symbol: '', exchange: 'NSE' }, /^symbol cannot be empty$/],
    [{ symbol: '   ', exchange: 'NSE' }, /^symbol cannot be empty$/],
    [{ symbol: null, exchange: 'NSE' }, /^symbol must be a string$/],
    [{ symbol: ['SBIN'], exchange: 'NSE' }, /^symbol must be a string$/],
    [{ symbol: 'S'.repeat(100_000), exchange: 'NSE' }, /^symbol must be at most 64 characters$/],
    [{ exchange: 'NSE' }, /^symbol is required$/],
  ])('depth %# names the field', async (patch, message) => {
    const r = await gw.post('/api/v1/depth', { apikey: gw.apiKey, ...patch });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(message);
  });

  it.each([
    [{ apikey: 12 }, /^apikey must be a string$/],
    [{ apikey: '' }, /^apikey cannot be empty$/],
    [{ apikey: 'k'.repeat(300) }, /^apikey must be at most 256 characters$/],
  ])('apikey %# names the field', async (body, message) => {
    const r = await gw.post('/api/v1/ping', body);
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(message);
  });

  it('a body over 1 MB is 413 with a message', async () => {
    const r = await gw.post('/api/v1/search', { apikey: gw.apiKey, query: 'x'.repeat(2 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body['message']).toMatch(/too large/);
  });

  const HUGE = 'X'.repeat(100_000);
  it.each([
    [
      '/api/v1/expiry',
      { symbol: HUGE, exchange: 'NFO', instrumenttype: 'options' },
      'Symbol parameter must be at most 64 characters',
    ],
    [
      '/api/v1/expiry',
      { symbol: 'NIFTY', exchange: HUGE, instrumenttype: 'options' },
      'Exchange parameter must be at most 64 characters',
    ],
    [
      '/api/v1/expiry',
      { symbol: 'NIFTY', exchange: 'NFO', instrumenttype: HUGE },
      'Instrumenttype parameter must be at most 64 characters',
    ],
    ['/api/v1/search', { query: HUGE }, 'query must be at most 256 characters'],
    ['/api/v1/search', { query: 'SBIN', exchange: HUGE }, /^exchange must be one of: NSE, /],
    ['/api/v1/quotes', { symbol: HUGE, exchange: 'NSE' }, 'symbol must be at most 64 characters'],
    ['/api/v1/symbol', { symbol: 'SBIN', exchange: HUGE }, /^exchange must be one of: NSE, /],
    [
      '/api/v1/multiquotes',
      { symbols: [{ symbol: HUGE, exchange: 'NSE' }] },
      'symbols[0].symbol: symbol must be at most 64 characters',
    ],
    [
      '/api/v1/multiquotes',
      { symbols: Array.from({ length: 501 }, () => ({ symbol: 'SBIN', exchange: 'NSE' })) },
      'symbols may hold at most 500 entries',
    ],
    [
      '/api/v1/history',
      { symbol: 'SBIN', exchange: 'NSE', interval: HUGE, start_date: '2026-11-01', end_date: '2026-11-02' },
      /^interval must be one of: 1s, /,
    ],
    [
      '/api/v1/history',
      { symbol: 'SBIN', exchange: 'NSE', interval: 'D', start_date: HUGE, end_date: '2026-11-02' },
      'start_date: must be a date (YYYY-MM-DD) or a timestamp in milliseconds (13 digits; 10 would be seconds)',
    ],
  ] as const)('%s with a 100,000-character field is 400 naming it (%#)', async (path, fields, message) => {
    const r = await gw.post(path, { apikey: gw.apiKey, ...fields });
    expect(r.status).toBe(400);
    expectExact(ErrorBody, r.json);
    expect(r.body['message']).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[[\]().]/g, '\\$&')}$`) : message,
    );
  });

  it('ticker: a huge symbol or key is 400 naming it, as JSON or (format=txt) plain text', async () => {
    const long = `/api/v1/ticker/NSE:${'S'.repeat(5000)}`;
    const json = await gw.get(long, { 'X-API-KEY': gw.apiKey });
    expect(json.status).toBe(400);
    expect(json.json).toEqual({ status: 'error', message: 'symbol must be at most 64 characters' });
    const txt = await gw.get(`${long}?format=txt`, { 'X-API-KEY': gw.apiKey });
    expect(txt.status).toBe(400);
    expect(txt.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(txt.text).toBe('symbol must be at most 64 characters');
    const colons = await gw.get(`/api/v1/ticker/${'A:'.repeat(3000)}`, { 'X-API-KEY': gw.apiKey });
    expect(colons.status).toBe(400);
    expect(String(colons.body['message']).length).toBeLessThan(200);
    const apikey = await gw.get(`/api/v1/ticker/NSE:SBIN?apikey=${'k'.repeat(5000)}`);
    expect(apikey.status).toBe(400);
    expect(apikey.json).toEqual({ status: 'error', message: 'apikey must be at most 256 characters' });
    const twice = await gw.get('/api/v1/ticker/NSE:SBIN?apikey=a&apikey=b');
    expect(twice.status).toBe(400);
    expect(twice.body['message']).toBe('apikey must be given once, as a string');
  });

  it('a request line over 16 KiB is refused with the envelope, and the server carries on', async () => {
    const r = await gw.get(`/api/v1/ticker/NSE:SBIN?interval=${'x'.repeat(20_000)}`, {
      'X-API-KEY': gw.apiKey,
    });
    expect(r.status).toBe(431);
    expect(r.json).toEqual({
      status: 'error',
      message: 'Request line and headers are too large (limit 16 KiB)',
    });
    expect((await gw.post('/api/v1/ping', { apikey: gw.apiKey })).status).toBe(200);
  });

  it('prototype-poisoning keys are refused, not merged', async () => {
    const r = await gw.post('/api/v1/ping', `{"apikey":"${gw.apiKey}","__proto__":{"polluted":true}}`);
    expect(r.status).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('unknown request fields are ignored', async () => {
    const r = await gw.post('/api/v1/ping', { apikey: gw.apiKey, extra: 1, nested: { a: [1] } });
    expect(r.status).toBe(200);
  });
});

describe('paths', () => {
  it('unknown path is 404 with the upstream shape', async () => {
    const r = await gw.post('/api/v1/doesnotexist?x=1', { apikey: gw.apiKey });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ status: 'error', message: 'Not found', path: '/api/v1/doesnotexist' });
  });

  it('the embedded gateway binds to loopback by default, on the port it reports', () => {
    expect(gw.gateway.host).toBe('127.0.0.1');
    const address = gw.gateway.server.app.server.address();
    expect(typeof address === 'object' && address !== null ? address.address : address).toBe('127.0.0.1');
    expect(gw.url).toBe(`http://127.0.0.1:${gw.gateway.port}`);
  });

  it('trailing slash is accepted', async () => {
    const r = await gw.post('/api/v1/ping/', { apikey: gw.apiKey });
    expect(r.status).toBe(200);
  });

  it('wrong method is the unknown-route 404, as the live server (live-recorded.test.ts)', async () => {
    const r = await gw.get('/api/v1/depth');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ status: 'error', message: 'Not found', path: '/api/v1/depth' });
    ErrorBody.parse(r.json);
  });

  it('a malformed URL is 400 in the envelope', async () => {
    const r = await gw.get('/api/v1/ticker/%E0%A4%A');
    expect(r.status).toBe(400);
    expect(r.body['status']).toBe('error');
  });
});

describe('fuzz: nothing a client sends crashes the server or makes it 500', () => {
  const jsonValue = fc.jsonValue({ maxDepth: 3 });
  const field = fc.oneof(
    jsonValue,
    fc.string({ maxLength: 80 }),
    fc.constantFrom('NSE', 'NFO', 'SBIN', 'NIFTY', 'D', '1m', 'options', '2026-11-20', '', ' ', '0'),
  );
  const body = fc.oneof(
    jsonValue.map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc
      .record(
        {
          apikey: fc.oneof(fc.constant<unknown>('KEY'), field),
          symbol: field,
          exchange: field,
          query: field,
          instrumenttype: field,
          interval: field,
          start_date: field,
          end_date: field,
          symbols: fc.oneof(field, fc.array(fc.record({ symbol: field, exchange: field }), { maxLength: 3 })),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
  );

  it('random bodies on every POST route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ROUTES), body, async (path, raw) => {
        const r = await gw.post(path, raw.replace('"KEY"', JSON.stringify(gw.apiKey)));
        expect(r.status, `${path} ${raw.slice(0, 200)} → ${r.text.slice(0, 200)}`).toBeLessThan(500);
        if (r.status !== 200) ErrorBody.parse(r.json);
      }),
      { numRuns: 400 },
    );
    const alive = await gw.post('/api/v1/ping', { apikey: gw.apiKey });
    expect(alive.status).toBe(200);
  });

  it('random ticker paths and queries', async () => {
    const part = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        'D',
        '1m',
        '5s',
        'W',
        'M',
        '2026-11-20',
        '1795000000000',
        'txt',
        'json',
        'desc',
        'false',
        '',
      ),
    );
    const query = fc.record(
      { interval: part, from: part, to: part, sort: part, adjusted: part, format: part, apikey: part },
      { requiredKeys: [] },
    );
    const pair = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('NSE:SBIN', 'SBIN', ':', 'NSE:', 'a:b:c'),
    );
    await fc.assert(
      fc.asyncProperty(pair, query, async (p, q) => {
        const qs = new URLSearchParams(q as Record<string, string>).toString();
        const r = await gw.get(`/api/v1/ticker/${encodeURIComponent(p)}?${qs}`, { 'X-API-KEY': gw.apiKey });
        expect(r.status, `${p} ${qs} → ${r.text.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});

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
