// The client against the embedded paper gateway through a fault-injecting proxy: every fault gives
// its error kind, reads recover by retrying, and no order is ever sent twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../src-main/gateway/index.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { OffsetClock } from '../../support/offset-clock.js';
import { startTestGateway, type TestGateway } from '../../support/paper-gateway.js';

// Generous, so a busy machine does not turn a normal answer into a timeout.
const TIMEOUT_MS = 1_000;
const SLOW_MS = 2_500;
const PLACE = '/api/v1/placeorder';
const ORDER = {
  strategy: 'faults',
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 1,
  pricetype: 'MARKET',
  product: 'MIS',
} as const;

let gw: TestGateway;
let proxy: FaultProxy;
/** Through the proxy, without retries: each fault shows as it is. */
let client: GatewayClient;
/** Through the proxy, with the default two retries for reads. */
let retrying: GatewayClient;
/** `retrying`'s clock: real timers (timeouts), and a test can move it past a cooldown. */
const retryingClock = new OffsetClock();
/** Straight to the gateway: the truth about the order book. */
let direct: GatewayClient;

beforeAll(async () => {
  gw = await startTestGateway();
  proxy = await startFaultProxy(gw.url);
  const common = { getApiKey: () => gw.apiKey, timeoutMs: TIMEOUT_MS };
  client = createGatewayClient({ ...common, baseUrl: proxy.url, retry: { maxRetries: 0 } });
  retrying = createGatewayClient({
    ...common,
    baseUrl: proxy.url,
    retry: { baseDelayMs: 20 },
    clock: retryingClock,
  });
  direct = createGatewayClient({ baseUrl: gw.url, getApiKey: () => gw.apiKey });
  // The paper gateway offers every operation: a failure here must fail the order tests, not skip them.
  const probe = await direct.orderbook();
  if (!probe.ok) throw new Error(`order book: ${probe.error.kind}: ${probe.error.message}`);
  // Warm the gateway's first-call paths, so that timings below measure only the faults.
  await direct.depth({ symbol: 'SBIN', exchange: 'NSE' });
  await direct.ticker({
    exchange: 'NSE',
    symbol: 'SBIN',
    interval: 'D',
    from: '2026-11-02',
    to: '2026-11-19',
  });
});

afterEach(() => proxy.reset());

afterAll(async () => {
  await proxy?.stop();
  await gw?.stop();
});

describe('reads', () => {
  const depth = () => client.depth({ symbol: 'SBIN', exchange: 'NSE' });

  it('pass through unchanged', async () => {
    const r = await depth();
    expect(r.ok).toBe(true);
    expect(proxy.forwardedTo('/api/v1/depth')).toBe(1);
  });

  it('slow answer: timeout', async () => {
    proxy.enqueue({ kind: 'delay', ms: SLOW_MS });
    expect(await depth()).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });

  it('dropped connection: network', async () => {
    proxy.enqueue({ kind: 'drop' });
    expect(await depth()).toMatchObject({ ok: false, error: { kind: 'network' } });
  });

  it('500: server', async () => {
    proxy.enqueue({ kind: 'error500' });
    expect(await depth()).toMatchObject({ ok: false, error: { kind: 'server', httpStatus: 500 } });
  });

  it('429: rate_limited with retryAfter', async () => {
    proxy.enqueue({ kind: 'rate_limit', retryAfter: 30 });
    expect(await client.quotes({ symbol: 'SBIN', exchange: 'NSE' })).toMatchObject({
      ok: false,
      error: { kind: 'rate_limited', retryAfter: 30, httpStatus: 429 },
    });
    // That operation is now held back without a request; the others are not.
    expect(await client.quotes({ symbol: 'SBIN', exchange: 'NSE' })).toMatchObject({
      ok: false,
      error: { kind: 'rate_limited' },
    });
    expect(proxy.receivedFor('/api/v1/quotes')).toBe(1);
    expect((await depth()).ok).toBe(true);
  });

  it.each(['html', 'truncated'] as const)('garbage (%s): bad_response', async (style) => {
    proxy.enqueue({ kind: 'garbage', style });
    expect(await depth()).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
  });

  it('ticker faults give the same kinds', async () => {
    proxy.enqueue([{ kind: 'error500' }, { kind: 'garbage', style: 'truncated' }]);
    const t = () =>
      client.ticker({ exchange: 'NSE', symbol: 'SBIN', interval: 'D', from: '2026-11-02', to: '2026-11-19' });
    expect(await t()).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(await t()).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    expect((await t()).ok).toBe(true);
  });

  it('are retried through drops, 500s and slow answers, at most twice', async () => {
    proxy.enqueue([{ kind: 'drop' }, { kind: 'error500' }]);
    expect((await retrying.depth({ symbol: 'SBIN', exchange: 'NSE' })).ok).toBe(true);
    expect(proxy.receivedFor('/api/v1/depth')).toBe(3);

    proxy.reset();
    proxy.enqueue([
      { kind: 'delay', ms: SLOW_MS },
      { kind: 'delay', ms: SLOW_MS },
      { kind: 'delay', ms: SLOW_MS },
    ]);
    expect(await retrying.depth({ symbol: 'SBIN', exchange: 'NSE' })).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    expect(proxy.receivedFor('/api/v1/depth')).toBe(3);
  });
});

describe('orders: never sent twice', () => {
  async function bookSize(): Promise<number> {
    const book = await direct.orderbook();
    if (!book.ok) throw new Error(`order book: ${book.error.message}`);
    return book.value.data.orders.length;
  }

  /** Places one order through a fault; checks the kind and that the book grew by what reached it. */
  async function placeThrough(
    mode: Parameters<FaultProxy['enqueue']>[0],
    kind: string,
    reachesGateway: boolean,
  ): Promise<void> {
    const before = await bookSize();
    proxy.enqueue(mode, PLACE);
    const r = await retrying.placeorder(ORDER);
    expect(r).toMatchObject({ ok: false, error: { kind } });
    // Let a delayed answer finish on the proxy's side before counting.
    const m = Array.isArray(mode) ? mode[0] : mode;
    if (m?.kind === 'delay') await new Promise((res) => setTimeout(res, m.ms));
    expect(proxy.receivedFor(PLACE)).toBe(1);
    expect(proxy.forwardedTo(PLACE)).toBe(reachesGateway ? 1 : 0);
    expect(await bookSize()).toBe(before + (reachesGateway ? 1 : 0));
  }

  it('pass: placed once', async () => {
    const before = await bookSize();
    const r = await retrying.placeorder(ORDER);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(proxy.receivedFor(PLACE)).toBe(1);
    expect(await bookSize()).toBe(before + 1);
  });

  it('slow answer (timeout after sending): unknown_outcome, placed once', async () => {
    await placeThrough({ kind: 'delay', ms: SLOW_MS }, 'unknown_outcome', true);
  });

  it('connection dropped after forwarding: unknown_outcome, placed once', async () => {
    await placeThrough({ kind: 'drop' }, 'unknown_outcome', true);
  });

  it('connection dropped before forwarding: unknown_outcome, nothing placed', async () => {
    await placeThrough({ kind: 'drop', forward: false }, 'unknown_outcome', false);
  });

  it('500: server, not retried, nothing placed', async () => {
    await placeThrough({ kind: 'error500' }, 'server', false);
  });

  it('429: rate_limited, not retried, nothing placed', async () => {
    await placeThrough({ kind: 'rate_limit', retryAfter: 1 }, 'rate_limited', false);
    // The 429 set a 1 s cooldown for placeorder on this client: move its clock past it.
    retryingClock.advance(1_000);
  });

  it('truncated answer to an accepted order: unknown_outcome, placed once', async () => {
    await placeThrough({ kind: 'garbage', style: 'truncated' }, 'unknown_outcome', true);
  });

  it('cancel through a dropped connection is not repeated either', async () => {
    const placed = await direct.placeorder({ ...ORDER, pricetype: 'LIMIT', price: 1 });
    if (!placed.ok) throw new Error(placed.error.message);
    proxy.enqueue({ kind: 'drop' }, '/api/v1/cancelorder');
    const r = await retrying.cancelorder({ strategy: ORDER.strategy, orderid: placed.value.orderid });
    expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
    expect(proxy.receivedFor('/api/v1/cancelorder')).toBe(1);
    const status = await direct.orderstatus({ strategy: ORDER.strategy, orderid: placed.value.orderid });
    expect(status).toMatchObject({ ok: true, value: { data: { order_status: 'cancelled' } } });
  });
});
