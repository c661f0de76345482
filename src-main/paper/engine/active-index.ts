// The engine's in-memory view of its open and trigger-pending orders, indexed so lazy matching costs
// O(orders that can act now) rather than O(all resting orders): open MARKET/SL-M orders walk the
// book on every pass; resting limits and pending stops sit in per-instrument heaps ordered by the
// price at which they become actionable, so a pass only pops those the last price has reached.
import type { OrderRow } from './ledger-rows.js';

interface Entry {
  order: OrderRow;
  /** Price (units) the heap is ordered by, and the order's token when it was pushed. */
  price: number;
  token: number;
}

/** Binary heap; `before(a, b)` true when a must come out first. Stale entries are dropped lazily. */
class Heap {
  readonly items: Entry[] = [];
  constructor(private readonly before: (a: Entry, b: Entry) => boolean) {}

  push(e: Entry): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  peek(): Entry | undefined {
    return this.items[0];
  }

  pop(): Entry | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.before(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

// Ties go to the older order (lower seq): placement order.
const lowFirst = (a: Entry, b: Entry): boolean =>
  a.price < b.price || (a.price === b.price && a.order.seq < b.order.seq);
const highFirst = (a: Entry, b: Entry): boolean =>
  a.price > b.price || (a.price === b.price && a.order.seq < b.order.seq);

/** The resting orders of one instrument. */
export class InstrumentQueue {
  /** BUY limits fill once ltp <= limit: highest limit first. */
  readonly buyLimits = new Heap(highFirst);
  /** SELL limits fill once ltp >= limit: lowest first. */
  readonly sellLimits = new Heap(lowFirst);
  /** BUY stops trigger once ltp >= trigger: lowest first. */
  readonly buyStops = new Heap(lowFirst);
  /** SELL stops trigger once ltp <= trigger: highest first. */
  readonly sellStops = new Heap(highFirst);
  constructor(
    readonly exchange: string,
    readonly symbol: string,
  ) {}
}

/** Key of the working orders that act on one position from one side. */
export function sideKey(o: Pick<OrderRow, 'account' | 'exchange' | 'symbol' | 'product' | 'action'>): string {
  return `${o.account}\u0000${o.exchange}\u0000${o.symbol}\u0000${o.product}\u0000${o.action}`;
}

export class ActiveIndex {
  /** Every active order by id, in placement order. */
  readonly byId = new Map<string, OrderRow>();
  /** Open MARKET/SL-M orders (partly filled for want of liquidity): walked on every pass. */
  readonly walkers = new Map<string, OrderRow>();
  readonly queues = new Map<string, InstrumentQueue>();
  /** Current heap token of each indexed order; an entry with another token is stale. */
  private readonly tokens = new Map<string, number>();
  private nextToken = 1;
  private stale = 0;
  private entries = 0;
  /**
   * Σ claimed quantity of the working orders per sideKey, kept as orders are filed, so the funds
   * check of a placement learns in O(1) how much of a position other orders already reduce.
   */
  private readonly claims = new Map<string, number>();
  /** What each order added to `claims` when last filed. */
  private readonly counted = new Map<string, { key: string; claimed: number }>();

  get size(): number {
    return this.byId.size;
  }

  /** Σ quantity the working orders on this side of a position claim to reduce it by. */
  claimedQuantity(key: string): number {
    return this.claims.get(key) ?? 0;
  }

  private count(o: OrderRow): void {
    this.uncount(o.orderid);
    if (o.claimed === 0) return;
    const key = sideKey(o);
    this.counted.set(o.orderid, { key, claimed: o.claimed });
    this.claims.set(key, (this.claims.get(key) ?? 0) + o.claimed);
  }

  private uncount(orderid: string): void {
    const c = this.counted.get(orderid);
    if (!c) return;
    this.counted.delete(orderid);
    const left = (this.claims.get(c.key) ?? 0) - c.claimed;
    if (left === 0) this.claims.delete(c.key);
    else this.claims.set(c.key, left);
  }

  /** Adds or re-files an order after any change of status, price or trigger. Drops it once inactive. */
  put(o: OrderRow): void {
    if (o.status !== 'open' && o.status !== 'trigger pending') {
      this.delete(o.orderid);
      return;
    }
    this.byId.set(o.orderid, o);
    this.count(o);
    if (this.tokens.delete(o.orderid)) this.stale += 1;
    this.walkers.delete(o.orderid);
    if (o.status === 'open' && (o.pricetype === 'MARKET' || o.pricetype === 'SL-M')) {
      this.walkers.set(o.orderid, o);
      return;
    }
    const key = `${o.exchange}:${o.symbol}`;
    let q = this.queues.get(key);
    if (!q) {
      q = new InstrumentQueue(o.exchange, o.symbol);
      this.queues.set(key, q);
    }
    const token = this.nextToken++;
    this.tokens.set(o.orderid, token);
    this.entries += 1;
    const buy = o.action === 'BUY';
    if (o.status === 'open') (buy ? q.buyLimits : q.sellLimits).push({ order: o, price: o.price, token });
    else (buy ? q.buyStops : q.sellStops).push({ order: o, price: o.trigger_price, token });
  }

  delete(orderid: string): void {
    this.byId.delete(orderid);
    this.uncount(orderid);
    this.walkers.delete(orderid);
    if (this.tokens.delete(orderid)) this.stale += 1;
    this.maybeCompact();
  }

  /**
   * The orders that can act now, in placement order: open MARKET/SL-M orders, and the limits and
   * stops each instrument's last price (`ltp`, units; 0 when unknown) has reached, taken out of the
   * heaps (the caller files them again with put()). Instruments with nothing resting are dropped.
   */
  due(ltp: (exchange: string, symbol: string) => number): OrderRow[] {
    const out: OrderRow[] = [...this.walkers.values()];
    for (const [key, q] of this.queues) {
      const resting =
        q.buyLimits.items.length +
        q.sellLimits.items.length +
        q.buyStops.items.length +
        q.sellStops.items.length;
      if (resting === 0) {
        this.queues.delete(key);
        continue;
      }
      const price = ltp(q.exchange, q.symbol);
      if (price > 0) this.takeActionable(q, price, out);
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Takes out of the heaps every order of `q` that the last price `ltp` makes actionable (a limit it
   * reached, a stop it triggered) and appends it to `out`. The caller files them again with put().
   */
  takeActionable(q: InstrumentQueue, ltp: number, out: OrderRow[]): void {
    this.drain(q.buyLimits, (p) => ltp <= p, out);
    this.drain(q.sellLimits, (p) => ltp >= p, out);
    this.drain(q.buyStops, (p) => ltp >= p, out);
    this.drain(q.sellStops, (p) => ltp <= p, out);
  }

  private drain(h: Heap, reached: (price: number) => boolean, out: OrderRow[]): void {
    for (let e = h.peek(); e; e = h.peek()) {
      const live = this.tokens.get(e.order.orderid) === e.token;
      if (live && !reached(e.price)) return;
      h.pop();
      this.entries -= 1;
      if (live) {
        this.tokens.delete(e.order.orderid);
        out.push(e.order);
      } else {
        this.stale -= 1;
      }
    }
  }

  /** Rebuilds the heaps when cancelled/modified orders have left more stale entries than live ones. */
  private maybeCompact(): void {
    if (this.stale < 1024 || this.stale < this.entries - this.stale) return;
    const live = [...this.byId.values()];
    this.clear();
    for (const o of live) this.put(o);
  }

  clear(): void {
    this.byId.clear();
    this.claims.clear();
    this.counted.clear();
    this.walkers.clear();
    this.queues.clear();
    this.tokens.clear();
    this.stale = 0;
    this.entries = 0;
  }
}
