// Sandbox-style order ids: 14 digits, `YYMMDD` (IST) + a 7-digit per-day counter + 1 random digit
// (gateway-behaviour §11.2 step 9 uses micros + random; a counter is unique by construction and
// sorts in placement order). The counter resumes from the ledger's largest id of the day.
import { randomInt } from 'node:crypto';
import { istIdParts } from './ist-time.js';
import type { Ledger } from './ledger.js';

export class OrderIds {
  private prefix = '';
  private counter = 0;

  constructor(private readonly maxIdWithPrefix: (from: string, to: string) => string | undefined) {}

  next(nowMs: number): string {
    const { ymd } = istIdParts(nowMs);
    if (ymd !== this.prefix) {
      this.prefix = ymd;
      const last = this.maxIdWithPrefix(ymd, String(Number(ymd) + 1).padStart(6, '0'));
      this.counter = last ? Number(last.slice(6, 13)) : 0;
    }
    this.counter += 1;
    if (this.counter > 9_999_999) throw new Error('Order id space of the day exhausted');
    return `${ymd}${String(this.counter).padStart(7, '0')}${randomInt(10)}`;
  }

  /** Forces a re-read of the ledger (after a rollback or reset). */
  resync(): void {
    this.prefix = '';
  }
}

/** Sandbox-style trade id: `TRADE-YYYYMMDD-HHMMSS-<8 hex>` with a global sequence as the hex part. */
export function tradeId(nowMs: number, seq: number): string {
  const { ymd8, hms } = istIdParts(nowMs);
  return `TRADE-${ymd8}-${hms}-${seq.toString(16).padStart(8, '0')}`;
}

/**
 * The largest id of a day prefix the ledger has seen: in its orders, or remembered before a reset
 * emptied them (meta last_orderid), so ids stay unique across resets.
 */
export function idFloor(ledger: Ledger): (from: string, to: string) => string | undefined {
  return (from, to) => {
    const fromOrders = ledger.maxOrderId(from, to);
    const floor = ledger.meta('last_orderid');
    const fromMeta = floor !== undefined && floor >= from && floor < to ? floor : undefined;
    if (fromOrders === undefined) return fromMeta;
    return fromMeta !== undefined && fromMeta > fromOrders ? fromMeta : fromOrders;
  };
}
