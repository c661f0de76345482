// Instrument search as you type (`market.search`, spec §4.18 query forms such as `nifty 24000 ce`):
// debounced, with an optional exchange filter; an answer to anything but the latest query is
// dropped, so a slow early answer never replaces the list for what is typed now. ↑/↓ move the
// highlight, Enter picks it.
import type { BridgeApi, Exchange, SymbolRecord } from '@contract';
import { exactFirst, rankByExpiry } from '@shared/contract-rank.js';

export const SEARCH_DEBOUNCE_MS = 120;
/** Rows shown at most; the gateway answers up to 500, a trader refines instead of scrolling. */
export const SEARCH_SHOWN = 30;

export interface SearchOptions {
  debounceMs?: number;
}

export class SymbolSearchState {
  query = $state('');
  /** '' searches every exchange. */
  exchange = $state<Exchange | ''>('');
  results = $state.raw<SymbolRecord[]>([]);
  /** How many the gateway found (more than shown when it is over SEARCH_SHOWN). */
  found = $state(0);
  /** The highlighted row, -1 for none. */
  active = $state(-1);
  open = $state(false);
  loading = $state(false);
  /** Why the search failed, or that nothing matched. */
  message = $state<string | undefined>();
  /** Answers dropped because a later query was asked meanwhile (for tests and diagnostics). */
  staleDropped = $state(0);

  readonly #bridge: BridgeApi;
  readonly #debounceMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #seq = 0;

  constructor(bridge: BridgeApi, options: SearchOptions = {}) {
    this.#bridge = bridge;
    this.#debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
  }

  setQuery(query: string): void {
    this.query = query;
    this.#schedule();
  }

  setExchange(exchange: Exchange | ''): void {
    this.exchange = exchange;
    this.#schedule();
  }

  /** ↑ / ↓ over the shown rows, wrapping; opens the list when it has rows. */
  move(delta: 1 | -1): void {
    const n = this.results.length;
    if (n === 0) return;
    this.open = true;
    this.active = this.active < 0 ? (delta > 0 ? 0 : n - 1) : (this.active + delta + n) % n;
  }

  /** The highlighted row (the first when none is), or undefined while there is nothing to pick. */
  pick(index = this.active): SymbolRecord | undefined {
    const row = this.results[index < 0 ? 0 : index];
    if (!row) return undefined;
    this.close();
    return row;
  }

  close(): void {
    this.open = false;
    this.active = -1;
  }

  /** Clears the field and forgets any answer still on its way. */
  reset(): void {
    clearTimeout(this.#timer);
    this.#seq++;
    this.query = '';
    this.results = [];
    this.found = 0;
    this.loading = false;
    this.message = undefined;
    this.close();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#seq++;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    const seq = ++this.#seq;
    if (this.query.trim() === '') {
      this.results = [];
      this.found = 0;
      this.loading = false;
      this.message = undefined;
      this.close();
      return;
    }
    this.loading = true;
    this.#timer = setTimeout(() => void this.#run(seq), this.#debounceMs);
  }

  async #run(seq: number): Promise<void> {
    const query = this.query.trim();
    const res = await this.#bridge.invoke(
      'market.search',
      this.exchange ? { query, exchange: this.exchange } : { query },
    );
    if (seq !== this.#seq) {
      this.staleDropped += 1;
      return;
    }
    this.loading = false;
    if (!res.ok) {
      this.results = [];
      this.found = 0;
      this.message = `Search failed: ${res.error.message}`;
      this.open = true;
      return;
    }
    // Each underlying's futures and options nearest expiry first, an exact symbol ahead of all.
    const all = rankByExpiry(res.value.data, { tier: exactFirst(query) });
    this.found = all.length;
    this.results = all.slice(0, SEARCH_SHOWN);
    this.message = all.length === 0 ? `No instrument matches “${query}”` : undefined;
    this.active = all.length > 0 ? 0 : -1;
    this.open = true;
  }
}
