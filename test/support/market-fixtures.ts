// Hand-built underlyings and instruments for the market simulator's tests (the real instrument
// master is built elsewhere): an equity, an index, its future, and CE/PE options.
import type {
  Instrument,
  InstrumentKind,
  PaperExchange,
  Underlying,
} from '../../src-main/paper/instruments/instrument.js';
import { ManualClock } from '../../src-main/paper/market/clock.js';
import { createMarket, type SimulatedMarket } from '../../src-main/paper/market/simulator.js';

/** 2026-11-20 10:00:00 IST (a Friday). */
export const T0_MS = Date.UTC(2026, 10, 20, 4, 30, 0);
export const IST = 19_800;

export const UNDERLYINGS: ReadonlyMap<string, Underlying> = new Map([
  ['NSE:SBIN', { key: 'NSE:SBIN', name: 'SBIN', basePrice: 770, tickSize: 0.05, volatility: 0.25 }],
  [
    'NSE_INDEX:NIFTY',
    { key: 'NSE_INDEX:NIFTY', name: 'NIFTY', basePrice: 24_000, tickSize: 0.05, volatility: 0.15 },
  ],
  ['CDS:USDINR', { key: 'CDS:USDINR', name: 'USDINR', basePrice: 84.5, tickSize: 0.0025, volatility: 0.05 }],
]);

let nextId = 1;

export function instrument(
  kind: InstrumentKind,
  exchange: PaperExchange,
  symbol: string,
  underlyingKey: string,
  extra: Partial<Instrument> = {},
): Instrument {
  return {
    id: nextId++,
    symbol,
    brsymbol: symbol,
    name: symbol,
    exchange,
    brexchange: exchange,
    token: String(nextId),
    expiry: '',
    expiryDate: null,
    strike: kind === 'FUT' ? 0 : -0.01,
    lotsize: 1,
    instrumenttype: '',
    tickSize: 0.05,
    freezeQty: 100_000,
    kind,
    underlyingKey,
    ...extra,
  };
}

export const SBIN = instrument('EQ', 'NSE', 'SBIN', 'NSE:SBIN');
export const NIFTY = instrument('INDEX', 'NSE_INDEX', 'NIFTY', 'NSE_INDEX:NIFTY');
export const NIFTY_FUT = instrument('FUT', 'NFO', 'NIFTY29DEC26FUT', 'NSE_INDEX:NIFTY', {
  expiryDate: '2026-12-29',
  lotsize: 75,
  instrumenttype: 'FUTIDX',
});
export const USDINR_FUT = instrument('FUT', 'CDS', 'USDINR29DEC26FUT', 'CDS:USDINR', {
  expiryDate: '2026-12-29',
  lotsize: 1000,
  tickSize: 0.0025,
  instrumenttype: 'FUTCUR',
});

export function option(kind: 'CE' | 'PE', strike: number, expiryDate = '2026-12-29'): Instrument {
  const tag = expiryDate.replaceAll('-', '');
  return instrument(kind, 'NFO', `NIFTY${tag}${strike}${kind}`, 'NSE_INDEX:NIFTY', {
    expiryDate,
    strike,
    lotsize: 75,
    instrumenttype: 'OPTIDX',
  });
}

export function newMarket(
  seed = 7,
  startMs = T0_MS,
  splitFraction?: number,
): { market: SimulatedMarket; clock: ManualClock } {
  const clock = new ManualClock(startMs);
  const market = createMarket({
    underlyings: UNDERLYINGS,
    clock,
    seed,
    ...(splitFraction === undefined ? {} : { splitFraction }),
  });
  return { market, clock };
}

/** At-the-money strike (multiple of 50) for NIFTY at T0 with seed 7. */
export function atmStrike(market: SimulatedMarket): number {
  return Math.round(market.lastPrice(NIFTY) / 50) * 50;
}
