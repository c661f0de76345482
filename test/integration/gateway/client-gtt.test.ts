// The client's GTT methods against the embedded paper gateway through a fault-injecting proxy: place,
// book, modify and cancel in the live server's shapes, a GTT mutation sent exactly once whatever
// happens to its answer (a timeout, a lost connection, a 500), and the book read retried like any read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GTT_ID_PATTERN } from '../../../src-main/contract/index.js';
import { createGatewayClient, type GatewayClient } from '../../../src-main/gateway/index.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { startTestGateway, type TestGateway } from '../../support/paper-gateway.js';

const TIMEOUT_MS = 1_000;
const PLACE = '/api/v1/placegttorder';
const BOOK = '/api/v1/gttorderbook';

let gw: TestGateway;
let proxy: FaultProxy;
let client: GatewayClient;

beforeAll(async () => {
  gw = await startTestGateway();
  proxy = await startFaultProxy(gw.url);
  client = createGatewayClient({
    baseUrl: proxy.url,
    getApiKey: () => gw.apiKey,
    timeoutMs: TIMEOUT_MS,
    retry: { baseDelayMs: 20 },
  });
});
afterEach(() => proxy.reset());
afterAll(async () => {
  await proxy.stop();
  await gw.stop();
});

async function single(quantity = 1) {
  const q = await client.quotes({ symbol: 'SBIN', exchange: 'NSE' });
  if (!q.ok) throw new Error(q.error.message);
  const trigger = Math.round(q.value.data.ltp * 0.9 * 20) / 20;
  return {
    strategy: 'gtt',
    trigger_type: 'SINGLE',
    exchange: 'NSE',
    symbol: 'SBIN',
    action: 'BUY',
    product: 'CNC',
    quantity,
    pricetype: 'LIMIT',
    price: trigger,
    triggerprice_sl: trigger,
  } as const;
}

describe('gateway client: GTT orders', () => {
  it('places, reads, modifies and cancels a GTT in the live server shapes', async () => {
    const order = await single(2);
    const placed = await client.placegttorder(order);
    expect(placed.ok ? 'placed' : placed.error.message).toBe('placed');
    const id = placed.ok ? placed.value.trigger_id : '';
    expect(id).toMatch(GTT_ID_PATTERN);
    const book = await client.gttorderbook({ status: 'active' });
    const row = book.ok ? book.value.data.find((g) => g.trigger_id === id) : undefined;
    expect(row).toMatchObject({ trigger_type: 'single', status: 'active', legs: [{ quantity: 2 }] });
    const modified = await client.modifygttorder({ ...order, trigger_id: id, quantity: 3 });
    expect(modified).toMatchObject({ ok: true, value: { trigger_id: id } });
    expect(await client.cancelgttorder({ strategy: 'gtt', trigger_id: id })).toMatchObject({
      ok: true,
      value: { trigger_id: id },
    });
    const again = await client.cancelgttorder({ strategy: 'gtt', trigger_id: id });
    expect(again).toMatchObject({ ok: false, error: { httpStatus: 404 } });
  });

  it('sends a GTT placement once on a timeout, a dropped answer and a 500', async () => {
    const order = await single();
    for (const fault of [
      { kind: 'delay', ms: TIMEOUT_MS * 2 },
      { kind: 'drop' },
      { kind: 'error500' },
    ] as const) {
      const before = proxy.receivedFor(PLACE);
      proxy.enqueue(fault, PLACE);
      const r = await client.placegttorder(order);
      expect(r.ok).toBe(false);
      if (!r.ok && fault.kind !== 'error500') expect(r.error.kind).toBe('unknown_outcome');
      expect(proxy.receivedFor(PLACE)).toBe(before + 1);
    }
  });

  it('retries the GTT book after a transient failure, as any read', async () => {
    proxy.enqueue({ kind: 'error500' }, BOOK);
    const r = await client.gttorderbook({ status: 'all' });
    expect(r.ok).toBe(true);
    expect(proxy.receivedFor(BOOK)).toBe(2);
  });
});
