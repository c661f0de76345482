// An order is answered only after its commit: a gateway whose commit fails answers an error and
// keeps nothing.
import { describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import { useEngineGateway, type HttpResult } from '../../support/paper-gateway.js';

// Own gateway: its commits are made to fail. With group commit an answer waits for the commit of
// its event-loop turn (extension.ts onSend), so a failed commit can never be acknowledged as 200.
describe('no answer before the commit', () => {
  const own = useEngineGateway();

  it('a placeorder whose commit fails is answered as an error and leaves nothing behind', async () => {
    const body = {
      apikey: own.apiKey,
      strategy: 'test',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 2,
    };
    const ledger = own.engine.ledger;
    const realCommit = ledger.commit.bind(ledger);
    let failures = 1;
    ledger.commit = () => {
      if (failures-- > 0) throw new Error('disk full (simulated)');
      realCommit();
    };
    const errors: unknown[] = [];
    const realError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    let r: HttpResult;
    try {
      r = await own.post('/api/v1/placeorder', body);
    } finally {
      console.error = realError;
    }
    expect(r.status).toBe(500);
    expect(r.body.status).toBe('error');
    expect(errors.length).toBeGreaterThan(0);
    const book = await own.post('/api/v1/orderbook', { apikey: own.apiKey });
    expect((book.body.data as { orders: unknown[] }).orders).toEqual([]);
    expect((await own.post('/api/v1/funds', { apikey: own.apiKey })).body.data).toMatchObject({
      availablecash: '10000000.00',
      utiliseddebits: '0.00',
    });
    // The next order commits and is acknowledged.
    const next = await own.post('/api/v1/placeorder', body);
    expect(next.status).toBe(200);
    const after = await own.post('/api/v1/orderbook', { apikey: own.apiKey });
    expect((after.body.data as { orders: { orderid: string }[] }).orders.map((o) => o.orderid)).toEqual([
      next.body.orderid,
    ]);
    expect(checkLedgerInvariants(ledger.db)).toEqual([]);
  });
});
