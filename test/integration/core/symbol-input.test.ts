// A symbol with a control character in it, through the router against the real paper gateway: refused
// as invalid input with the contract's message, before any request leaves for the gateway (today's
// trim would have turned "SBIN\r\n" into an order for SBIN).
import { describe, expect, it } from 'vitest';
import { LIMITS, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();

describe('symbols with control characters', () => {
  it('orders.place with "SBIN\\r\\n" is refused as invalid_input and never reaches the gateway', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const order = { exchange: 'NSE', action: 'BUY', quantity: 1, pricetype: 'MARKET', product: 'MIS' };
      const before = h.urls.length;
      for (const symbol of ['SBIN\r\n', 'SB\u0000IN', 'SBIN\n']) {
        const r = await h.core.router.invoke('orders.place', { ...order, symbol });
        expect(r, JSON.stringify(symbol)).toMatchObject({
          ok: false,
          error: { kind: 'invalid_input', message: expect.stringMatching(/control characters/) },
        });
      }
      const market = await h.core.router.invoke('market.depth', { symbol: 'SBIN\r', exchange: 'NSE' });
      expect(market).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(h.urls.slice(before).filter((u) => /placeorder|depth/.test(u))).toEqual([]);
      // The same order with a clean symbol goes through: the refusal was the symbol's.
      const placed = await h.core.router.invoke('orders.place', { ...order, symbol: 'SBIN' });
      expect(placed.ok, JSON.stringify(placed)).toBe(true);
      expect(h.urls.slice(before).filter((u) => u.endsWith('/api/v1/placeorder'))).toHaveLength(1);
    } finally {
      await h.stop();
    }
  });
});
