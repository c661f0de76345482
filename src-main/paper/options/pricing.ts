// What the greeks are computed from: the spot the simulator prices an option off (its underlying's
// cash or index row; for MCX and CDS, which have no spot row, the nearest future less its carry)
// and the time to expiry in years.
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import type { Market } from '../market/market.js';
import { carryFactor, RISK_FREE_RATE, YEAR_SEC } from '../market/option-model.js';
import { istEpochMs } from '../instruments/exchange-calendar.js';

/** Options expire at 15:30 IST in the simulator's model (market/instrument-series.ts). */
export const DEFAULT_EXPIRY_MIN = 15 * 60 + 30;

/** Years from `nowMs` to `expiryIso` at `expiryMin` minutes after IST midnight (<= 0 once past). */
export function yearsToExpiry(expiryIso: string, nowMs: number, expiryMin = DEFAULT_EXPIRY_MIN): number {
  return (istEpochMs(expiryIso, expiryMin) - nowMs) / 1000 / YEAR_SEC;
}

export interface SpotFinder {
  spot(option: Instrument): number;
}

export function createSpotFinder(master: InstrumentMaster, market: Market): SpotFinder {
  // Built on first use: one pass over the master for the rows that are their own underlying.
  let cash: Map<string, Instrument> | undefined;
  const cashRow = (key: string): Instrument | undefined => {
    if (!cash) {
      cash = new Map();
      for (const r of master.all) {
        if ((r.kind === 'EQ' || r.kind === 'INDEX') && !cash.has(r.underlyingKey))
          cash.set(r.underlyingKey, r);
      }
    }
    return cash.get(key);
  };
  return {
    spot(option) {
      const own = cashRow(option.underlyingKey);
      if (own) return market.lastPrice(own);
      const nowMs = market.clock.now();
      const fut = master
        .derivatives(option.exchange, option.name)
        .filter((r) => r.kind === 'FUT' && r.expiryDate !== null && yearsToExpiry(r.expiryDate, nowMs) > 0)
        .sort((a, b) => (a.expiryDate ?? '').localeCompare(b.expiryDate ?? ''))[0];
      if (!fut?.expiryDate) return market.lastPrice(option);
      return market.lastPrice(fut) / carryFactor(yearsToExpiry(fut.expiryDate, nowMs), RISK_FREE_RATE);
    },
  };
}
