// Quote-only indices (NSE_INDEX, BSE_INDEX) and the index derivative contracts built on some of them.

export interface IndexSpec {
  exchange: 'NSE_INDEX' | 'BSE_INDEX';
  symbol: string;
  /** Display name, upper-case (the row's `name`). */
  name: string;
  /** Broker symbol as the broker's index list spells it. */
  brsymbol: string;
  price: number;
  volatility: number;
}

type Row = readonly [symbol: string, brsymbol: string, price: number, volatility: number];

const NSE: readonly Row[] = [
  ['NIFTY', 'Nifty 50', 26100, 0.13],
  ['BANKNIFTY', 'Nifty Bank', 59200, 0.15],
  ['FINNIFTY', 'Nifty Fin Service', 27600, 0.15],
  ['MIDCPNIFTY', 'NIFTY MID SELECT', 13800, 0.18],
  ['NIFTYNXT50', 'Nifty Next 50', 70400, 0.16],
  ['INDIAVIX', 'India VIX', 12.5, 0.8],
  ['NIFTY100', 'Nifty 100', 26800, 0.13],
  ['NIFTY200', 'Nifty 200', 14600, 0.14],
  ['NIFTY500', 'Nifty 500', 24000, 0.14],
  ['NIFTYIT', 'Nifty IT', 36500, 0.2],
  ['NIFTYPHARMA', 'Nifty Pharma', 22500, 0.17],
  ['NIFTYAUTO', 'Nifty Auto', 27000, 0.18],
  ['NIFTYMETAL', 'Nifty Metal', 10400, 0.24],
  ['NIFTYFMCG', 'Nifty FMCG', 55500, 0.13],
  ['NIFTYREALTY', 'Nifty Realty', 900, 0.28],
  ['NIFTYENERGY', 'Nifty Energy', 35500, 0.19],
  ['NIFTYPSUBANK', 'Nifty PSU Bank', 8000, 0.24],
  ['NIFTYPVTBANK', 'Nifty Pvt Bank', 28000, 0.16],
  ['NIFTYMEDIA', 'Nifty Media', 1550, 0.25],
  ['NIFTYINFRA', 'Nifty Infra', 9500, 0.16],
  ['NIFTYMIDCAP100', 'NIFTY MIDCAP 100', 60500, 0.18],
  ['NIFTYSMLCAP100', 'NIFTY SMLCAP 100', 18000, 0.21],
  ['NIFTYCPSE', 'Nifty CPSE', 6600, 0.22],
];

const BSE: readonly Row[] = [
  ['SENSEX', 'SENSEX', 85200, 0.13],
  ['BANKEX', 'BANKEX', 66000, 0.15],
  ['SENSEX50', 'SNSX50', 27000, 0.13],
  ['BSE100', 'BSE100', 27500, 0.13],
  ['BSE200', 'BSE200', 11800, 0.14],
  ['BSE500', 'BSE500', 37500, 0.14],
  ['BSEMIDCAP', 'MIDCAP', 46500, 0.18],
  ['BSESMALLCAP', 'SMLCAP', 53500, 0.2],
];

function spec(exchange: IndexSpec['exchange']) {
  return ([symbol, brsymbol, price, volatility]: Row): IndexSpec => ({
    exchange,
    symbol,
    name: brsymbol.toUpperCase(),
    brsymbol,
    price,
    volatility,
  });
}

export const INDICES: readonly IndexSpec[] = [...NSE.map(spec('NSE_INDEX')), ...BSE.map(spec('BSE_INDEX'))];

/** How an index's option expiries are laid out. */
export interface IndexDerivativeSpec {
  exchange: 'NFO' | 'BFO';
  /** Underlying index symbol on NSE_INDEX / BSE_INDEX. */
  symbol: string;
  lot: number;
  freezeQty: number;
  futTick: number;
  strikeStep: number;
  /** Strikes either side of the at-the-money strike, near expiries. */
  nearHalfWidth: number;
  /** Upcoming weekly expiries (0: monthly only). */
  weeklies: number;
  /** Quarterly (Mar/Jun/Sep/Dec) expiries beyond the monthlies. */
  quarterlies: number;
  /** Half-yearly (Jun/Dec) long-dated expiries beyond the quarterlies. */
  halfYearlies: number;
}

// Lots per the Apr-Jun 2026 NSE table (NIFTY 65, BANKNIFTY 30, ...) and SENSEX 20, BANKEX 30;
// freeze quantities per NSE's qtyfreeze file. Index futures tick 0.10 on NSE (0.05 on BSE).
export const INDEX_DERIVATIVES: readonly IndexDerivativeSpec[] = [
  ix('NFO', 'NIFTY', 65, 1800, 0.1, 50, 100, 8, 3, 4),
  ix('NFO', 'BANKNIFTY', 30, 600, 0.1, 100, 80, 0, 3, 0),
  ix('NFO', 'FINNIFTY', 60, 1200, 0.1, 50, 60, 0, 0, 0),
  ix('NFO', 'MIDCPNIFTY', 120, 2800, 0.1, 25, 60, 0, 0, 0),
  ix('NFO', 'NIFTYNXT50', 25, 600, 0.1, 100, 60, 0, 0, 0),
  ix('BFO', 'SENSEX', 20, 1000, 0.05, 100, 100, 6, 0, 0),
  ix('BFO', 'BANKEX', 30, 900, 0.05, 100, 60, 0, 0, 0),
];

function ix(
  exchange: 'NFO' | 'BFO',
  symbol: string,
  lot: number,
  freezeQty: number,
  futTick: number,
  strikeStep: number,
  nearHalfWidth: number,
  weeklies: number,
  quarterlies: number,
  halfYearlies: number,
): IndexDerivativeSpec {
  return {
    exchange,
    symbol,
    lot,
    freezeQty,
    futTick,
    strikeStep,
    nearHalfWidth,
    weeklies,
    quarterlies,
    halfYearlies,
  };
}
