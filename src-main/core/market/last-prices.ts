// The latest traded price the core has seen per profile and instrument (market polling's ltp, quote
// and depth answers; the watcher's position LTPs), with when it was seen. The risk gate prices a
// MARKET order (or a price band) from it instead of asking the gateway again, which would cost a
// round trip and a slot of the shared rate budget before every order.
import type { Clock } from '../../gateway/index.js';
import { instrumentKey } from './instruments.js';

/** As market events and order legs spell it. */
type Listed = { symbol: string; exchange: string };

/** A price older than this is not trusted for a risk check: the gateway is asked instead. */
export const FRESH_PRICE_MS = 2000;

export interface LastPrices {
  /** A price seen at `time` (the core's clock); an older sighting never replaces a newer one. */
  record(profileId: string, instrument: Listed, ltp: number | null, time: number): void;
  /** The price seen within `maxAgeMs` of now, if any (never 0 or below: that is "no trade yet"). */
  fresh(profileId: string, instrument: Listed, maxAgeMs?: number): number | undefined;
  clear(): void;
}

export function createLastPrices(clock: Pick<Clock, 'now'>): LastPrices {
  const seen = new Map<string, { ltp: number; time: number }>();
  const keyOf = (profileId: string, i: Listed) => `${profileId}|${instrumentKey(i)}`;
  return {
    record(profileId, instrument, ltp, time) {
      if (ltp === null || !Number.isFinite(ltp) || !(ltp > 0)) return;
      const key = keyOf(profileId, instrument);
      const known = seen.get(key);
      if (known && known.time > time) return;
      seen.set(key, { ltp, time });
    },
    fresh(profileId, instrument, maxAgeMs = FRESH_PRICE_MS) {
      const known = seen.get(keyOf(profileId, instrument));
      if (!known) return undefined;
      const age = clock.now() - known.time;
      return age >= 0 && age <= maxAgeMs ? known.ltp : undefined;
    },
    clear() {
      seen.clear();
    },
  };
}
