// One market subscription that can be pointed elsewhere (the watchlist's tab, the ticket's instrument,
// the focused depth): the new watch is taken before the old one is dropped, so ticks never pause, and
// an answer that arrives after a later retarget is unwatched at once instead of leaking.
import type { BridgeApi, MarketWatchInput } from '../../../src-main/contract/index.js';

export class WatchSlot {
  /** Why the last watch was refused (shown next to what it was for). */
  error = $state<string | undefined>();
  /** Instruments the gateway did not know (`market.watch`'s rejected), as `EXCHANGE:SYMBOL`. */
  rejected = $state.raw<string[]>([]);

  readonly #bridge: BridgeApi;
  #id: string | undefined;
  #target: string | undefined;
  #seq = 0;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** The subscription's id while one is held (tests and diagnostics). */
  get id(): string | undefined {
    return this.#id;
  }

  /** Points the slot at `input` (undefined: nothing); the same target again is a no-op by design. */
  async set(input: MarketWatchInput | undefined): Promise<void> {
    const target = input ? JSON.stringify(input) : undefined;
    if (target === this.#target) return;
    this.#target = target;
    const seq = ++this.#seq;
    const old = this.#id;
    this.#id = undefined;
    if (input) {
      const res = await this.#bridge.invoke('market.watch', input);
      if (!res.ok) {
        if (seq === this.#seq) {
          this.error = res.error.message;
          this.rejected = [];
          // Asking for the same target again retries.
          this.#target = undefined;
        }
      } else if (seq !== this.#seq) {
        // A later set() won: this answer's subscription is nobody's.
        void this.#unwatch(res.value.id);
      } else {
        this.#id = res.value.id;
        this.error = undefined;
        this.rejected = res.value.rejected.map((r) => `${r.exchange}:${r.symbol}`);
      }
    } else if (seq === this.#seq) {
      this.error = undefined;
      this.rejected = [];
    }
    if (old) await this.#unwatch(old);
  }

  async #unwatch(id: string): Promise<void> {
    const res = await this.#bridge.invoke('market.unwatch', { id });
    // An unknown id (the host restarted) is already gone; anything else is worth saying.
    if (!res.ok && res.error.kind !== 'not_found')
      this.error = `Could not stop a watch: ${res.error.message}`;
  }
}
