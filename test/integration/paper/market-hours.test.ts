// `hours: 'exchange'` (the CLI's --hours exchange): outside the session an order is accepted and rests,
// and it is matched once the exchange opens; by default the market is open around the clock.
import { describe, expect, it } from 'vitest';
import { useEngineGateway, type EngineTestGateway } from '../../support/paper-gateway.js';

/** Saturday 21-Nov-2026, 10:00 IST. */
const SATURDAY = Date.parse('2026-11-21T10:00:00+05:30');

const exchangeHours = useEngineGateway({ hours: 'exchange', nowMs: SATURDAY });
const aroundTheClock = useEngineGateway({ nowMs: SATURDAY });

async function buySbin(gw: EngineTestGateway): Promise<string> {
  const r = await gw.api('placeorder', gw.apiKey, {
    strategy: 'hours',
    exchange: 'NSE',
    symbol: 'SBIN',
    action: 'BUY',
    quantity: 1,
    pricetype: 'MARKET',
    product: 'CNC',
  });
  expect(r.status, r.text).toBe(200);
  return r.body['orderid'] as string;
}

const statusOf = (gw: EngineTestGateway, id: string) =>
  gw.engine.order(gw.gateway.keys.verify(gw.apiKey) ?? '', id)?.status;

describe('market hours', () => {
  it('following exchange hours, a Saturday order rests until Monday 09:15', async () => {
    const id = await buySbin(exchangeHours);
    expect(statusOf(exchangeHours, id)).toBe('open');
    exchangeHours.clock.set(Date.parse('2026-11-23T09:14:00+05:30'));
    exchangeHours.engine.tick();
    expect(statusOf(exchangeHours, id)).toBe('open');
    exchangeHours.clock.set(Date.parse('2026-11-23T09:15:30+05:30'));
    exchangeHours.engine.tick();
    expect(statusOf(exchangeHours, id)).toBe('complete');
  });

  it('around the clock (the default), the same order fills at once', async () => {
    const id = await buySbin(aroundTheClock);
    expect(statusOf(aroundTheClock, id)).toBe('complete');
  });
});
