// An option's previous close comes from the same model as its price: Black-Scholes at the
// underlying's previous close with the previous day's time to expiry. So a day's change in an option
// is what its greeks say for the underlying's move (delta, gamma and a day of theta), not a number of
// its own: on a NIFTY −1.2 % day calls fall and puts rise by believable amounts.
import { describe, expect, it } from 'vitest';
import { blackScholesTerms, normCdf, optionPrice } from '../../../src-main/paper/market/option-model.js';
import { NIFTY, UNDERLYINGS, newMarket, option } from '../../support/market-fixtures.js';
import { R, YEAR, todayStart } from './market-sim-fixture.js';

const VOL = UNDERLYINGS.get('NSE_INDEX:NIFTY')?.volatility as number;
const DAY = 86_400;

/** Years to a 15:30 IST expiry from the start of the IST day beginning at `dayStart`. */
const tauFrom = (expiryDate: string, dayStart: number) =>
  (Date.parse(`${expiryDate}T15:30:00+05:30`) / 1000 - dayStart) / YEAR;

/** Price change the greeks predict: delta·dS + ½·gamma·dS² + one day of theta. */
function greekMove(isCall: boolean, spot: number, strike: number, tau: number, dS: number): number {
  const { d1, sq, df } = blackScholesTerms(spot, strike, tau, VOL, R);
  const pdf = Math.exp((-d1 * d1) / 2) / Math.sqrt(2 * Math.PI);
  const delta = isCall ? normCdf(d1) : normCdf(d1) - 1;
  const gamma = pdf / (spot * sq);
  const d2 = d1 - sq;
  const thetaYear =
    (-spot * pdf * VOL) / (2 * Math.sqrt(tau)) +
    (isCall ? -R * strike * df * normCdf(d2) : R * strike * df * normCdf(-d2));
  return delta * dS + 0.5 * gamma * dS * dS + thetaYear / 365;
}

/** NIFTY set 1.2 % under its previous close, with the option quoted after it. */
function downDay() {
  const { market } = newMarket();
  const prev = market.quote(NIFTY).prev_close;
  market.setPrice(NIFTY, Math.round((prev * 0.988) / 0.05) * 0.05);
  const spot = market.quote(NIFTY).ltp;
  const atm = Math.round(prev / 50) * 50;
  return { market, prev, spot, atm };
}

describe('option previous close', () => {
  it('is the model price at the underlying previous close and the previous day to expiry', () => {
    const { market, prev } = downDay();
    for (const strike of [22_000, 23_000, 24_000, 25_000, 26_000])
      for (const kind of ['CE', 'PE'] as const) {
        const inst = option(kind, strike);
        const expected = optionPrice(
          kind === 'CE',
          prev,
          strike,
          tauFrom('2026-12-29', todayStart - DAY),
          VOL,
          R,
        );
        expect(market.quote(inst).prev_close, inst.symbol).toBeCloseTo(Math.max(0.05, expected), 1);
      }
  });

  it.each([
    ['a monthly', '2026-12-29'],
    ['a weekly', '2026-11-24'],
  ])('NIFTY −1.2 %%: %s ATM call falls and put rises as the greeks say', (_, expiry) => {
    const { market, prev, spot, atm } = downDay();
    expect((spot / prev - 1) * 100).toBeCloseTo(-1.2, 1);
    const tauPrev = tauFrom(expiry, todayStart - DAY);
    for (const kind of ['CE', 'PE'] as const) {
      const q = market.quote(option(kind, atm, expiry));
      const change = q.ltp - q.prev_close;
      const predicted = greekMove(kind === 'CE', prev, atm, tauPrev, spot - prev);
      if (kind === 'CE') expect(change).toBeLessThan(0);
      else expect(change).toBeGreaterThan(0);
      // Second-order greeks over a 1.2 % move: within a fifth of the move, or 3 rupees.
      expect(Math.abs(change - predicted), `${kind} ${change} vs ${predicted}`).toBeLessThan(
        Math.max(3, Math.abs(predicted) * 0.2),
      );
      // Never more than the underlying's move in rupees.
      expect(Math.abs(change)).toBeLessThan(Math.abs(spot - prev) + 1);
    }
  });

  it('a monthly ATM call loses roughly half the index move in rupees, a put gains it', () => {
    const { market, prev, spot, atm } = downDay();
    const call = market.quote(option('CE', atm));
    const put = market.quote(option('PE', atm));
    const move = prev - spot;
    expect((call.prev_close - call.ltp) / move).toBeGreaterThan(0.4);
    expect((call.prev_close - call.ltp) / move).toBeLessThan(0.75);
    expect((put.ltp - put.prev_close) / move).toBeGreaterThan(0.3);
    expect((put.ltp - put.prev_close) / move).toBeLessThan(0.65);
    // As a percentage: tens of percent for the month's ATM options, not −52..−74 / +160..+290.
    expect(((call.ltp - call.prev_close) / call.prev_close) * 100).toBeGreaterThan(-35);
    expect(((put.ltp - put.prev_close) / put.prev_close) * 100).toBeLessThan(60);
  });

  it('far out-of-the-money options stay finite, at least one tick, and move the right way', () => {
    const { market, atm } = downDay();
    for (const [kind, strike] of [
      ['CE', atm + 3000],
      ['PE', atm - 3000],
      ['CE', atm - 3000],
      ['PE', atm + 3000],
    ] as const) {
      const q = market.quote(option(kind, strike));
      expect(Number.isFinite(q.ltp) && Number.isFinite(q.prev_close), `${kind}${strike}`).toBe(true);
      expect(q.prev_close).toBeGreaterThanOrEqual(0.05);
      expect(q.ltp).toBeGreaterThanOrEqual(0.05);
      if (kind === 'CE') expect(q.ltp).toBeLessThanOrEqual(q.prev_close);
      else expect(q.ltp).toBeGreaterThanOrEqual(q.prev_close);
    }
  });
});
