// Expiry lookup (POST /api/v1/expiry): the distinct expiries of one underlying's futures or options on
// one exchange, from `today` on, earliest first, as DD-MMM-YY.
import { formatExpiry } from './calendar.js';
import type { Instrument, InstrumentMaster } from './instrument.js';

export const EXPIRY_EXCHANGES = ['NFO', 'BFO', 'MCX', 'CDS'] as const;
export type ExpiryInstrumentType = 'futures' | 'options';

export interface ExpiryQuery {
  /** Underlying, e.g. NIFTY, RELIANCE, CRUDEOIL, USDINR; matched exactly, case-insensitively. */
  symbol: string;
  exchange: string;
  instrumenttype: ExpiryInstrumentType;
  /** IST calendar date YYYY-MM-DD; earlier expiries are dropped. */
  today: string;
}

interface Dates {
  futures: readonly string[];
  options: readonly string[];
}

// One underlying's distinct expiry dates (YYYY-MM-DD, ascending), cached per derivatives list.
const cache = new WeakMap<readonly Instrument[], Dates>();

function datesOf(list: readonly Instrument[]): Dates {
  let d = cache.get(list);
  if (!d) {
    const futures = new Set<string>();
    const options = new Set<string>();
    for (const inst of list) {
      if (!inst.expiryDate) continue;
      (inst.kind === 'FUT' ? futures : options).add(inst.expiryDate);
    }
    d = { futures: [...futures].sort(), options: [...options].sort() };
    cache.set(list, d);
  }
  return d;
}

/**
 * Exact underlying match: the service keeps only symbols matching `^<SYMBOL>\d\d[A-Z]{3}\d\d`, so NIFTY
 * never picks up NIFTYNXT50 contracts. Here every derivative's `name` is its underlying, which is the
 * same rule without the regex. Unsupported exchanges give [] (rejecting them is the server's job).
 */
export function listExpiries(master: InstrumentMaster, q: ExpiryQuery): string[] {
  if (!(EXPIRY_EXCHANGES as readonly string[]).includes(q.exchange)) return [];
  const list = master.derivatives(q.exchange, q.symbol.trim().toUpperCase());
  const dates = datesOf(list);
  const wanted = q.instrumenttype === 'futures' ? dates.futures : dates.options;
  return wanted.filter((d) => d >= q.today).map(formatExpiry);
}
