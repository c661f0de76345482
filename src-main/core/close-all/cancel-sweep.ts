// Cancels working orders one by one from the order book as the gateway states it now, and reads it
// again until none is left. One `cancelorder` per order, never the gateway's cancel-all: upstream's
// `cancelallorder` leaves `trigger pending` SL orders working on the real gateway.
//
// A cancel answered "done" is not sent again (a slow gateway may still list it as working for a
// moment: it is waited for); one whose outcome is unknown is never resent either (architecture rule
// 4: the order book settles it); one refused is tried once more, since a refusal changed nothing.
import type { IpcResult } from '../../contract/index.js';
import type { Read, WorkingOrder } from './fresh-books.js';

export interface SweepDeps {
  /** The working orders to cancel, read from the gateway now. */
  read(): Promise<Read<WorkingOrder[]>>;
  /** One journalled `cancelorder`. */
  cancel(order: WorkingOrder): Promise<IpcResult<unknown>>;
  /** Waits between reads while cancels already sent settle. */
  sleep(ms: number): Promise<void>;
  /** Reads of the book at most (default 8), and the wait between reads that send nothing (default 300 ms). */
  reads?: number;
  waitMs?: number;
  /** Told after each cancel answer (progress). */
  onCancel?(order: WorkingOrder, result: IpcResult<unknown>): void;
}

export interface SweepResult {
  /** None of the orders is working any more, by the last read. */
  clear: boolean;
  cancelled: string[];
  /** Orders still working at the last read, each with why (the gateway's refusal, or still settling). */
  left: { orderid: string; symbol: string; message: string }[];
  /** The last read failed: nothing is known of what is left. */
  readError?: string;
  /** How many working orders the first read found. */
  found: number;
}

const MAX_TRIES = 2;

export async function cancelSweep(d: SweepDeps): Promise<SweepResult> {
  const reads = d.reads ?? 8;
  const waitMs = d.waitMs ?? 300;
  const cancelled: string[] = [];
  /** Per order: `sent` (done or unknown, not resent) or the refusals so far. */
  const tries = new Map<string, { sent: boolean; refusals: number; message: string }>();
  let found: number | undefined;
  let lastWorking: WorkingOrder[] = [];
  let readError: string | undefined;

  for (let i = 0; i < reads; i++) {
    const read = await d.read();
    if (!read.ok) {
      readError = read.message;
      await d.sleep(waitMs);
      continue;
    }
    readError = undefined;
    const working = read.value;
    found ??= working.length;
    lastWorking = working;
    if (working.length === 0) return { clear: true, cancelled, left: [], found };
    // The last read only reports: a cancel sent now would go unverified.
    if (i === reads - 1) break;
    const sendable = working.filter((o) => {
      const t = tries.get(o.orderid);
      return !t || (!t.sent && t.refusals < MAX_TRIES);
    });
    for (const o of sendable) {
      const r = await d.cancel(o);
      d.onCancel?.(o, r);
      const t = tries.get(o.orderid) ?? { sent: false, refusals: 0, message: '' };
      if (r.ok) {
        t.sent = true;
        t.message = 'cancel accepted, still listed as working';
        if (!cancelled.includes(o.orderid)) cancelled.push(o.orderid);
      } else if (r.error.kind === 'unknown_outcome') {
        t.sent = true;
        t.message = `cancel sent, outcome unknown (reconciling from the order book): ${r.error.message}`;
      } else {
        t.refusals += 1;
        t.message = r.error.message;
      }
      tries.set(o.orderid, t);
    }
    // Nothing left to send and nothing sent that could still settle: reading again changes nothing.
    const waiting = working.some((o) => tries.get(o.orderid)?.sent);
    if (sendable.length === 0 && !waiting) break;
    if (sendable.length === 0) await d.sleep(waitMs);
  }
  return {
    clear: false,
    cancelled,
    left: lastWorking.map((o) => ({
      orderid: o.orderid,
      symbol: o.symbol,
      message: tries.get(o.orderid)?.message ?? 'not cancelled',
    })),
    ...(readError ? { readError } : {}),
    found: found ?? 0,
  };
}
