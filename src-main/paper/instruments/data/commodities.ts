// MCX commodity futures (FUTCOM) and options on futures (OPTFUT), and NSE currency derivatives (CDS).
// Lot sizes are in the contract's quoting unit, as MCX states them (CRUDEOIL 100 barrels quoted per
// barrel, GOLD 1 kg quoted per 10 g = 100, SILVER 30 kg quoted per kg = 30, ...), so quantity x price
// is the contract value in rupees. CDS contracts use lotsize 1: quantities are in lots, the way the
// Zerodha master shows currency contracts (1 lot = 1,000 units of the base currency, not modelled).

/** How a commodity's monthly contract expiry falls. */
export type McxExpiryRule =
  /** Energy: around the 19th (last business day on or before it). */
  | 'day19'
  /** Natural gas: around the 26th. */
  | 'day26'
  /** Precious metals: the 5th (or the business day before). */
  | 'day5'
  /** Base metals and minis: last business day of the month. */
  | 'monthEnd';

export interface CommoditySpec {
  symbol: string;
  /** Hidden spot series key; minis share the big contract's series when quoted in the same unit. */
  underlying: string;
  basePrice: number;
  volatility: number;
  lot: number;
  tick: number;
  rule: McxExpiryRule;
  /** Contract months (0-11); all when omitted. */
  months?: readonly number[];
  /** Upcoming futures contracts listed. */
  futures: number;
  /** Options on the nearest futures: count of expiries (0: none), strike step, strikes either side. */
  options: number;
  strikeStep: number;
  halfWidth: number;
  optionTick: number;
  /** Maximum order size in lots (freeze quantity = lots x lot size). */
  maxLots: number;
}

const EVEN_MONTHS = [1, 3, 5, 7, 9, 11];
const SILVER_MONTHS = [2, 4, 6, 8, 11];
const SILVERM_MONTHS = [1, 3, 5, 7, 10];

export const COMMODITIES: readonly CommoditySpec[] = [
  mcx('CRUDEOIL', 'CRUDEOIL', 5600, 0.36, 100, 1, 'day19', 6, 3, 50, 40, 0.1, 100),
  mcx('CRUDEOILM', 'CRUDEOIL', 5600, 0.36, 10, 1, 'day19', 6, 3, 50, 40, 0.1, 1000),
  mcx('NATURALGAS', 'NATURALGAS', 310, 0.55, 1250, 0.1, 'day26', 6, 3, 5, 40, 0.05, 100),
  mcx('NATGASMINI', 'NATURALGAS', 310, 0.55, 250, 0.1, 'day26', 6, 3, 5, 40, 0.05, 500),
  mcx('GOLD', 'GOLD', 125500, 0.15, 100, 1, 'day5', 4, 2, 500, 40, 0.5, 50, EVEN_MONTHS),
  mcx('GOLDM', 'GOLD', 125500, 0.15, 10, 1, 'day5', 4, 3, 500, 40, 0.5, 500),
  mcx('GOLDGUINEA', 'GOLDGUINEA', 101000, 0.15, 1, 1, 'monthEnd', 4, 0, 0, 0, 0, 1000),
  mcx('GOLDPETAL', 'GOLDPETAL', 12600, 0.15, 1, 1, 'monthEnd', 4, 0, 0, 0, 0, 5000),
  mcx('SILVER', 'SILVER', 155000, 0.26, 30, 1, 'day5', 4, 2, 1000, 40, 0.5, 50, SILVER_MONTHS),
  mcx('SILVERM', 'SILVER', 155000, 0.26, 5, 1, 'monthEnd', 4, 3, 1000, 40, 0.5, 300, SILVERM_MONTHS),
  mcx('SILVERMIC', 'SILVER', 155000, 0.26, 1, 1, 'monthEnd', 4, 0, 0, 0, 0, 1000, SILVERM_MONTHS),
  mcx('COPPER', 'COPPER', 1010, 0.2, 2500, 0.05, 'monthEnd', 4, 3, 5, 30, 0.05, 100),
  mcx('ZINC', 'ZINC', 290, 0.2, 5000, 0.05, 'monthEnd', 4, 3, 2.5, 30, 0.05, 100),
  mcx('ZINCMINI', 'ZINC', 290, 0.2, 1000, 0.05, 'monthEnd', 4, 0, 0, 0, 0, 500),
  mcx('ALUMINIUM', 'ALUMINIUM', 265, 0.18, 5000, 0.05, 'monthEnd', 4, 3, 2.5, 30, 0.05, 100),
  mcx('ALUMINI', 'ALUMINIUM', 265, 0.18, 1000, 0.05, 'monthEnd', 4, 0, 0, 0, 0, 500),
  mcx('LEAD', 'LEAD', 182, 0.17, 5000, 0.05, 'monthEnd', 4, 3, 2.5, 30, 0.05, 100),
  mcx('LEADMINI', 'LEAD', 182, 0.17, 1000, 0.05, 'monthEnd', 4, 0, 0, 0, 0, 500),
  mcx('NICKEL', 'NICKEL', 1350, 0.25, 1500, 0.1, 'monthEnd', 4, 0, 0, 0, 0, 100),
  mcx('MENTHAOIL', 'MENTHAOIL', 960, 0.22, 360, 0.1, 'monthEnd', 3, 0, 0, 0, 0, 100),
];

function mcx(
  symbol: string,
  underlying: string,
  basePrice: number,
  volatility: number,
  lot: number,
  tick: number,
  rule: McxExpiryRule,
  futures: number,
  options: number,
  strikeStep: number,
  halfWidth: number,
  optionTick: number,
  maxLots: number,
  months?: readonly number[],
): CommoditySpec {
  const s: CommoditySpec = {
    symbol,
    underlying,
    basePrice,
    volatility,
    lot,
    tick,
    rule,
    futures,
    options,
    strikeStep,
    halfWidth,
    optionTick,
    maxLots,
  };
  if (months) s.months = months;
  return s;
}

export interface CurrencySpec {
  symbol: string;
  basePrice: number;
  volatility: number;
  futures: number;
  options: number;
  strikeStep: number;
  halfWidth: number;
  /** Maximum order size in lots. */
  maxLots: number;
}

// JPYINR is quoted per 100 yen, as on NSE.
export const CURRENCIES: readonly CurrencySpec[] = [
  {
    symbol: 'USDINR',
    basePrice: 88.6,
    volatility: 0.045,
    futures: 6,
    options: 3,
    strikeStep: 0.25,
    halfWidth: 24,
    maxLots: 10000,
  },
  {
    symbol: 'EURINR',
    basePrice: 103.2,
    volatility: 0.07,
    futures: 6,
    options: 3,
    strikeStep: 0.25,
    halfWidth: 20,
    maxLots: 10000,
  },
  {
    symbol: 'GBPINR',
    basePrice: 117.8,
    volatility: 0.08,
    futures: 6,
    options: 3,
    strikeStep: 0.25,
    halfWidth: 20,
    maxLots: 10000,
  },
  {
    symbol: 'JPYINR',
    basePrice: 57.4,
    volatility: 0.09,
    futures: 6,
    options: 3,
    strikeStep: 0.25,
    halfWidth: 20,
    maxLots: 10000,
  },
];

/** CDS futures and options tick. */
export const CURRENCY_TICK = 0.0025;
