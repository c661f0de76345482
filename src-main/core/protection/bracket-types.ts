// The keeper's words with the rest of the core: the entry a bracket protects, the orders it sends,
// how a send came out, and the hazards it tells.
import type { ProtectionSpec } from '../../contract/index.js';
import type { EntryAction } from './levels.js';
import type { LegName } from './oco.js';

export interface BracketEntry {
  /** The entry order's id at the gateway. */
  orderid: string;
  symbol: string;
  exchange: string;
  product: string;
  action: EntryAction;
  tick: number;
  /** The exchange's freeze quantity, when known: no leg order above it. */
  freeze?: number;
  /** Where the OCO is held (core when absent). */
  kind?: 'core' | 'gtt';
  spec: ProtectionSpec;
}

/** One order to send: a stop rests as SL-M at its trigger, a target as LIMIT; a flatten is MARKET. */
export interface ProtectiveOrder {
  symbol: string;
  exchange: string;
  product: string;
  action: EntryAction;
  quantity: number;
  pricetype: 'SL-M' | 'LIMIT' | 'MARKET';
  price: number;
  trigger_price: number;
}

export type SendResult =
  | { ok: true; orderid: string }
  | { ok: false; outcome: 'refused'; message: string }
  /** Sent, no answer: the gateway may have acted. */
  | { ok: false; outcome: 'unknown'; message: string }
  /** It did not act (not sent, rate-limited, no key): the next book plans it again. */
  | { ok: false; outcome: 'not_sent'; message: string };

export interface ProtectivePorts {
  place(o: ProtectiveOrder): Promise<SendResult>;
  modify(o: ProtectiveOrder & { orderid: string }): Promise<SendResult>;
  cancel(orderid: string): Promise<SendResult>;
  /**
   * Runs before each send, once the order is marked in flight: the brackets are saved, so a restart
   * knows a send may have gone. A failure stops the send (it counts as not sent).
   */
  beforeSend?(): Promise<void>;
}

export type BracketHazard =
  | { kind: 'overshoot'; entry: string; excess: number }
  | { kind: 'unprotected'; entry: string; leg: LegName; quantity: number; reason: string }
  | { kind: 'levels'; entry: string; message: string };

/** What a trader's action on a bracket came to. */
export type BracketDone = { ok: true; note?: string } | { ok: false; message: string };
