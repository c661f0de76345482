// The option chain pane's state: an underlying and expiry (the derivative picker's expiry and
// contract loading, reused), the strikes either side of the money with quotes for calls and puts,
// and the underlying's spot. Quotes arrive once from a ChainQuoteSource (multiquotes today) and then
// from a `market.quote` watch on the shown contracts, polled by the core within the rate budget.
import type { BridgeApi, Exchange, IpcResult, MarketQuoteEvent, MarketWatchInput } from '@contract';
import {
  atmStrike,
  chainKey,
  chainRows,
  chainStrikes,
  contractKeys,
  parityAtm,
  quoteFromEvent,
  quotesFromMulti,
  strikeWindow,
  windowContracts,
  type ChainContract,
  type ChainQuote,
  type ChainQuotes,
  type ChainRow,
} from '../lib/option-chain';
import { SvelteMap } from 'svelte/reactivity';
import { parseSymbol } from '../lib/instrument';
import { expiryOf } from '../lib/option-chain';
import {
  DerivativePickerState,
  PICKER_EXCHANGES,
  SPOT_EXCHANGES,
  type PickerExchange,
} from './derivative-picker.svelte';
import { WatchSlot } from './watch-slot.svelte';
import { optionChainSource } from '../lib/option-chain-gateway';

/** The first chain a pane shows: the ticket's derivative's, otherwise NIFTY on NFO. */
export function chainStart(instrument: { symbol: string; exchange: string } | undefined): {
  underlying: string;
  exchange: PickerExchange;
  expiry?: string;
} {
  const p = instrument ? parseSymbol(instrument.symbol) : undefined;
  const ex = PICKER_EXCHANGES.find((e) => e === instrument?.exchange);
  if (instrument && p && p.kind !== 'equity' && ex)
    return { underlying: p.underlying, exchange: ex, expiry: expiryOf(instrument.symbol) };
  return { underlying: 'NIFTY', exchange: 'NFO' };
}

export interface SpotRef {
  symbol: string;
  exchange: string;
}

/**
 * Where the chain's quotes come from, in one call for the shown contracts and the spot candidates.
 * The seam for the gateway's `optionchain` (OI and greeks in one answer): a source built on it
 * returns the same ChainQuotes, and nothing else here changes.
 */
export type ChainQuoteSource = (
  contracts: readonly ChainContract[],
  spotCandidates: readonly SpotRef[],
) => Promise<IpcResult<ChainQuotes>>;

/** The chain's quotes through `market.multiquotes` (one request, up to 500 instruments). */
export function multiquotesSource(bridge: BridgeApi): ChainQuoteSource {
  return async (contracts, spots) => {
    const symbols = [...spots, ...contracts].map((c) => ({
      symbol: c.symbol,
      exchange: c.exchange as Exchange,
    }));
    if (symbols.length === 0) return { ok: true, value: quotesFromMulti([]) };
    const res = await bridge.invoke('market.multiquotes', { symbols });
    return res.ok ? { ok: true, value: quotesFromMulti(res.value.results) } : res;
  };
}

export const STRIKES_EACH_SIDE = [5, 10, 15, 20] as const;
export const DEFAULT_EACH_SIDE = 10;

export class OptionChainState {
  readonly picker: DerivativePickerState;
  /** Strikes shown either side of the at-the-money one. */
  each = $state<number>(DEFAULT_EACH_SIDE);
  /** Latest quote per `EXCHANGE:SYMBOL` (contracts and the spot): one tick re-renders its own cells. */
  readonly quotes = new SvelteMap<string, ChainQuote>();
  /** Contracts the gateway could not quote, with what it said. */
  readonly missing = new SvelteMap<string, string>();
  /** The underlying's own instrument, once one of the candidates was quoted. */
  spotRef = $state.raw<SpotRef | undefined>();
  /** Why the quotes could not be read (the rows stay, without prices). */
  quoteError = $state<string | undefined>();
  quoting = $state(false);
  /** The strike the window is centred on: the ATM when loaded, moved only when the ATM leaves it. */
  centre = $state<number | undefined>();
  /** The watch on the shown contracts and the spot. */
  readonly slot: WatchSlot;

  // Closures: the picker is made in the constructor, after these initialisers.
  readonly strikes = $derived.by(() =>
    chainStrikes(this.picker.chain, this.picker.underlying, this.picker.expiry),
  );
  readonly spot: number | undefined = $derived.by(() => {
    const ref = this.spotRef;
    return ref ? this.quotes.get(chainKey(ref))?.ltp : undefined;
  });
  readonly atm: number | undefined = $derived.by(
    () => atmStrike(this.strikes, this.spot) ?? parityAtm(this.strikes, this.quotes) ?? this.picker.strike,
  );
  readonly window = $derived(strikeWindow(this.strikes, this.centre ?? this.atm, this.each));
  readonly rows: ChainRow[] = $derived(
    chainRows(this.window, this.quotes, this.missing, this.atm, this.spot),
  );
  /**
   * What the watch follows: the shown contracts and the spot (undefined: nothing to follow). Nothing
   * while a load is under way: the window moves several times then, and each move would start a poll
   * competing with the load's own reads for the rate budget.
   */
  readonly watchInput: MarketWatchInput | undefined = $derived.by(() => {
    if (this.picker.loading || this.quoting) return undefined;
    const symbols = [...(this.spotRef ? [this.spotRef] : []), ...windowContracts(this.window)];
    return symbols.length > 0
      ? {
          symbols: symbols.map((s) => ({ symbol: s.symbol, exchange: s.exchange as Exchange })),
          mode: 'quote',
        }
      : undefined;
  });

  /** Every listed contract of the expiry and the spot: the quote events that are the chain's. */
  readonly #keys = $derived(contractKeys(this.strikes, this.spotRef));
  readonly #bridge: BridgeApi;
  readonly #source: ChainQuoteSource;
  #seq = 0;
  /** Ticks numbered before the last profile switch are another gateway's. */
  #minSeq = 0;

  // The gateway's optionchain when it offers it (one request), multiquotes otherwise.
  constructor(
    bridge: BridgeApi,
    source: ChainQuoteSource = optionChainSource(bridge, multiquotesSource(bridge)),
  ) {
    this.#bridge = bridge;
    this.#source = source;
    this.picker = new DerivativePickerState(bridge);
    this.picker.kind = 'options';
    this.slot = new WatchSlot(bridge);
  }

  /** Loads the underlying's expiries, the first expiry's strikes and their quotes. */
  async load(underlying: string, exchange: PickerExchange, expiry?: string): Promise<void> {
    const seq = ++this.#seq;
    this.picker.underlying = underlying;
    this.picker.exchange = exchange;
    this.picker.kind = 'options';
    this.spotRef = undefined;
    this.#reset();
    await this.#loading(seq, async () => {
      await this.picker.loadExpiries();
      if (seq !== this.#seq) return;
      if (expiry && expiry !== this.picker.expiry && this.picker.expiries.includes(expiry)) {
        await this.picker.chooseExpiry(expiry);
        if (seq !== this.#seq) return;
      }
      await this.#quote(seq);
    });
  }

  async chooseExpiry(expiry: string): Promise<void> {
    const seq = ++this.#seq;
    this.#reset();
    await this.#loading(seq, async () => {
      await this.picker.chooseExpiry(expiry);
      if (seq === this.#seq) await this.#quote(seq);
    });
  }

  /**
   * A load is "quoting" from its start until its own quotes are in (or it finds nothing): the prices
   * a reload keeps show under the loading note meanwhile, and nothing (the watch, the greeks) takes
   * them for this load's. A load still under way is superseded: the latest owns the flag.
   */
  async #loading(seq: number, work: () => Promise<void>): Promise<void> {
    this.quoting = true;
    try {
      await work();
    } finally {
      if (seq === this.#seq) this.quoting = false;
    }
  }

  /** Shows `each` strikes either side (bounded to the choices offered). */
  setEach(each: number): void {
    if ((STRIKES_EACH_SIDE as readonly number[]).includes(each)) this.each = each;
  }

  /** Centres the window on the at-the-money strike again. */
  recentre(): void {
    this.centre = this.atm;
  }

  /** Reads the shown contracts' quotes now (also after a window change the watch has not yet fed). */
  refresh(): Promise<void> {
    return this.#quote(++this.#seq);
  }

  /** Listens for the watch's quotes; returns the function that stops listening. */
  listen(): () => void {
    const offs = [
      this.#bridge.on('market.quote', (e) => this.#onQuote(e)),
      this.#bridge.on('profiles.switched', (e) => {
        this.#minSeq = Math.max(this.#minSeq, e.seq);
        this.quotes.clear();
        this.missing.clear();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /**
   * A new load keeps the quotes it has: a reload of the same contracts updates their cells in place
   * when its answer comes, rather than blanking 82 cells and filling them again; another expiry's
   * or underlying's contracts are other keys, never shown with these. The answer drops the rest.
   */
  #reset(): void {
    this.quoteError = undefined;
    this.centre = undefined;
  }

  /** Forgets quotes and reasons of contracts that are not this expiry's (nor the spot's). */
  #prune(): void {
    const keep = this.#keys;
    for (const key of [...this.quotes.keys()]) if (!keep.has(key)) this.quotes.delete(key);
    for (const key of [...this.missing.keys()]) if (!keep.has(key)) this.missing.delete(key);
  }

  /** Where the underlying itself is quoted: its index first, then its cash market. */
  #spotCandidates(): SpotRef[] {
    const underlying = this.picker.underlying;
    return SPOT_EXCHANGES[this.picker.exchange].map((exchange) => ({ symbol: underlying, exchange }));
  }

  async #quote(seq: number): Promise<void> {
    if (this.strikes.length === 0) return;
    const candidates = this.spotRef ? [this.spotRef] : this.#spotCandidates();
    // The first window is centred on the picker's at-the-money strike (its spot quote).
    const window = strikeWindow(this.strikes, this.centre ?? this.atm, this.each);
    this.quoting = true;
    const res = await this.#source(windowContracts(window), candidates);
    if (seq !== this.#seq) return;
    this.quoting = false;
    if (!res.ok) {
      // No price is shown that this read did not confirm: the rows stay, without prices.
      this.quotes.clear();
      this.missing.clear();
      this.quoteError = `Quotes could not be read: ${res.error.message}`;
      return;
    }
    this.quoteError = undefined;
    for (const [key, q] of res.value.quotes) {
      const had = this.quotes.get(key);
      if (!had || had.seq <= q.seq) this.quotes.set(key, q);
      this.missing.delete(key);
    }
    for (const [key, why] of res.value.missing) if (!this.quotes.has(key)) this.missing.set(key, why);
    this.spotRef ??= candidates.find((c) => this.quotes.has(chainKey(c)));
    this.#prune();
    this.centre = this.atm;
  }

  #onQuote(e: MarketQuoteEvent & { seq: number }): void {
    if (e.seq <= this.#minSeq) return;
    const key = chainKey(e);
    if (!this.#keys.has(key)) return;
    const had = this.quotes.get(key);
    if (had && had.seq >= e.seq) return;
    this.quotes.set(key, quoteFromEvent(e));
    this.missing.delete(key);
    // The money moved out of the shown strikes: bring it back to the middle.
    const atm = this.atm;
    if (atm !== undefined && !this.window.some((s) => s.strike === atm)) this.centre = atm;
  }
}
