// The client against the paper gateway's own refusals: its rate limiter (at the real default of 10
// requests/s), a wrong key, and routes it does not serve.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../../src-main/gateway/index.js';
import { advanceUntilSettled } from '../../support/advance.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const gw = useTestGateway({ rateLimits: { api: 10, order: 10, smart: 10, ticker: 10, expiry: 10 } });

describe('rate limits', () => {
  // Client and gateway share the test's manual clock, so the budget, retry_after and the gateway's
  // rate windows all run on one time that the tests move on instead of waiting for it. Timeouts are
  // set far beyond the steps the clock is moved by. (A function: `gw` is filled in once started.)
  const shared = () => ({ clock: gw.clock, timeoutMs: 3_600_000, random: () => 0.5 });

  it('a client on its default budget never trips the gateway limiter', async () => {
    const client = createGatewayClient({
      baseUrl: gw.url,
      getApiKey: () => gw.apiKey,
      retry: { maxRetries: 0 },
      ...shared(),
    });
    const results = await advanceUntilSettled(
      gw.clock,
      Promise.all(Array.from({ length: 25 }, () => client.funds())),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  it('without a budget it is refused with rate_limited and retryAfter, and reads recover by retrying', async () => {
    gw.clock.advance(1_000);
    const greedy = createGatewayClient({
      baseUrl: gw.url,
      getApiKey: () => gw.apiKey,
      rateLimit: 0,
      retry: { maxRetries: 0 },
    });
    const results = await Promise.all(Array.from({ length: 15 }, () => greedy.positionbook()));
    const refused = results.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(refused.length).toBeGreaterThan(0);
    for (const e of refused) {
      expect(e.kind).toBe('rate_limited');
      expect(e.retryAfter).toBeGreaterThan(0);
    }

    gw.clock.advance(1_000);
    const patient = createGatewayClient({
      baseUrl: gw.url,
      getApiKey: () => gw.apiKey,
      rateLimit: 0,
      ...shared(),
    });
    const again = await advanceUntilSettled(
      gw.clock,
      Promise.all(Array.from({ length: 12 }, () => patient.tradebook())),
    );
    expect(again.every((r) => r.ok)).toBe(true);
  });
});

describe('refusals', () => {
  it('a wrong key: forbidden, saying key invalid or broker session expired', async () => {
    const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => 'not-the-key-0123456789' });
    const r = await client.orderbook();
    expect(r).toMatchObject({ ok: false, error: { kind: 'forbidden', httpStatus: 403 } });
    if (!r.ok) {
      expect(r.error.message).toMatch(/^invalid key or broker session expired/);
      expect(r.error.message).toContain('Invalid openalgo apikey');
      expect(r.error.message).not.toContain('not-the-key-0123456789');
    }
    const t = await client.ticker({ exchange: 'NSE', symbol: 'SBIN', from: '2026-11-02', to: '2026-11-19' });
    expect(t).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('invalid input is refused by the client, not sent', async () => {
    const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
    const r = await client.expiry({ symbol: 'NIFTY', exchange: 'NSE', instrumenttype: 'options' });
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'bad_input', message: 'Exchange must be one of: NFO, BFO, MCX, CDS' },
    });
  });

  it('a gateway without a route: not_offered, remembered', async () => {
    const client = createGatewayClient({ baseUrl: `${gw.url}/elsewhere`, getApiKey: () => gw.apiKey });
    expect(await client.ping()).toMatchObject({
      ok: false,
      error: { kind: 'not_offered', message: 'the gateway does not offer ping', httpStatus: 404 },
    });
    expect(await client.ping()).toMatchObject({ ok: false, error: { kind: 'not_offered' } });
    expect(client.notOffered()).toEqual(['ping']);
  });

  it('an unknown order id is an answer about the input, not a missing route', async () => {
    const client = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
    const r = await client.orderstatus({ strategy: 's', orderid: '999999999' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).not.toBe('not_offered');
    expect(client.notOffered()).toEqual([]);
  });

  it('nothing listening: network, even for an order (it cannot have been placed)', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createGatewayClient({ baseUrl: `http://127.0.0.1:${port}`, getApiKey: () => gw.apiKey });
    const r = await client.placeorder({
      strategy: 's',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 1,
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'network', message: /ECONNREFUSED/ } });
  });
});
