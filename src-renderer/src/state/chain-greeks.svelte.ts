// The option chain's IV and greeks: read once the chain's quotes are in (market.optionGreeks, a
// separate batch after them), again when the shown contracts change or the chain is read again, never
// per tick. A failed read leaves the cells at a dash and says so once, in the pane, not as a toast.
import type { BridgeApi, Exchange, LegGreeks } from '@contract';
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { chainKey, windowContracts, type ChainStrike } from '../lib/option-chain';
import { greeksByKey } from '../lib/option-chain-greeks';

/** What the greeks follow: whether the chain is being read, its quotes, the strikes it shows. */
export interface GreeksSource {
  quoting: boolean;
  picker: { loading: boolean };
  quotes: { readonly size: number };
  window: readonly ChainStrike[];
}

export class ChainGreeksState {
  /** Greeks per `EXCHANGE:SYMBOL` of the last read. */
  readonly byKey = new SvelteMap<string, LegGreeks>();
  /** Why the last read gave nothing (the cells show dashes meanwhile). */
  error = $state<string | undefined>();
  /** Reads made (for tests and diagnostics). */
  reads = $state(0);

  readonly #bridge: BridgeApi;
  readonly #chain: GreeksSource | undefined;
  #seq = 0;
  /**
   * The shown contracts once the chain's quotes are in, '' while it is being read (a load clears the
   * quotes first). A string, so a tick that rebuilds the window with the same contracts changes
   * nothing.
   */
  readonly #shown = $derived.by(() => {
    const c = this.#chain;
    if (!c || c.quoting || c.picker.loading || c.quotes.size === 0) return '';
    return windowContracts(c.window).map(chainKey).join(' ');
  });

  constructor(bridge: BridgeApi, chain?: GreeksSource) {
    this.#bridge = bridge;
    this.#chain = chain;
  }

  /** Call while a component sets up: reads after each read of the chain and when its contracts change. */
  follow(): void {
    $effect(() => {
      const chain = this.#chain;
      // The load reads and writes this state: only the shown contracts are what the effect follows.
      if (this.#shown && chain) untrack(() => void this.load(windowContracts(chain.window)));
    });
    $effect(() => () => this.cancel());
  }

  /** Reads the greeks of `contracts`; an answer to an earlier call is dropped. */
  async load(contracts: readonly { symbol: string; exchange: string }[]): Promise<void> {
    const seq = ++this.#seq;
    if (contracts.length === 0) {
      this.byKey.clear();
      return;
    }
    this.reads += 1;
    const res = await this.#bridge.invoke('market.optionGreeks', {
      symbols: contracts.map((c) => ({ symbol: c.symbol, exchange: c.exchange as Exchange })),
    });
    if (seq !== this.#seq) return;
    if (!res.ok) {
      this.byKey.clear();
      this.error = `Greeks unavailable: ${res.error.message}`;
      return;
    }
    this.error = undefined;
    const next = greeksByKey(res.value);
    for (const key of [...this.byKey.keys()]) if (!next.has(key)) this.byKey.delete(key);
    for (const [key, g] of next) this.byKey.set(key, g);
  }

  /** Drops an answer still on its way (the pane is closing or the chain changed underlying). */
  cancel(): void {
    this.#seq++;
  }
}
