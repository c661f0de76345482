// The option chain's quotes from the gateway's `optionchain` (one request: the strikes around the
// money with quotes and OI) through `market.optionChain`. Contracts it does not cover, and gateways
// that do not offer it, are read by the fallback source (multiquotes), so the pane looks the same.
import type { BridgeApi, Exchange, IpcResult, OptionChainResponse } from '@contract';
import { chainKey, changeOf, type ChainContract, type ChainQuote, type ChainQuotes } from './option-chain';

type SpotRef = { symbol: string; exchange: string };
type Source = (
  contracts: readonly ChainContract[],
  spots: readonly SpotRef[],
) => Promise<IpcResult<ChainQuotes>>;

/** Most strikes either side one optionchain request may ask for. */
const MAX_STRIKE_COUNT = 100;

/** DDMMMYY inside `NIFTY01DEC2626000CE` after the underlying's name; undefined when it is not there. */
export function expiryCodeOf(symbol: string, underlying: string): string | undefined {
  if (!symbol.startsWith(underlying)) return undefined;
  const code = symbol.slice(underlying.length, underlying.length + 7);
  return /^\d{2}[A-Z]{3}\d{2}$/.test(code) ? code : undefined;
}

/** The chain's quotes as ChainQuotes, keyed like every other quote of the pane. */
export function quotesFromChain(res: OptionChainResponse, exchange: string, spot: SpotRef): ChainQuotes {
  const quotes = new Map<string, ChainQuote>();
  for (const row of res.chain) {
    for (const leg of [row.ce, row.pe]) {
      if (!leg) continue;
      quotes.set(chainKey({ symbol: leg.symbol, exchange }), {
        ltp: leg.ltp,
        ...changeOf(leg.ltp, leg.prev_close ?? 0),
        oi: leg.oi,
        bid: leg.bid ?? 0,
        ask: leg.ask ?? 0,
        volume: leg.volume ?? 0,
        seq: 0,
      });
    }
  }
  quotes.set(chainKey(spot), {
    ltp: res.underlying_ltp,
    ...changeOf(res.underlying_ltp, res.underlying_prev_close ?? 0),
    bid: 0,
    ask: 0,
    volume: 0,
    seq: 0,
  });
  return { quotes, missing: new Map() };
}

export function optionChainSource(bridge: BridgeApi, fallback: Source): Source {
  let offered = true;
  return async (contracts, spots) => {
    const spot = spots[0];
    const first = contracts[0];
    const expiry = spot && first ? expiryCodeOf(first.symbol, spot.symbol) : undefined;
    if (!offered || !spot || !first || expiry === undefined) return fallback(contracts, spots);
    const strikes = new Set(contracts.map((c) => c.symbol.slice(spot.symbol.length + 7, -2))).size;
    const res = await bridge.invoke('market.optionChain', {
      underlying: spot.symbol,
      exchange: spot.exchange as Exchange,
      expiry_date: expiry,
      // The window may be centred off the gateway's ATM: ask for enough either side to cover it.
      strike_count: Math.min(MAX_STRIKE_COUNT, strikes),
    });
    if (!res.ok) {
      // Not offered (or not for this underlying): the multiquotes path answers instead.
      if (res.error.kind === 'not_offered') offered = false;
      return fallback(contracts, spots);
    }
    const got = quotesFromChain(res.value, first.exchange, spot);
    const rest = contracts.filter((c) => !got.quotes.has(chainKey(c)));
    if (rest.length === 0) return { ok: true, value: got };
    const more = await fallback(rest, []);
    if (!more.ok) return { ok: true, value: got };
    for (const [k, q] of more.value.quotes) got.quotes.set(k, q);
    for (const [k, why] of more.value.missing) got.missing.set(k, why);
    return { ok: true, value: got };
  };
}
