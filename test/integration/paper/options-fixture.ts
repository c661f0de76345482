// The shared setup of the options-*.test.ts files: one engine gateway per file, the NIFTY expiry
// they use, its listed strikes and an optionsymbol call.
import { useEngineGateway } from '../../support/paper-gateway.js';

/** The first NIFTY weekly after the moved 23-Nov expiry: a full strike ladder. */
export const EXPIRY = '01DEC26';
export const NIFTY = { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: EXPIRY };

export function nearest(list: number[], x: number): number {
  return list.reduce((best, k) => (Math.abs(k - x) < Math.abs(best - x) ? k : best), list[0] ?? 0);
}

/** Starts the file's engine gateway (beforeAll/afterAll); returns it and helpers over NIFTY options. */
export function useOptionsGateway() {
  const gw = useEngineGateway();
  /** Listed NIFTY strikes of EXPIRY, ascending, from the master itself. */
  function strikes(): number[] {
    const set = new Set<number>();
    for (const r of gw.gateway.master.derivatives('NFO', 'NIFTY')) {
      if (r.kind === 'CE' && r.expiryDate === '2026-12-01') set.add(r.strike);
    }
    return [...set].sort((a, b) => a - b);
  }
  async function optionSymbol(fields: Record<string, unknown>) {
    return gw.api('optionsymbol', gw.apiKey, { ...NIFTY, ...fields });
  }
  return { gw, strikes, optionSymbol };
}
