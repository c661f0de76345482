// Live market data for the desk: quotes for the shown watchlist and the ticket's instrument, and the
// focused depth (`market.watch` with focus: true, ≥ 2 updates/s). Each consumer points its own
// subscription (WatchSlot) at what it shows; the ticks land here, one entry per instrument, newest
// seq wins. Panes attach() while mounted; the first attach starts listening, the last one stops.
import type {
  BridgeApi,
  Exchange,
  IpcError,
  MarketDepthEvent,
  MarketErrorEvent,
  MarketLtpEvent,
  MarketQuoteEvent,
} from '@contract';
import { SvelteMap } from 'svelte/reactivity';
import { depthFlashes, nextFlash, type Flash, type FlashMap } from '../lib/flash';
import { DerivativePickerState } from './derivative-picker.svelte';
import { SymbolSearchState, type SearchOptions } from './symbol-search.svelte';
import { WatchSlot } from './watch-slot.svelte';
import { WatchlistsState, instrumentKey } from './watchlists.svelte';

export { instrumentKey };

/** A quote this long after the last one ends a gap (offline, a switch): its move is not tinted. */
export const CATCH_UP_MS = 5000;

export interface InstrumentRef {
  symbol: string;
  exchange: string;
}

/** What a watchlist row or the ticket shows of an instrument; ltp-only ticks leave the rest as it was. */
export interface QuoteShown {
  ltp: number;
  change?: number;
  changePercent?: number | null;
  /** When the data was received (ms since the epoch). */
  time: number;
  seq: number;
  /** The LTP's last move, for its flash. */
  flash?: Flash;
}

export class MarketState {
  /** Latest quote per `EXCHANGE:SYMBOL`; a SvelteMap so one tick re-renders only its own row. */
  readonly quotes = new SvelteMap<string, QuoteShown>();
  /** The focused instrument's book; replaced whole on each tick (raw: 10 updates/s stay cheap). */
  depth = $state.raw<MarketDepthEvent | undefined>();
  /** Which depth cells moved on the last tick, and which way. */
  depthFlash = $state.raw<FlashMap>({});
  /** The instrument the depth follows. */
  depthTarget = $state.raw<InstrumentRef | undefined>();
  /** Why data for an instrument could not be had (market.error), until a tick for it arrives. */
  readonly errors = new SvelteMap<string, IpcError>();
  /** The watchlist row that has focus, for F1/F2 ("the focused instrument"). */
  focused = $state.raw<InstrumentRef | undefined>();

  readonly watchlists: WatchlistsState;
  readonly listSlot: WatchSlot;
  readonly ticketSlot: WatchSlot;
  readonly depthSlot: WatchSlot;

  readonly #bridge: BridgeApi;
  #attached = 0;
  #offs: (() => void)[] = [];
  /** Ticks numbered before the last profile switch belong to the old gateway. */
  #minSeq = 0;
  #depthSeq = 0;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
    this.watchlists = new WatchlistsState(bridge, () => void this.followWatchlist());
    this.listSlot = new WatchSlot(bridge);
    this.ticketSlot = new WatchSlot(bridge);
    this.depthSlot = new WatchSlot(bridge);
  }

  /** Starts listening (and loads the watchlists) on the first attach; returns the detach. */
  attach(): () => void {
    if (this.#attached++ === 0) this.#start();
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      if (--this.#attached === 0) this.#stop();
    };
  }

  /** A search box's own state (the ticket's and the watchlist's are separate), on this bridge. */
  createSearch(options?: SearchOptions): SymbolSearchState {
    return new SymbolSearchState(this.#bridge, options);
  }

  /** A pane's own subscription on this bridge (Positions watches its open instruments' quotes). */
  createSlot(): WatchSlot {
    return new WatchSlot(this.#bridge);
  }

  createPicker(): DerivativePickerState {
    return new DerivativePickerState(this.#bridge);
  }

  quoteOf(i: InstrumentRef | undefined): QuoteShown | undefined {
    return i ? this.quotes.get(instrumentKey(i)) : undefined;
  }

  errorOf(i: InstrumentRef | undefined): string | undefined {
    return this.problemOf(i)?.message;
  }

  /** The refusal itself (its kind says whether it is the instrument's or the gateway's). */
  problemOf(i: InstrumentRef | undefined): IpcError | undefined {
    return i ? this.errors.get(instrumentKey(i)) : undefined;
  }

  // ---- what to follow ----
  /** Quotes for the shown watchlist tab (call after the tab or its items change). */
  followWatchlist(): Promise<void> {
    // Sorted: a reorder of the list is the same subscription, not a new one.
    const items = [...this.watchlists.items].sort((a, b) => (instrumentKey(a) < instrumentKey(b) ? -1 : 1));
    const shown = this.#attached > 0 && items.length > 0;
    return this.listSlot.set(shown ? { symbols: items.map(ref), mode: 'quote' } : undefined);
  }

  /** A quote for the ticket's instrument (its LTP, change, value estimate). */
  followTicket(i: InstrumentRef | undefined): Promise<void> {
    return this.ticketSlot.set(i ? { symbols: [ref(i)], mode: 'quote' } : undefined);
  }

  /** The depth pane's instrument, polled first (focus). */
  focusDepth(i: InstrumentRef | undefined): Promise<void> {
    const same = i && this.depthTarget && instrumentKey(i) === instrumentKey(this.depthTarget);
    if (!same) {
      this.depthTarget = i ? ref(i) : undefined;
      this.depth = undefined;
      this.depthFlash = {};
    }
    return this.depthSlot.set(i ? { symbols: [ref(i)], mode: 'depth', focus: true } : undefined);
  }

  // ---- events ----
  #start(): void {
    const b = this.#bridge;
    this.#offs = [
      b.on('market.quote', (e) => this.#quote(e)),
      b.on('market.ltp', (e) => this.#ltp(e)),
      b.on('market.depth', (e) => this.#depth(e)),
      b.on('market.error', (e) => this.#error(e)),
      b.on('profiles.switched', (e) => {
        // Another gateway's prices: what was shown is not its word.
        this.#minSeq = Math.max(this.#minSeq, e.seq);
        this.quotes.clear();
        this.errors.clear();
        this.depth = undefined;
      }),
    ];
    void this.watchlists.load();
  }

  #stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
    void this.listSlot.set(undefined);
    void this.ticketSlot.set(undefined);
    void this.depthSlot.set(undefined);
  }

  #fresh(key: string, seq: number): boolean {
    if (seq <= this.#minSeq) return false;
    const last = this.quotes.get(key);
    return !last || seq > last.seq;
  }

  #quote(e: MarketQuoteEvent & { seq: number }): void {
    const key = instrumentKey(e);
    if (!this.#fresh(key, e.seq)) return;
    this.#put(key, e, { change: e.change, changePercent: e.changePercent });
  }

  /** One instrument's newest figures; ltp-only ticks keep the change they had. */
  #put(key: string, e: { ltp: number; time: number; seq: number }, extra: Partial<QuoteShown>): void {
    this.errors.delete(key);
    const last = this.quotes.get(key);
    this.quotes.set(key, {
      ...last,
      ...extra,
      ltp: e.ltp,
      time: e.time,
      seq: e.seq,
      // After a gap (the gateway was away) the new price is a catch-up, not a tick: no tint.
      flash:
        last && e.time - last.time > CATCH_UP_MS
          ? undefined
          : nextFlash(last?.flash, last?.ltp, e.ltp, Date.now()),
    });
  }

  #ltp(e: MarketLtpEvent & { seq: number }): void {
    const key = instrumentKey(e);
    if (this.#fresh(key, e.seq)) this.#put(key, e, {});
  }

  #depth(e: MarketDepthEvent & { seq: number }): void {
    const key = instrumentKey(e);
    // A depth tick is also the freshest quote of its instrument.
    if (this.#fresh(key, e.seq)) this.#put(key, e, { change: e.change, changePercent: e.changePercent });
    const target = this.depthTarget;
    if (!target || instrumentKey(target) !== key || e.seq <= this.#depthSeq || e.seq <= this.#minSeq) return;
    this.#depthSeq = e.seq;
    this.depthFlash = depthFlashes(this.depth, e, this.depthFlash, Date.now());
    this.depth = e;
  }

  #error(e: MarketErrorEvent & { seq: number }): void {
    if (e.seq <= this.#minSeq) return;
    for (const s of e.symbols) this.errors.set(instrumentKey(s), e.error);
  }
}

/** The watch input's pair; the exchange is checked by main (an unknown one is refused there, in words). */
function ref(i: InstrumentRef): { symbol: string; exchange: Exchange } {
  return { symbol: i.symbol, exchange: i.exchange as Exchange };
}
