// Who follows what on the paper feed: one topic per (instrument, mode), its subscribers, and the data
// last sent to them. A tick is built once per topic and sent to all its subscribers, and only when
// the simulator's book changed (a new subscriber also gets the current data at once).
import type { Clock } from '../../contract/clock.js';
import type { Instrument } from '../instruments/instrument.js';
import type { Market } from '../market/market.js';
import { marketDataMessage, tickData, type FeedMode } from './feed-payloads.js';

export interface Subscriber {
  /** Topic keys this subscriber holds. */
  subs: Set<string>;
}

export interface Topic<C extends Subscriber> {
  inst: Instrument;
  mode: FeedMode;
  conns: Set<C>;
  /** The data (without its timestamps) last sent to the subscribers. */
  last: string;
}

export const topicKey = (inst: { exchange: string; symbol: string }, mode: FeedMode): string =>
  `${inst.exchange}:${inst.symbol}:${mode}`;

export class FeedTopics<C extends Subscriber> {
  private readonly topics = new Map<string, Topic<C>>();

  constructor(
    private readonly market: Market,
    private readonly clock: Clock,
    private readonly send: (c: C, text: string) => void,
  ) {}

  /** Subscribes `c`; answers the topic when it is new to `c` (it is owed a first tick). */
  add(c: C, inst: Instrument, mode: FeedMode): Topic<C> | undefined {
    const key = topicKey(inst, mode);
    if (c.subs.has(key)) return undefined;
    let t = this.topics.get(key);
    if (!t) {
      t = { inst, mode, conns: new Set(), last: '' };
      this.topics.set(key, t);
    }
    t.conns.add(c);
    c.subs.add(key);
    return t;
  }

  /** Unsubscribes `c` from one topic; answers the topic it left, if it held it. */
  remove(c: C, key: string): Topic<C> | undefined {
    if (!c.subs.delete(key)) return undefined;
    const t = this.topics.get(key);
    t?.conns.delete(c);
    if (t && t.conns.size === 0) this.topics.delete(key);
    return t;
  }

  removeAll(c: C): Topic<C>[] {
    return [...c.subs].flatMap((key) => this.remove(c, key) ?? []);
  }

  /**
   * Sends a topic's current data to its subscribers if it changed since last sent; otherwise only to
   * `fresh` (a new subscriber's first tick), so every subscriber always holds the latest data.
   */
  sendTopic(t: Topic<C>, fresh?: C): void {
    const data = tickData(t.inst, t.mode, this.market.book(t.inst));
    const text = JSON.stringify(data);
    const changed = text !== t.last;
    if (!changed && !fresh) return;
    t.last = text;
    const message = marketDataMessage(t.inst, t.mode, data, this.clock.now());
    if (changed) for (const c of [...t.conns]) this.send(c, message);
    else if (fresh) this.send(fresh, message);
  }

  /** How many topics have a subscriber: with none, the feed's tick has nothing to do. */
  get size(): number {
    return this.topics.size;
  }

  /** Every topic whose book changed goes out to its subscribers. */
  publish(): void {
    for (const t of this.topics.values()) this.sendTopic(t);
  }
}
