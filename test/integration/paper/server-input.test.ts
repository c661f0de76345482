// The paper gateway's HTTP server over real HTTP: malformed and hostile input never crashes it
// (fast-check fuzz over every route), error envelopes and statuses, 404s, trailing slashes.
import { request } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../src-main/contract/index.js';
import { EMBEDDED_IDLE_SOCKET_MS } from '../../../src-main/gateway/node-http.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';
import { POST_ROUTES } from './server-fixture.js';

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

describe('keep-alive', () => {
  it("keeps an idle connection longer than the desk's client does, and says so", async () => {
    const hint = await new Promise<string | undefined>((resolve, reject) => {
      const req = request(`${gw.url}/api/v1/ping`, { method: 'POST', agent: false }, (res) => {
        res.resume();
        resolve(String(res.headers['keep-alive'] ?? ''));
      });
      req.on('error', reject);
      req.setHeader('connection', 'keep-alive');
      req.end();
    });
    const seconds = Number(/timeout=(\d+)/.exec(hint ?? '')?.[1]);
    // Node's agent closes a socket one second before the server's hint: still after the client does.
    expect(seconds * 1000 - 1000).toBeGreaterThan(EMBEDDED_IDLE_SOCKET_MS);
  });
});
