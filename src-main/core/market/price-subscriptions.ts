// Prices a core service needs for a changing set of instruments (the brackets' symbols, the guard's
// open positions): one `ltp` market subscription each, made when wanted and dropped when not. Its
// `market.ltp` events reach whoever listens on the bus.
import type { ChannelArgs, IpcResult, MarketWatchResult } from '../../contract/index.js';

export interface PriceMarket {
  watch(input: ChannelArgs<'market.watch'>): Promise<IpcResult<MarketWatchResult>>;
  unwatch(id: string): unknown;
}

export interface Instrument {
  symbol: string;
  exchange: string;
}

/** Returns the setter of the wanted set; `refused` hears an instrument the market would not watch. */
export function createPriceSubscriptions(
  market: PriceMarket,
  refused: (i: Instrument, reason: string) => void,
): (wanted: readonly Instrument[]) => void {
  /** Instrument key → subscription id (undefined while the watch is being made). */
  const watched = new Map<string, string | undefined>();
  /** Keys dropped while their watch was being made: unwatched once it answers. */
  const dropped = new Set<string>();
  const keyOf = (s: Instrument) => `${s.exchange}:${s.symbol}`;
  return (list) => {
    const wanted = new Map(list.map((s) => [keyOf(s), s]));
    for (const [key, id] of watched) {
      if (wanted.has(key)) continue;
      watched.delete(key);
      if (id !== undefined) market.unwatch(id);
      else dropped.add(key);
    }
    for (const [key, s] of wanted) {
      if (watched.has(key)) continue;
      watched.set(key, undefined);
      // Wanted again before its watch answered: that watch serves.
      if (dropped.delete(key)) continue;
      const input = {
        symbols: [{ symbol: s.symbol, exchange: s.exchange }],
        mode: 'ltp',
      } as ChannelArgs<'market.watch'>;
      void market.watch(input).then((r) => {
        if (!r.ok) {
          watched.delete(key);
          refused(s, r.error.message);
        } else if (dropped.delete(key)) market.unwatch(r.value.id);
        else watched.set(key, r.value.id);
      });
    }
  };
}
