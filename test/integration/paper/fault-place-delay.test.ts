// The test-only placeorder fault: off by default; when asked for, the order is placed at once and
// only its answer waits (what a client that times out meanwhile cannot know), other routes are not held.
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../src-main/paper/cli.js';
import { placeAnswerDelay } from '../../../src-main/paper/http/fault-place-delay.js';
import { useEngineGateway } from '../../support/paper-gateway.js';

const DELAY = 1500;
const gw = useEngineGateway({ plugins: [placeAnswerDelay(DELAY)] });

describe('--fault-place-delay-ms', () => {
  it('is off unless given, and takes a whole number of ms within bounds', () => {
    expect(parseCli([]).faultPlaceDelayMs).toBeUndefined();
    expect(parseCli(['--fault-place-delay-ms', '20000']).faultPlaceDelayMs).toBe(20_000);
    expect(() => parseCli(['--fault-place-delay-ms', '0'])).toThrow(/between 1 and 600000/);
    expect(() => parseCli(['--fault-place-delay-ms', 'soon'])).toThrow(/whole number/);
  });

  it('places the order at once and holds only its answer', async () => {
    const key = gw.newKey();
    const order = { strategy: 'fault', exchange: 'NSE', symbol: 'SBIN', action: 'BUY', product: 'MIS' };
    const started = Date.now();
    let answered = false;
    const answer = gw
      .api('placeorder', key, { ...order, pricetype: 'MARKET', quantity: 3 })
      .finally(() => (answered = true));
    // While the answer is held, the book already has the order (read until it shows, answer pending).
    let orders: { symbol: string; quantity: number }[] = [];
    while (orders.length === 0 && !answered) {
      const book = await gw.api('orderbook', key, { strategy: 'fault' });
      orders = (book.body.data as { orders: typeof orders }).orders;
    }
    expect(answered).toBe(false);
    expect(orders.map((o) => [o.symbol, o.quantity])).toEqual([['SBIN', 3]]);
    const placed = await answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY - 5);
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'success' });
  });
});
