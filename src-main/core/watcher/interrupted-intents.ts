// Journal entries left "pending" (an intent, no outcome) because OrderDesk stopped between sending and
// recording the answer. A starting core gives each of today's, old enough that no other process can
// still be waiting on it, the outcome "unknown" (kind `interrupted`) and the check the watcher settles
// it by, so from then on it is an unknown outcome like any other (a GTT action's check is the GTT
// settler's, read from the GTT order book). Nothing is ever resent.
import {
  BasketOrderIpcInput,
  CancelOrderIpcInput,
  ModifyOrderIpcInput,
  PlaceOrderIpcInput,
  SplitOrderIpcInput,
  StrategyInput,
  errorMessage,
  type JournalEntry,
} from '../../contract/index.js';
import { describeGttCheck, gttCheckOfRequest } from '../gtt/gtt-interrupted.js';
import type { GttCheck } from '../gtt/gtt-reconcile.js';
import type { Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import { splitPreview } from '../previews/index.js';
import { istDayStart, toCheck } from './durable-unknowns.js';
import { CLOCK_SKEW_MS, describeIntent } from './interrupted-match.js';
import type { PlacedOrder, UnknownIntent } from './reconciler.js';

/** The journal error kind of an outcome written by a restarted core for an interrupted call. */
export const INTERRUPTED_KIND = 'interrupted';

/**
 * Younger pending entries may be another process's call still under way (the CLI runs a core per
 * order): the client's mutation timeout is 15 s.
 */
export const INTERRUPTED_MIN_AGE_MS = 20_000;

const STOPPED = "OrderDesk stopped before the gateway's answer was recorded";

export interface Interrupted {
  entry: JournalEntry;
  /** Undefined: nothing in its request says what to look for (a smart order, a cancel-all). */
  intent?: UnknownIntent;
  /** A GTT action: what the GTT order book is checked for (by the GTT settler). */
  gtt?: GttCheck;
  /** For the trader: what was sent, and that the book is being checked (or must be). */
  message: string;
}

function placed(o: PlacedOrder): PlacedOrder {
  const { symbol, exchange, action, quantity, pricetype, product, price } = o;
  return { symbol, exchange, action, quantity, pricetype, product, price };
}

/** What the order book will show of a journalled request, as the order handlers would have tracked it. */
export function intentOfRequest(operation: string, request: unknown): UnknownIntent | undefined {
  switch (operation) {
    case 'placeorder': {
      const r = PlaceOrderIpcInput.safeParse(request);
      return r.success ? { operation, order: placed(r.data) } : undefined;
    }
    case 'splitorder': {
      const r = SplitOrderIpcInput.safeParse(request);
      const plan = r.success ? splitPreview(r.data) : undefined;
      return r.success && plan?.ok
        ? { operation, strategy: r.data.strategy ?? '', orders: plan.value.children.map(placed) }
        : undefined;
    }
    case 'basketorder': {
      const r = BasketOrderIpcInput.safeParse(request);
      return r.success
        ? { operation, strategy: r.data.strategy ?? '', orders: r.data.orders.map(placed) }
        : undefined;
    }
    case 'closeposition': {
      const r = StrategyInput.safeParse(request);
      return r.success && r.data?.strategy !== undefined
        ? { operation, strategy: r.data.strategy }
        : undefined;
    }
    case 'modifyorder': {
      const r = ModifyOrderIpcInput.safeParse(request);
      return r.success
        ? {
            operation,
            orderid: r.data.orderid,
            changes: {
              quantity: r.data.quantity,
              price: r.data.price,
              trigger_price: r.data.trigger_price ?? 0,
            },
          }
        : undefined;
    }
    case 'cancelorder': {
      const r = CancelOrderIpcInput.safeParse(request);
      return r.success ? { operation, orderid: r.data.orderid } : undefined;
    }
    default:
      return undefined;
  }
}

/** The strategy tag a journalled request was sent with ('' when it names none). */
export function strategyOf(request: unknown): string {
  const s = (request as { strategy?: unknown } | null)?.strategy;
  return typeof s === 'string' ? s : '';
}

/** Order ids today's other journal entries of the profile hold (answered, resolved or named). */
export function claimedOrderIds(
  journal: Pick<Journal, 'pages'>,
  profileId: string,
  from: number,
  except: string,
): Set<string> {
  const ids = new Set<string>();
  for (const page of journal.pages({ profileId, from }))
    for (const e of page) if (e.id !== except) for (const id of e.orderIds) ids.add(id);
  return ids;
}

/**
 * Today's pending entries of the profile older than `minAgeMs`: each gets its outcome (unknown,
 * `interrupted`) and, when its request says what to look for, its check; returned to be announced.
 * An entry another process answered meanwhile is left to that answer.
 */
export function adoptInterrupted(
  journal: Pick<Journal, 'query' | 'recordOutcome' | 'recordCheck'>,
  profileId: string,
  now: number,
  logger: Logger,
  minAgeMs = INTERRUPTED_MIN_AGE_MS,
  /** Only entries written before this (a running core's start: none of them is its own call). */
  before = Infinity,
): Interrupted[] {
  const stale = journal.query({
    profileId,
    outcome: 'pending',
    from: istDayStart(now),
    to: Math.min(before, Math.max(istDayStart(now), now - minAgeMs)),
    order: 'asc',
    limit: 10_000,
  });
  return stale.flatMap((entry) => adoptEntry(journal, entry, logger) ?? []);
}

/**
 * One pending entry made an unknown outcome (`interrupted`) with the check that settles it; undefined
 * (logged) when the journal would not take it (another process answered it meanwhile).
 */
export function adoptEntry(
  journal: Pick<Journal, 'recordOutcome' | 'recordCheck'>,
  entry: JournalEntry,
  logger: Logger,
): Interrupted | undefined {
  const intent = intentOfRequest(entry.operation, entry.request);
  const gtt = gttCheckOfRequest(entry, entry.time - CLOCK_SKEW_MS);
  const what = intent ? describeIntent(intent) : gtt ? describeGttCheck(gtt) : entry.operation;
  const message = `${STOPPED}: ${what}`;
  try {
    journal.recordOutcome(entry.id, { outcome: 'unknown', error: { kind: INTERRUPTED_KIND, message } });
    if (intent)
      journal.recordCheck(entry.id, {
        ...toCheck(intent, new Set()),
        interrupted: { from: entry.time - CLOCK_SKEW_MS, strategy: strategyOf(entry.request) },
      });
    else if (gtt) journal.recordCheck(entry.id, gtt);
  } catch (err) {
    logger.warn('an interrupted journal entry was not adopted', {
      journalId: entry.id,
      error: errorMessage(err),
    });
    return undefined;
  }
  return { entry, ...(intent ? { intent } : {}), ...(gtt ? { gtt } : {}), message };
}

/**
 * When the first of today's pending entries written before `before` and still too young to adopt
 * becomes old enough (epoch ms); undefined when none waits. A core restarted within seconds of a
 * crash adopts them then, rather than at its next start.
 */
export function nextAdoptionAt(
  journal: Pick<Journal, 'query'>,
  profileId: string,
  now: number,
  before: number,
  minAgeMs = INTERRUPTED_MIN_AGE_MS,
): number | undefined {
  const [first] = journal.query({
    profileId,
    outcome: 'pending',
    from: Math.max(istDayStart(now), now - minAgeMs),
    to: before,
    order: 'asc',
    limit: 1,
  });
  // adoptInterrupted's bound is exclusive: one ms past the age.
  return first ? first.time + minAgeMs + 1 : undefined;
}
