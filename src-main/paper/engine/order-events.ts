// Order transitions as events, told only once they are committed: the feed's `order_update` must
// never announce a fill that a rollback then undid. The ledger reports every order row it writes;
// rows wait here until their transaction (or the event-loop turn's group) commits, and are dropped
// with a rolled-back savepoint or group.
import type { PaperOrder } from './engine.js';
import type { OrderRow } from './ledger-rows.js';
import { toPaperOrder } from './read-views.js';

export type OrderListener = (order: PaperOrder) => void;

export class OrderEvents {
  private readonly listeners = new Set<OrderListener>();
  private pending: OrderRow[] = [];

  /** Adds a listener; returns the function that removes it. */
  on(listener: OrderListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A row written in the open transaction (a copy: the ledger's caches hand out shared rows). */
  record(row: Omit<OrderRow, 'seq'>): void {
    // Without listeners nothing is kept: the order path pays nothing when no feed listens.
    if (this.listeners.size > 0) this.pending.push({ seq: 0, ...row });
  }

  /** Where the pending list stands now, to cut back to if this transaction rolls back. */
  mark(): number {
    return this.pending.length;
  }

  /** A savepoint rolled back: what it wrote was never committed. */
  truncate(mark: number): void {
    if (mark < this.pending.length) this.pending.length = mark;
  }

  /** A whole group rolled back. */
  clear(): void {
    this.pending = [];
  }

  /** Committed: tell every listener, in write order. A listener's throw never reaches the engine. */
  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    for (const row of rows) {
      const order = toPaperOrder(row);
      for (const listener of this.listeners) {
        try {
          listener(order);
        } catch (err) {
          console.error('paper engine: order listener failed', err);
        }
      }
    }
  }
}
