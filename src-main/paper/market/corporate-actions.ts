// Deterministic stock splits: about 5% of equity underlyings (chosen by the seed) split 2:1 or 5:1
// on a date between mid-2016 and 2025, so `adjusted=false` has something to differ on. Keyed on
// the symbol part of the underlying key so an NSE and a BSE listing of one company agree.
import { hash2, hash3, hashString, unit } from './hash.js';
import { dateToIstDay, istDayStart, istDayToDate } from './time.js';

export interface CorporateAction {
  kind: 'split';
  /** Ex-date, `YYYY-MM-DD` (IST); the split applies from IST midnight of this day. */
  exDate: string;
  /** Epoch seconds of that IST midnight. */
  time: number;
  /** New shares per old share: prices before `time` are `ratio` times the adjusted ones. */
  ratio: number;
}

const FIRST_DAY = dateToIstDay('2016-07-01');
const LAST_DAY = dateToIstDay('2025-12-31');

/** The split of an equity underlying, or null. `fraction` is the share of equities that split. */
export function splitFor(seed: number, underlyingKey: string, fraction: number): CorporateAction | null {
  const colon = underlyingKey.indexOf(':');
  const exchange = underlyingKey.slice(0, colon);
  if (exchange !== 'NSE' && exchange !== 'BSE') return null;
  const k = hash2(hashString(underlyingKey.slice(colon + 1)), seed | 0);
  if (unit(hash2(k, 0x5917)) >= fraction) return null;
  const day = FIRST_DAY + (hash3(k, 0xda7e, 1) % (LAST_DAY - FIRST_DAY + 1));
  const ratio = hash3(k, 0x4a7, 2) % 2 === 0 ? 2 : 5;
  return { kind: 'split', exDate: istDayToDate(day), time: istDayStart(day), ratio };
}
