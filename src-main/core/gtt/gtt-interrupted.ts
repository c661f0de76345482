// GTT actions OrderDesk stopped during (an intent journalled, no answer recorded): what the GTT order
// book will show of each, read back from its journalled request, so a starting core can settle it from
// the book like any GTT action of unknown outcome. Nothing is ever resent.
import { z } from 'zod';
import {
  CancelGttOrderRequest,
  ModifyGttOrderRequest,
  PlaceGttOrderRequest,
  type JournalEntry,
} from '../../contract/index.js';
import type { Journal } from '../journal/index.js';
import { describeGttWant, gttWantOf, type GttCheck, type GttWant } from './gtt-reconcile.js';

export const GTT_OPERATIONS: ReadonlySet<string> = new Set([
  'placegttorder',
  'modifygttorder',
  'cancelgttorder',
]);

/** Stands in for the key, which the journal never holds, while a request is read with the gateway's schema. */
const PLACEHOLDER_KEY = 'placeholder-key';

function parsed<S extends z.ZodType>(schema: S, request: unknown): z.output<S> | undefined {
  if (request === null || typeof request !== 'object') return undefined;
  const r = schema.safeParse({ ...request, apikey: PLACEHOLDER_KEY });
  return r.success ? r.data : undefined;
}

/** What a journalled placegttorder asks for; undefined when it is not one (or cannot be read). */
export function gttPlaceWant(entry: Pick<JournalEntry, 'operation' | 'request'>): GttWant | undefined {
  if (entry.operation !== 'placegttorder') return undefined;
  const r = parsed(PlaceGttOrderRequest, entry.request);
  return r ? gttWantOf(r) : undefined;
}

/**
 * The check that settles an interrupted GTT action from the book: a place by a GTT created from
 * `from` on (epoch ms: the intent's time less the skew allowance), a modify and a cancel by the GTT
 * they name. Undefined when the entry is no GTT action or its request cannot be read.
 */
export function gttCheckOfRequest(
  entry: Pick<JournalEntry, 'operation' | 'request'>,
  from: number,
): GttCheck | undefined {
  switch (entry.operation) {
    case 'placegttorder': {
      const want = gttPlaceWant(entry);
      return want ? { operation: 'placegttorder', want, known: [], interrupted: { from } } : undefined;
    }
    case 'modifygttorder': {
      const r = parsed(ModifyGttOrderRequest, entry.request);
      return r ? { operation: 'modifygttorder', triggerId: r.trigger_id, want: gttWantOf(r) } : undefined;
    }
    case 'cancelgttorder': {
      const r = parsed(CancelGttOrderRequest, entry.request);
      return r ? { operation: 'cancelgttorder', triggerId: r.trigger_id } : undefined;
    }
    default:
      return undefined;
  }
}

/** A GTT action in a trader's words, for alerts: `placegttorder SINGLE BUY 3 SBIN NSE, trigger …`. */
export function describeGttCheck(c: GttCheck): string {
  switch (c.operation) {
    case 'placegttorder':
      return `placegttorder ${describeGttWant(c.want)}`;
    case 'modifygttorder':
      return `modifygttorder of GTT ${c.triggerId} (${describeGttWant(c.want)})`;
    case 'cancelgttorder':
      return `cancelgttorder of GTT ${c.triggerId}`;
  }
}

const TriggerId = z.object({ trigger_id: z.union([z.string(), z.number()]) });

/**
 * GTTs today's other journal entries of the profile hold: a GTT place's answer, and any GTT a
 * resolution named. An interrupted place is never settled as one of them.
 */
export function claimedGttIds(
  journal: Pick<Journal, 'pages'>,
  profileId: string,
  from: number,
  except: string,
): Set<string> {
  const ids = new Set<string>();
  for (const page of journal.pages({ profileId, from, operation: 'placegttorder' }))
    for (const e of page) {
      if (e.id === except) continue;
      const answer = TriggerId.safeParse(e.response);
      if (answer.success) ids.add(String(answer.data.trigger_id));
      // A resolution's GTT (found in the book after an unknown answer).
      for (const id of e.orderIds) ids.add(id);
    }
  return ids;
}
