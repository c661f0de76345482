// The named watchlists (tabs 1–5) as settings hold them: which tab is shown, add, remove and reorder,
// each change saved with settings.update. The screen changes at once; a refused save puts back what
// settings hold and says why.
import type { BridgeApi, Exchange, Watchlist, WatchlistItem } from '@contract';

/** `NSE:SBIN`: one instrument's key in lists, quotes and subscriptions. */
export const instrumentKey = (i: { symbol: string; exchange: string }): string => `${i.exchange}:${i.symbol}`;

/** Mirror the settings schema's limits (renderer code imports contract types only). */
export const MAX_ITEMS = 50;
export const MAX_NAME = 24;

export type ListChange = { ok: true } | { ok: false; message: string };

export class WatchlistsState {
  lists = $state.raw<Watchlist[]>([]);
  active = $state(0);
  loaded = $state(false);
  /** Why the lists could not be read or the last change could not be saved. */
  problem = $state<string | undefined>();

  readonly current: Watchlist | undefined = $derived(this.lists[this.active]);
  readonly items: readonly WatchlistItem[] = $derived(this.current?.items ?? []);

  readonly #bridge: BridgeApi;
  readonly #onShown: () => void;
  #saveSeq = 0;

  /** `onShown` runs whenever the shown list's items may have changed (to follow them). */
  constructor(bridge: BridgeApi, onShown: () => void = () => undefined) {
    this.#bridge = bridge;
    this.#onShown = onShown;
  }

  async load(): Promise<void> {
    const res = await this.#bridge.invoke('settings.get');
    if (!res.ok) {
      this.problem = `Watchlists could not be read: ${res.error.message}`;
      return;
    }
    this.lists = res.value.watchlists;
    this.active = Math.min(this.active, Math.max(0, this.lists.length - 1));
    this.loaded = true;
    this.problem = undefined;
    this.#onShown();
  }

  show(index: number): void {
    if (index < 0 || index >= this.lists.length || index === this.active) return;
    this.active = index;
    this.#onShown();
  }

  has(item: { symbol: string; exchange: string }): boolean {
    const key = instrumentKey(item);
    return this.items.some((i) => instrumentKey(i) === key);
  }

  /** Adds to the shown list (at the end); refused, with the reason, when it is there or full. */
  add(item: { symbol: string; exchange: string }): ListChange {
    const list = this.current;
    if (!list) return this.#refuse('The watchlists are not loaded yet');
    if (this.has(item)) return this.#refuse(`${item.symbol} (${item.exchange}) is already on this list`);
    if (list.items.length >= MAX_ITEMS)
      return this.#refuse(`A watchlist holds at most ${MAX_ITEMS} instruments: remove one first`);
    const entry: WatchlistItem = { symbol: item.symbol, exchange: item.exchange as Exchange };
    return this.#change({ ...list, items: [...list.items, entry] });
  }

  remove(key: string): ListChange {
    const list = this.current;
    if (!list) return this.#refuse('The watchlists are not loaded yet');
    const items = list.items.filter((i) => instrumentKey(i) !== key);
    if (items.length === list.items.length) return this.#refuse(`${key} is not on this list`);
    return this.#change({ ...list, items });
  }

  /** Moves an item one place up (-1) or down (+1); at either end nothing moves and it says so. */
  move(key: string, direction: -1 | 1): ListChange {
    const list = this.current;
    if (!list) return this.#refuse('The watchlists are not loaded yet');
    const from = list.items.findIndex((i) => instrumentKey(i) === key);
    const to = from + direction;
    if (from < 0) return this.#refuse(`${key} is not on this list`);
    if (to < 0 || to >= list.items.length)
      return { ok: false, message: direction < 0 ? 'Already first' : 'Already last' };
    const items = [...list.items];
    const [moved] = items.splice(from, 1);
    if (moved) items.splice(to, 0, moved);
    return this.#change({ ...list, items });
  }

  /** Why `text` cannot name list `index`, in words; undefined when it can. */
  nameProblem(index: number, text: string): string | undefined {
    const name = text.trim();
    if (name === '') return 'A watchlist needs a name';
    if (name.length > MAX_NAME) return `At most ${MAX_NAME} characters (this is ${name.length})`;
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f\u007f]/.test(name)) return 'A name cannot hold control characters';
    const other = this.lists.findIndex(
      (l, i) => i !== index && l.name.trim().toLowerCase() === name.toLowerCase(),
    );
    // Two tabs with one name could not be told apart.
    if (other >= 0)
      return `Another watchlist (tab ${other + 1}) is already called ${this.lists[other]?.name}`;
    return undefined;
  }

  /** Renames list `index` (saved in settings); refused with the reason when the name cannot be used. */
  rename(index: number, text: string): ListChange {
    const list = this.lists[index];
    if (!list) return this.#refuse('The watchlists are not loaded yet');
    const problem = this.nameProblem(index, text);
    if (problem) return { ok: false, message: problem };
    const name = text.trim();
    if (name === list.name) return { ok: false, message: 'The name is unchanged' };
    return this.#change({ ...list, name }, index);
  }

  #refuse(message: string): ListChange {
    this.problem = message;
    return { ok: false, message };
  }

  #change(next: Watchlist, at = this.active): ListChange {
    const lists = this.lists.map((l, i) => (i === at ? next : l));
    this.lists = lists;
    this.problem = undefined;
    this.#onShown();
    void this.#save(lists);
    return { ok: true };
  }

  async #save(lists: Watchlist[]): Promise<void> {
    const seq = ++this.#saveSeq;
    const res = await this.#bridge.invoke('settings.update', { watchlists: lists });
    if (res.ok || seq !== this.#saveSeq) return;
    // Only the newest save decides what is shown: settings are read back so screen and file agree.
    const why = res.error.message;
    await this.load();
    this.problem = `The watchlist change was not saved: ${why}`;
  }
}
