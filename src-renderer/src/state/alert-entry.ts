// One row of the desk's alert list (state/alert-log.svelte.ts) and how each source becomes one: a
// raised alert, an order action whose outcome is unknown (then settled), a refusal the desk listed.
import type { AlertEvent, BridgeApi, EventPayload, PendingUnknownView } from '@contract';
import { UNKNOWN_OPERATION_TITLES } from '@shared/operation-titles.js';
import type { RefusedOrder } from '../lib/refusal-tap';

/**
 * A refusal and the core's rejection of the same order (the gateway recorded the refused order as
 * rejected, with an id) are one event to the trader when they come this close together.
 */
export const REFUSAL_MERGE_MS = 5000;

type UnknownEvent = EventPayload<'orders.unknown'>;
export type ReconciledEvent = EventPayload<'orders.reconciled'>;
export type UnknownOperation = UnknownEvent['operation'];

/**
 * An alert's kind, plus `unknown` for an order action whose outcome is not known yet (or was settled)
 * and `refusal` for one the desk sent and the risk checks, the duplicate guard or the gateway refused.
 */
export type AlertEntryKind = AlertEvent['kind'] | 'unknown' | 'refusal';

export interface Resolution {
  /** True when the order book shows the action took effect. */
  found: boolean;
  message: string;
  time: number;
  orderids?: readonly string[];
}

export interface AlertEntry {
  /** The alert's own id, or `unknown:<journalId>` for an unknown outcome. */
  id: string;
  time: number;
  kind: AlertEntryKind;
  title: string;
  body: string;
  orderid?: string;
  /** A rejection not yet dismissed (the core keeps it until someone does). */
  sticky: boolean;
  /** Unknown outcomes only: the operation, and how the core settled it once it has. */
  operation?: UnknownOperation;
  resolution?: Resolution;
  /** A split's or basket's one entry: each child order's latest alert (state/alert-groups.ts). */
  children?: readonly AlertEntry[];
}

/** A refusal the desk listed, kept briefly so the core's rejection of the same order replaces it. */
export interface RecentRefusal {
  entryId: string;
  at: number;
  orderid?: string;
  order?: RefusedOrder;
}

/** An orders.rejected the core reported, kept briefly; `alertId` once its alert is listed. */
export interface RecentRejection {
  orderid: string;
  order: RefusedOrder;
  at: number;
  alertId?: string;
}

const OPERATION_TEXT: Readonly<Record<UnknownOperation, string>> = UNKNOWN_OPERATION_TITLES;

export function operationText(op: UnknownOperation): string {
  return OPERATION_TEXT[op];
}

/** The title an unknown outcome shows while it is reconciling and after it is settled. */
export function unknownTitle(op: UnknownOperation, resolution?: Resolution): string {
  const what = OPERATION_TEXT[op];
  if (!resolution) return `${what}: outcome unknown, reconciling`;
  return resolution.found ? `${what}: took effect` : `${what}: did not take effect`;
}

/** A refusal and a rejection of the same order: by order id when the refusal has one, else its legs. */
export function samePair(r: RecentRefusal, j: RecentRejection): boolean {
  if (r.orderid !== undefined) return r.orderid === j.orderid;
  const o = r.order;
  return (
    o !== undefined &&
    Math.abs(r.at - j.at) <= REFUSAL_MERGE_MS &&
    o.symbol === j.order.symbol &&
    o.exchange === j.order.exchange &&
    o.action.toUpperCase() === j.order.action.toUpperCase() &&
    o.quantity === j.order.quantity
  );
}

export const UNKNOWN_PREFIX = 'unknown:';
export function unknownId(journalId: string): string {
  return `${UNKNOWN_PREFIX}${journalId}`;
}

export function fromAlert(a: AlertEvent): AlertEntry {
  return {
    id: a.id,
    time: a.time,
    kind: a.kind,
    title: a.title,
    body: a.body,
    ...(a.orderid ? { orderid: a.orderid } : {}),
    sticky: a.sticky,
  };
}

export function fromUnknown(e: PendingUnknownView): AlertEntry {
  return {
    id: unknownId(e.journalId),
    time: e.time,
    kind: 'unknown',
    title: unknownTitle(e.operation),
    body: e.message,
    ...(e.orderid ? { orderid: e.orderid } : {}),
    sticky: false,
    operation: e.operation,
  };
}

/** An unknown outcome settled: its entry moves to the top with how the core settled it. */
export function fromSettled(e: Omit<ReconciledEvent, 'seq'>, earlier?: AlertEntry): AlertEntry {
  const resolution: Resolution = {
    found: e.found,
    message: e.message,
    time: e.time,
    ...(e.orderids ? { orderids: e.orderids } : {}),
  };
  const orderid = e.orderid ?? earlier?.orderid;
  return {
    id: unknownId(e.journalId),
    time: e.time,
    kind: 'unknown',
    title: unknownTitle(e.operation, resolution),
    body: e.message,
    ...(orderid ? { orderid } : {}),
    sticky: earlier?.sticky ?? false,
    operation: e.operation,
    resolution,
  };
}

/** How far before an unknown outcome's announcement its journal entry (the intent) may be. */
const JOURNAL_LOOKBACK_MS = 120_000;

/**
 * How listed unknown outcomes were settled, from their journal entries: for outcomes settled while
 * the page was not listening (a lost link), whose orders.reconciled it missed.
 */
export async function settlementsFromJournal(
  bridge: BridgeApi,
  missed: readonly AlertEntry[],
): Promise<{ settled: Omit<ReconciledEvent, 'seq'>[]; problem?: string }> {
  // The journal's time is the intent's, up to a mutation timeout before the unknown was announced.
  const from = Math.min(...missed.map((e) => e.time)) - JOURNAL_LOOKBACK_MS;
  const r = await bridge.invoke('journal.query', { outcome: 'unknown', from, limit: 1000 });
  if (!r.ok)
    return {
      settled: [],
      problem: `Alerts: how ${missed.length} unknown outcome(s) settled could not be read (${r.error.message})`,
    };
  const settled: Omit<ReconciledEvent, 'seq'>[] = [];
  for (const e of missed) {
    const journalId = e.id.slice(UNKNOWN_PREFIX.length);
    const entry = r.value.find((j) => j.id === journalId);
    if (!entry?.resolution || !e.operation) continue;
    settled.push({
      profileId: entry.profileId,
      time: entry.resolution.time,
      journalId,
      operation: e.operation,
      found: entry.resolution.found,
      ...(entry.resolution.orderid ? { orderid: entry.resolution.orderid } : {}),
      message: entry.resolution.message,
    });
  }
  return { settled };
}
