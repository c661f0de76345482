// Who watches what: subscriptions by id, reference-counted per (instrument, mode), and the one
// focused depth instrument. Pure bookkeeping: no requests, no timers.
import type { MarketMode } from '../../contract/index.js';
import { instrumentKey, uniqueInstruments, type Instrument } from './instruments.js';

export interface Subscription {
  id: string;
  mode: MarketMode;
  symbols: Instrument[];
  focus: boolean;
}

interface Counted {
  instrument: Instrument;
  refs: number;
}

export class Subscriptions {
  /** Insertion order is subscription age: the newest focused depth watch holds the focus. */
  private readonly byId = new Map<string, Subscription>();
  private readonly counts: Record<MarketMode, Map<string, Counted>> = {
    ltp: new Map(),
    quote: new Map(),
    depth: new Map(),
  };
  private next = 1;

  get size(): number {
    return this.byId.size;
  }

  add(mode: MarketMode, symbols: readonly Instrument[], focus: boolean): Subscription {
    const sub: Subscription = {
      id: `mw-${this.next++}`,
      mode,
      symbols: uniqueInstruments(symbols),
      focus: focus && mode === 'depth',
    };
    this.byId.set(sub.id, sub);
    for (const i of sub.symbols) {
      const key = instrumentKey(i);
      const c = this.counts[mode].get(key);
      if (c) c.refs++;
      else this.counts[mode].set(key, { instrument: i, refs: 1 });
    }
    return sub;
  }

  /** Removes the subscription; answers the instruments no longer followed in its mode. */
  remove(id: string): { subscription: Subscription; stopped: Instrument[] } | undefined {
    const sub = this.byId.get(id);
    if (!sub) return undefined;
    this.byId.delete(id);
    const stopped: Instrument[] = [];
    for (const i of sub.symbols) {
      const key = instrumentKey(i);
      const c = this.counts[sub.mode].get(key);
      if (!c) continue;
      c.refs--;
      if (c.refs <= 0) {
        this.counts[sub.mode].delete(key);
        stopped.push(i);
      }
    }
    return { subscription: sub, stopped };
  }

  /** Instruments followed in `mode`, in the order they were first watched. */
  following(mode: MarketMode): Instrument[] {
    return [...this.counts[mode].values()].map((c) => c.instrument);
  }

  refs(mode: MarketMode, i: Instrument): number {
    return this.counts[mode].get(instrumentKey(i))?.refs ?? 0;
  }

  /** The newest live focused depth watch's instrument: one focus at a time. */
  focused(): Instrument | undefined {
    let focus: Instrument | undefined;
    for (const sub of this.byId.values()) if (sub.focus) focus = sub.symbols[0];
    return focus;
  }

  /** The followed instrument of this `exchange:symbol` key, in any mode. */
  find(key: string): Instrument | undefined {
    for (const m of ['ltp', 'quote', 'depth'] as const) {
      const c = this.counts[m].get(key);
      if (c) return c.instrument;
    }
    return undefined;
  }

  /** Modes in which `i` is followed. */
  modesOf(i: Instrument): MarketMode[] {
    const key = instrumentKey(i);
    return (['ltp', 'quote', 'depth'] as const).filter((m) => this.counts[m].has(key));
  }
}
