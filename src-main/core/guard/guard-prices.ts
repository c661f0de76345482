// The prices the guard marks positions at: one `ltp` market subscription per open position's symbol,
// made when it opens and dropped when it closes. Its `market.ltp` events reach the guard's onPrice.
import type { ChannelArgs } from '../../contract/index.js';
import type { Logger } from '../ports.js';
import type { PriceMarket } from '../protection/price-watch.js';

export function createGuardPrices(
  market: PriceMarket,
  logger: Logger,
): (symbols: readonly { symbol: string; exchange: string }[]) => void {
  /** Instrument key → subscription id (undefined while the watch is being made). */
  const watched = new Map<string, string | undefined>();
  /** Keys dropped while their watch was being made: unwatched once it answers. */
  const dropped = new Set<string>();
  const keyOf = (s: { symbol: string; exchange: string }) => `${s.exchange}:${s.symbol}`;
  return (symbols) => {
    const wanted = new Map(symbols.map((s) => [keyOf(s), s]));
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
      const input = { symbols: [s], mode: 'ltp' } as ChannelArgs<'market.watch'>;
      void market.watch(input).then((r) => {
        if (!r.ok) {
          watched.delete(key);
          logger.warn('guard: no live prices for an open position; it is marked at the book’s price', {
            symbol: s.symbol,
            exchange: s.exchange,
            reason: r.error.message,
          });
        } else if (dropped.delete(key)) market.unwatch(r.value.id);
        else watched.set(key, r.value.id);
      });
    }
  };
}
