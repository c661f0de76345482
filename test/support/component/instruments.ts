// Instruments as market.symbol describes them (the paper master's lot, tick and freeze figures).
import type { SymbolInfo } from '@contract';

const base = { name: '', token: '1', expiry: '', strike: null, freezeQuantity: null } as const;

export const SBIN: SymbolInfo = {
  ...base,
  symbol: 'SBIN',
  exchange: 'NSE',
  name: 'STATE BANK OF INDIA',
  instrumentType: 'EQ',
  lotSize: 1,
  tickSize: 0.05,
};

export const NIFTY_FUT: SymbolInfo = {
  ...base,
  symbol: 'NIFTY25NOV26FUT',
  exchange: 'NFO',
  instrumentType: 'FUT',
  expiry: '25-NOV-26',
  lotSize: 65,
  tickSize: 0.1,
  freezeQuantity: 1800,
};

export const NIFTY_CE: SymbolInfo = {
  ...base,
  symbol: 'NIFTY25NOV2624000CE',
  exchange: 'NFO',
  instrumentType: 'CE',
  expiry: '25-NOV-26',
  strike: 24000,
  lotSize: 65,
  tickSize: 0.05,
  freezeQuantity: 1800,
};

export const USDINR_FUT: SymbolInfo = {
  ...base,
  symbol: 'USDINR26NOV26FUT',
  exchange: 'CDS',
  instrumentType: 'FUT',
  lotSize: 1,
  tickSize: 0.0025,
};

export const NIFTY_INDEX: SymbolInfo = {
  ...base,
  symbol: 'NIFTY',
  exchange: 'NSE_INDEX',
  instrumentType: 'INDEX',
  lotSize: 1,
  tickSize: 0.05,
};
