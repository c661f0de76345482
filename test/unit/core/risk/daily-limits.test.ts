// Soft daily limits: the order count and the day's loss, after which only exits go out; the count
// starts again at the IST day change; money compared exactly in paise.
import { describe, expect, it } from 'vitest';
import {
  allExits,
  createDailyLimits,
  dayPnlText,
  toPaise,
  type DailyBooks,
  type DailyLeg,
} from '../../../../src-main/core/risk/index.js';

const IST_MORNING = Date.parse('2026-11-20T09:20:00+05:30');
const buy = (quantity: number, symbol = 'SBIN'): DailyLeg => ({
  symbol,
  exchange: 'NSE',
  action: 'BUY',
  quantity,
  product: 'MIS',
});
const sell = (quantity: number, symbol = 'SBIN'): DailyLeg => ({ ...buy(quantity, symbol), action: 'SELL' });
const long10: DailyBooks = {
  positions: [{ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 10 }],
  dayPnl: '0.00',
};
const count = (n: number) => ({ dailyOrderCount: n, dailyLossLimit: 0 });
const loss = (rupees: number) => ({ dailyOrderCount: 0, dailyLossLimit: rupees });

function setup(start = IST_MORNING) {
  let now = start;
  const daily = createDailyLimits({ now: () => now });
  return { daily, advance: (ms: number) => (now += ms) };
}

describe('daily order count', () => {
  it('refuses the N+1th new order with a typed refusal naming the limit, and still lets an exit out', () => {
    const { daily } = setup();
    expect(daily.admit('paper', [buy(1)], count(2), long10).ok).toBe(true);
    expect(daily.admit('paper', [buy(2)], count(2), long10).ok).toBe(true);
    const third = daily.admit('paper', [buy(3)], count(2), long10);
    expect(third).toMatchObject({ ok: false, limit: 'dailyOrderCount' });
    expect(!third.ok && third.message).toMatch(
      /^Daily order count reached: 2 of 2 orders sent today; only exits .* \(a soft limit, held while OrderDesk runs\)$/,
    );
    // Selling part of the long position reduces it: an exit.
    expect(daily.admit('paper', [sell(4)], count(2), long10).ok).toBe(true);
    expect(daily.state('paper', count(2), long10)).toMatchObject({
      ordersToday: 3,
      reached: 'dailyOrderCount',
    });
  });

  it('an order that would reverse the position, or a position not read yet, is no exit', () => {
    const { daily } = setup();
    expect(daily.admit('paper', [buy(1)], count(1), long10).ok).toBe(true);
    expect(daily.admit('paper', [sell(11)], count(1), long10)).toMatchObject({ ok: false });
    expect(daily.admit('paper', [sell(1)], count(1), { positions: null, dayPnl: null })).toMatchObject({
      ok: false,
    });
    // Another product's position is another position.
    expect(daily.admit('paper', [{ ...sell(1), product: 'CNC' }], count(1), long10)).toMatchObject({
      ok: false,
    });
  });

  it('a released slot (the order never went) is given back; a second release changes nothing', () => {
    const { daily } = setup();
    const first = daily.admit('paper', [buy(1)], count(1), long10);
    expect(first.ok).toBe(true);
    if (first.ok) {
      first.release();
      first.release();
    }
    expect(daily.state('paper', count(1), long10).ordersToday).toBe(0);
    expect(daily.admit('paper', [buy(2)], count(1), long10).ok).toBe(true);
  });

  it('a basket or split counts every child, and is refused whole when it does not fit', () => {
    const { daily } = setup();
    expect(daily.admit('paper', [buy(1), buy(1, 'INFY')], count(3), long10).ok).toBe(true);
    const basket = daily.admit('paper', [buy(1, 'TCS'), buy(1, 'ITC')], count(3), long10);
    expect(basket).toMatchObject({ ok: false, limit: 'dailyOrderCount' });
    expect(!basket.ok && basket.message).toMatch(/^Daily order count 1 left, 2 asked:/);
  });

  it('each profile counts its own orders; 0 turns the limit off', () => {
    const { daily } = setup();
    daily.admit('paper', [buy(1)], count(1), long10);
    expect(daily.admit('broker', [buy(1)], count(1), long10).ok).toBe(true);
    for (let i = 0; i < 50; i++) expect(daily.admit('paper', [buy(i + 1)], count(0), long10).ok).toBe(true);
  });

  it('starts again at the IST day change (midnight in India, not UTC)', () => {
    // 23:59 IST on the 20th is 18:29 UTC: the UTC date does not change at IST midnight.
    const { daily, advance } = setup(Date.parse('2026-11-20T23:59:00+05:30'));
    daily.admit('paper', [buy(1)], count(1), long10);
    expect(daily.admit('paper', [buy(2)], count(1), long10).ok).toBe(false);
    expect(daily.state('paper', count(1), long10).day).toBe('2026-11-20');
    advance(60_000);
    expect(daily.state('paper', count(1), long10)).toMatchObject({
      day: '2026-11-21',
      ordersToday: 0,
      reached: null,
    });
    expect(daily.admit('paper', [buy(2)], count(1), long10).ok).toBe(true);
  });
});

describe('daily loss limit', () => {
  it("reads the day's P&L (realised + open MTM) exactly: ₹1,000.00 of loss reaches a ₹1,000 limit, ₹999.99 does not", () => {
    const { daily } = setup();
    // 0.1 + 0.2 in floating point is 0.30000000000000004: the sum here is exact.
    expect(dayPnlText('-500.10', -499.9)).toBe('-1000.00');
    expect(dayPnlText('-500.1', -499.89)).toBe('-999.99');
    const at = (dayPnl: string) => ({ ...long10, dayPnl });
    expect(daily.admit('paper', [buy(1)], loss(1000), at('-999.99')).ok).toBe(true);
    const refused = daily.admit('paper', [buy(1)], loss(1000), at(dayPnlText('-500.10', -499.9) ?? ''));
    expect(refused).toMatchObject({ ok: false, limit: 'dailyLossLimit' });
    expect(!refused.ok && refused.message).toMatch(
      /^Daily loss limit of ₹1,000\.00 reached: the day's P&L is -₹1,000\.00;/,
    );
    // Closing the loser is still allowed.
    expect(daily.admit('paper', [sell(10)], loss(1000), at('-1000.00')).ok).toBe(true);
    expect(daily.state('paper', loss(1000), at('-1250.50')).reached).toBe('dailyLossLimit');
  });

  it('an unknown P&L holds back entries (fail safe) but never exits', () => {
    const { daily } = setup();
    const unknown = { ...long10, dayPnl: null };
    const r = daily.admit('paper', [buy(1)], loss(500), unknown);
    expect(r).toMatchObject({ ok: false, limit: 'dailyLossLimit' });
    expect(!r.ok && r.message).toMatch(/cannot be checked: the day's P&L is not known yet/);
    expect(daily.admit('paper', [sell(1)], loss(500), unknown).ok).toBe(true);
    expect(dayPnlText(null, -1)).toBeNull();
    expect(dayPnlText('10.00', null)).toBeNull();
  });

  it('rounds money to the paisa half away from zero', () => {
    expect(toPaise('12.345')).toBe(1235n);
    expect(toPaise('-12.345')).toBe(-1235n);
    expect(toPaise('12.3449')).toBe(1234n);
    expect(toPaise(0.07)).toBe(7n);
    expect(toPaise('.5')).toBe(50n);
    expect(() => toPaise('12,00')).toThrow(RangeError);
  });
});

describe('allExits', () => {
  it('takes legs on one position in turn: two sells of 6 from 10 long are not both exits', () => {
    expect(allExits([sell(6), sell(4)], long10.positions)).toBe(true);
    expect(allExits([sell(6), sell(6)], long10.positions)).toBe(false);
    const short = [{ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: -5 }];
    expect(allExits([buy(5)], short)).toBe(true);
    expect(allExits([sell(1)], short)).toBe(false);
  });
});
