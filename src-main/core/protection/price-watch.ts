// The prices a protection needs: one `ltp` market subscription per bracketed symbol, made when a
// bracket appears and dropped when its last bracket goes. Its `market.ltp` events feed the keeper.
import type { ChannelArgs, IpcResult, MarketWatchResult } from '../../contract/index.js';
import type { Logger } from '../ports.js';

export interface PriceMarket {
  watch(input: ChannelArgs<'market.watch'>): Promise<IpcResult<MarketWatchResult>>;
  unwatch(id: string): unknown;
}

export function createPriceWatch(
  market: PriceMarket,
  logger: Logger,
): (symbols: { symbol: string; exchange: string }[]) => void {
  /** Instrument key → subscription id (undefined while the watch is being made). */
  const watched = new Map<string, string | undefined>();
  const keyOf = (s: { symbol: string; exchange: string }) => `${s.exchange}:${s.symbol}`;
  return (symbols) => {
    const wanted = new Map(symbols.map((s) => [keyOf(s), s]));
    for (const [key, id] of watched)
      if (!wanted.has(key) && id !== undefined) {
        watched.delete(key);
        market.unwatch(id);
      }
    for (const [key, s] of wanted) {
      if (watched.has(key)) continue;
      watched.set(key, undefined);
      const input = { symbols: [s], mode: 'ltp' } as ChannelArgs<'market.watch'>;
      void market.watch(input).then((r) => {
        if (r.ok) watched.set(key, r.value.id);
        else {
          watched.delete(key);
          logger.warn('protection: no prices for a bracketed symbol; its stop does not trail', {
            symbol: s.symbol,
            exchange: s.exchange,
            reason: r.error.message,
          });
        }
      });
    }
  };
}
