// The gateway client against a scripted fetch and a manual clock: how each failure is classified.
import { describe, expect, it } from 'vitest';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src-main/gateway/index.js';
import { json, refused } from '../../support/fake-fetch.js';
import { KEY, ORDER, ORDER_BOOK, setup } from './client-fixture.js';

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
