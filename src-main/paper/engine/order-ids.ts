// Sandbox-style order ids: 14 digits, `YYMMDD` (IST) + a 7-digit per-day counter + 1 random digit
// (gateway-behaviour §11.2 step 9 uses micros + random; a counter is unique by construction and
// sorts in placement order). The counter resumes from the ledger's largest id of the day.
import { randomInt } from 'node:crypto';
import { istIdParts } from './ist-time.js';

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
