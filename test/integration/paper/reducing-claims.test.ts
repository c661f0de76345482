// A working order blocks no margin only for the part of the position that other working orders have
// not already claimed: several orders that each "reduce" the same short on their own would, once all
// filled, open a long nobody paid margin for, and cash would go negative.
import { describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import { useEngineGateway, tickRound } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

type Fields = Record<string, unknown>;
const order = (key: string, f: Fields) =>
  gw.api('placeorder', key, { strategy: 'claims', exchange: 'NSE', symbol: 'SBIN', product: 'MIS', ...f });

/** Paise of a two-decimal string. */
const paise = (s: unknown): number => Math.round(Number(s) * 100);

async function funds(key: string): Promise<Record<string, string>> {
  return (await gw.api('funds', key, {})).body.data as Record<string, string>;
}
async function statusOf(key: string, orderid: string): Promise<Record<string, unknown>> {
  return (await gw.api('orderstatus', key, { strategy: 'claims', orderid })).body.data as Record<
    string,
    unknown
  >;
}

/** A MARKET order that may walk the book for a few seconds, driven to completion. */
async function fillMarket(key: string, action: 'BUY' | 'SELL', quantity: number): Promise<void> {
  const r = await order(key, { action, quantity });
  expect(r.status, r.text).toBe(200);
  const id = r.body.orderid as string;
  for (let n = 0; n < 200 && (await statusOf(key, id)).order_status !== 'complete'; n++) {
    gw.clock.advance(1000);
    gw.engine.tick();
  }
  expect((await statusOf(key, id)).order_status).toBe('complete');
}

describe('working orders that reduce the same position', () => {
  it('only the first of three BUY LIMITs against a 50,000 short is reducing; cash never goes negative', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    await fillMarket(key, 'SELL', 50_000);
    const afterShort = await funds(key);
    const available = paise(afterShort.availablecash);
    const limit = tickRound(i, gw.gateway.market.lastPrice(i) * 0.98);
    // Opening 50,000 long at the limit needs this much (MIS 5×): more than what is left.
    const openingBlock = Math.ceil((50_000 * limit * 100) / 5);
    expect(openingBlock).toBeGreaterThan(available);

    const buy = () => order(key, { action: 'BUY', quantity: 50_000, pricetype: 'LIMIT', price: limit });
    const first = await buy();
    expect(first.status, first.text).toBe(200);
    expect(await funds(key)).toEqual(afterShort); // reducing: nothing blocked
    for (const r of [await buy(), await buy()]) {
      expect(r.status, r.text).toBe(400);
      expect(r.body.message).toMatch(/^Insufficient funds\. Required: ₹[\d.]+, Available: ₹[\d.]+/);
      expect(String(r.body.message)).toContain(`Required: ₹${(openingBlock / 100).toFixed(2)}`);
    }

    // The price falls through the limit: the one working order fills and closes the short.
    gw.gateway.market.setPrice(i, tickRound(i, limit * 0.99));
    gw.clock.advance(1000);
    gw.engine.tick();
    expect((await statusOf(key, first.body.orderid as string)).order_status).toBe('complete');
    const f = await funds(key);
    expect(paise(f.availablecash)).toBeGreaterThanOrEqual(0);
    expect(f.utiliseddebits).toBe('0.00');
    const pos = (await gw.api('positionbook', key, {})).body.data as { symbol: string; quantity: number }[];
    expect(pos.find((p) => p.symbol === 'SBIN')?.quantity).toBe(0);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });

  it('a second reducing order blocks margin for the part the first already claimed', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    await fillMarket(key, 'SELL', 100);
    const limit = tickRound(i, gw.gateway.market.lastPrice(i) * 0.98);
    const before = paise((await funds(key)).utiliseddebits);
    const buy = (quantity: number) =>
      order(key, { action: 'BUY', quantity, pricetype: 'LIMIT', price: limit });
    expect((await buy(60)).status).toBe(200); // reduces 60 of the 100
    expect(paise((await funds(key)).utiliseddebits)).toBe(before);
    // 40 of the short are left to reduce; the other 30 open a long and block margin.
    expect((await buy(70)).status).toBe(200);
    expect(paise((await funds(key)).utiliseddebits)).toBe(before + Math.ceil((30 * limit * 100) / 5));

    // Both fill: the account ends long 30 with that margin, and the books agree.
    gw.gateway.market.setPrice(i, tickRound(i, limit * 0.99));
    gw.clock.advance(1000);
    gw.engine.tick();
    const pos = (await gw.api('positionbook', key, {})).body.data as { symbol: string; quantity: number }[];
    expect(pos.find((p) => p.symbol === 'SBIN')?.quantity).toBe(30);
    expect(paise((await funds(key)).availablecash)).toBeGreaterThan(0);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });

  it('a cancelled claim frees the position for the next order; a modify keeps its own claim', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    await fillMarket(key, 'SELL', 100);
    const limit = tickRound(i, gw.gateway.market.lastPrice(i) * 0.98);
    const used = async () => paise((await funds(key)).utiliseddebits);
    const base = await used();
    const first = await order(key, { action: 'BUY', quantity: 100, pricetype: 'LIMIT', price: limit });
    const second = await order(key, { action: 'BUY', quantity: 100, pricetype: 'LIMIT', price: limit });
    const full = Math.ceil((100 * limit * 100) / 5);
    expect(await used()).toBe(base + full); // only the second blocks
    // Modifying the first (an earlier claim) leaves it reducing: nothing more is blocked.
    const lower = tickRound(i, limit * 0.99);
    const m = await gw.api('modifyorder', key, {
      strategy: 'claims',
      orderid: first.body.orderid,
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      product: 'MIS',
      pricetype: 'LIMIT',
      quantity: 100,
      price: lower,
      trigger_price: 0,
      disclosed_quantity: 0,
    });
    expect(m.status, m.text).toBe(200);
    expect(await used()).toBe(base + full);
    const c = await gw.api('cancelorder', key, { strategy: 'claims', orderid: first.body.orderid });
    expect(c.status).toBe(200);
    // The short is unclaimed again: a new reducing order blocks nothing.
    expect(
      (await order(key, { action: 'BUY', quantity: 100, pricetype: 'LIMIT', price: limit })).status,
    ).toBe(200);
    expect(await used()).toBe(base + full);
    expect(second.status).toBe(200);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });
});
