// Orders the journal says were sent lately: what a new session's duplicate guard counts as sent. An
// earlier run of the app, and the CLI (which starts a core for every order), leave no memory behind
// but the journal.
import {
  BasketOrderIpcInput,
  PlaceOrderIpcInput,
  SplitOrderIpcInput,
  type JournalEntry,
} from '../../contract/index.js';
import type { Journal } from '../journal/index.js';
import { riskLeg, type RiskLeg } from './risk-gate.js';

export interface SentOrder {
  /** When its intent was journalled (epoch ms). */
  time: number;
  legs: RiskLeg[];
}

/** Refusals made before sending: the guard admitted nothing (or a hold refused it). */
const REFUSED_BEFORE_SENDING = new Set(['risk', 'duplicate', 'unresolved_duplicate']);

/** The legs the duplicate guard admitted for one journal entry, as the order handlers judge them. */
export function admittedLegs(e: JournalEntry): RiskLeg[] {
  if (e.error && REFUSED_BEFORE_SENDING.has(e.error.kind)) return [];
  switch (e.operation) {
    case 'placeorder': {
      const r = PlaceOrderIpcInput.safeParse(e.request);
      return r.success ? [riskLeg(r.data)] : [];
    }
    case 'splitorder': {
      // The guard judges a split as the one order the user asked for.
      const r = SplitOrderIpcInput.safeParse(e.request);
      return r.success ? [riskLeg(r.data)] : [];
    }
    case 'basketorder': {
      const r = BasketOrderIpcInput.safeParse(e.request);
      return r.success ? r.data.orders.map(riskLeg) : [];
    }
    // A smart order's leg depends on the position it met, which the journal does not hold.
    default:
      return [];
  }
}

/** The profile's orders journalled from `from` (epoch ms) on, oldest first. */
export function recentOrders(journal: Pick<Journal, 'query'>, profileId: string, from: number): SentOrder[] {
  return journal
    .query({ profileId, from: Math.max(0, Math.floor(from)), order: 'asc', limit: 10_000 })
    .flatMap((e) => {
      const legs = admittedLegs(e);
      return legs.length > 0 ? [{ time: e.time, legs }] : [];
    });
}
