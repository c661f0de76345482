// orders.margin over the router against the real paper gateway: the margin the gateway works out for
// the ticket's (or a basket's) positions, with its source (the embedded paper gateway, or the
// profile's own gateway), a gateway without the margin operation passed on as `not_offered`, and
// invalid positions refused before any request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { keyedProfile, usePaper, withCore } from '../../support/core-harness.js';

const paper = usePaper();

/** A gateway that answers every path 404 "Not Found", as one without the margin route does. */
async function startRoutelessGateway(): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'error', message: 'Not Found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** SBIN BUY at a limit on the tick, a little under the market. */
function sbinBuy(quantity: number, product: 'MIS' | 'CNC') {
  const i = paper.inst('NSE', 'SBIN');
  const price = paper.onTick(i, paper.ltp(i) * 0.99);
  return {
    price,
    position: {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity,
      product,
      pricetype: 'LIMIT',
      price,
    },
  };
}

/** quantity × price ÷ leverage to the paisa, as text ("1234.50"). */
const rupees = (quantity: number, price: number, leverage: number) =>
  (Math.round((quantity * price * 100) / leverage) / 100).toFixed(2);

describe('orders.margin', () => {
  it('on the paper profile: the paper gateway’s figure for the positions, said to come from paper', () =>
    withCore(paper, async (h) => {
      const mis = sbinBuy(100, 'MIS');
      const r = await h.core.router.invoke('orders.margin', { positions: [mis.position] });
      expect(r).toEqual({
        ok: true,
        value: {
          total: rupees(100, mis.price, 5),
          span: '0.00',
          exposure: rupees(100, mis.price, 5),
          source: 'paper',
        },
      });
      // Two legs (a basket): the sum, CNC at 1×.
      const cnc = sbinBuy(10, 'CNC');
      const both = await h.core.router.invoke('orders.margin', { positions: [mis.position, cnc.position] });
      expect(both.ok && both.value.total).toBe(
        (Number(rupees(100, mis.price, 5)) + Number(rupees(10, cnc.price, 1))).toFixed(2),
      );
    }));

  it('on a gateway profile: the gateway’s figure, said to come from the gateway', () =>
    withCore(paper, async (h) => {
      const key = `margin-${'0123456789abcdef'.repeat(2)}`;
      paper.gw.gateway.keys.add(key);
      const keyed = await keyedProfile(h, { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url }, key);
      expect(keyed.ok).toBe(true);
      const mis = sbinBuy(40, 'MIS');
      const before = paper.proxy.forwardedTo('/api/v1/margin');
      const r = await h.core.router.invoke('orders.margin', { positions: [mis.position] });
      expect(r).toMatchObject({ ok: true, value: { total: rupees(40, mis.price, 5), source: 'gateway' } });
      expect(paper.proxy.forwardedTo('/api/v1/margin')).toBe(before + 1);
      // The key travels in the request body to the gateway only, never back in the answer.
      expect(JSON.stringify(r)).not.toContain(key);
    }));

  it('a gateway without the margin operation: not_offered, in words', () =>
    withCore(paper, async (h) => {
      const bare = await startRoutelessGateway();
      try {
        const keyed = await keyedProfile(h, { id: 'bare', name: 'Bare', baseUrl: bare.url }, 'b'.repeat(64));
        expect(keyed.ok).toBe(true);
        const r = await h.core.router.invoke('orders.margin', { positions: [sbinBuy(1, 'CNC').position] });
        expect(r).toMatchObject({
          ok: false,
          error: { kind: 'not_offered', message: 'the gateway does not offer margin' },
        });
      } finally {
        await bare.stop();
      }
    }));

  it('refuses positions that are not an order before asking the gateway', () =>
    withCore(paper, async (h) => {
      const before = paper.proxy.receivedFor('/api/v1/margin');
      expect(await h.core.router.invoke('orders.margin', { positions: [] })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input', message: expect.stringMatching(/at least one position/) },
      });
      const bad = { ...sbinBuy(1, 'MIS').position, quantity: 0 };
      expect(await h.core.router.invoke('orders.margin', { positions: [bad] })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
      expect(
        await h.core.router.invoke('orders.margin', {
          positions: [sbinBuy(1, 'MIS').position],
          apikey: 'x'.repeat(40),
        }),
      ).toMatchObject({ ok: false, error: { kind: 'invalid_input', message: /unknown field\(s\): apikey/ } });
      expect(paper.proxy.receivedFor('/api/v1/margin')).toBe(before);
    }));
});
