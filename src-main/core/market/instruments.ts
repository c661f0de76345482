// Instruments as the market module keys them: `EXCHANGE:SYMBOL`, as the gateway spells both.
import type { MarketInstrument } from '../../contract/index.js';

export type Instrument = MarketInstrument;

export function instrumentKey(i: { symbol: string; exchange: string }): string {
  return `${i.exchange}:${i.symbol}`;
}

/** The list without repeats, first occurrence kept, each reduced to `{symbol, exchange}`. */
export function uniqueInstruments(list: readonly Instrument[]): Instrument[] {
  const seen = new Map<string, Instrument>();
  for (const i of list) {
    const key = instrumentKey(i);
    if (!seen.has(key)) seen.set(key, { symbol: i.symbol, exchange: i.exchange });
  }
  return [...seen.values()];
}

export function describeInstruments(list: readonly Instrument[], max = 5): string {
  const shown = list.slice(0, max).map(instrumentKey).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}
