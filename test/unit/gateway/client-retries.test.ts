// The gateway client against a scripted fetch and a manual clock: mutations are never retried,
// reads are.
import { describe, expect, it } from 'vitest';
import { UNKNOWN_OUTCOME_MESSAGE } from '../../../src-main/gateway/index.js';
import { dropped, hang, json } from '../../support/fake-fetch.js';
import { ORDER, ORDER_BOOK, setup } from './client-fixture.js';

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
