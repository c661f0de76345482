// One alert per split or basket: the orders one send placed are a group, and each child's alert
// (fill, partial, rejection, cancellation) updates the group's one entry instead of adding its own.
// The group's entry lists each child's latest alert (its order id and state) and says in its title
// how many filled, were rejected or cancelled. A child's alert that came before the group was known
// (a fill can beat the split's answer) is taken into the group when it is.
import type { AlertEvent } from '@contract';
import { groupSummary } from '@shared/alert-group-title.js';
import type { AlertGroup } from '../lib/group-tap';
import type { AlertEntry } from './alert-entry';

export type { AlertGroup };

/** Groups remembered (a day of splits); the oldest is forgotten first. */
const GROUPS_KEPT = 200;
const GROUP_PREFIX = 'group:';
/** The alert kinds that are about one order's state (info and warnings stay on their own). */
const ORDER_KINDS: ReadonlySet<AlertEntry['kind']> = new Set([
  'fill',
  'partial',
  'rejection',
  'cancellation',
]);

export const groupEntryId = (g: Pick<AlertGroup, 'id'>): string => `${GROUP_PREFIX}${g.id}`;

/** The alert ids the core keeps sticky behind an entry: a group's sticky children, or its own. */
export function stickyIds(e: AlertEntry): string[] {
  if (e.children) return e.children.filter((c) => c.sticky).map((c) => c.id);
  return e.sticky ? [e.id] : [];
}

/** Whether an alert id is listed: as an entry, or as a child of a group's entry. */
export function isListed(entries: readonly AlertEntry[], id: string): boolean {
  return entries.some((e) => e.id === id || (e.children?.some((c) => c.id === id) ?? false));
}

/** The group's one entry over its children's latest alerts. */
export function groupEntryOf(g: AlertGroup, children: readonly AlertEntry[]): AlertEntry {
  const ordered = [...children].sort(
    (a, b) => g.orderids.indexOf(a.orderid ?? '') - g.orderids.indexOf(b.orderid ?? ''),
  );
  const latest = ordered.reduce((a, b) => (b.time > a.time ? b : a));
  const { title, kind } = groupSummary(
    g.title,
    g.orderids.length,
    ordered.map((c) => c.kind),
    latest.kind,
  );
  return {
    id: groupEntryId(g),
    time: latest.time,
    kind,
    title,
    body: `Latest: ${latest.title}`,
    sticky: ordered.some((c) => c.sticky),
    children: ordered,
  };
}

/**
 * A child's alert as the page's system notification says it: the group's words under the group's id
 * (the notification's tag), so each child's fill replaces the one notification, not adds one.
 */
export function groupedAlert(a: AlertEvent, group: AlertEntry): AlertEvent {
  const { orderid: _child, ...rest } = a;
  return { ...rest, id: group.id, title: group.title, body: group.body };
}

/** The groups the desk sent, and which group each order is in. */
export class AlertGroups {
  readonly #groups: AlertGroup[] = [];

  #of(orderid: string | undefined): AlertGroup | undefined {
    if (orderid === undefined) return undefined;
    return this.#groups.find((g) => g.orderids.includes(orderid));
  }

  /** The group entry's id an alert lands in, or undefined when it is on its own. */
  groupIdOf(e: Pick<AlertEntry, 'orderid' | 'kind'>): string | undefined {
    const g = ORDER_KINDS.has(e.kind) ? this.#of(e.orderid) : undefined;
    return g && groupEntryId(g);
  }

  /** The entry to list for `entry`: its group's entry with it in, or `entry` itself. */
  absorb(entry: AlertEntry, entries: readonly AlertEntry[]): AlertEntry {
    const g = ORDER_KINDS.has(entry.kind) ? this.#of(entry.orderid) : undefined;
    if (!g) return entry;
    const before = entries.find((e) => e.id === groupEntryId(g))?.children ?? [];
    // A child's later state replaces its earlier one (a fill after a partial).
    return groupEntryOf(g, [...before.filter((c) => c.orderid !== entry.orderid), entry]);
  }

  /**
   * Remembers a group; returns its entry and the listed entries it took in, when alerts of its
   * orders came before it (otherwise its entry appears with its first child's alert).
   */
  register(g: AlertGroup, entries: readonly AlertEntry[]): { entry?: AlertEntry; absorbed: string[] } {
    this.#groups.push(g);
    if (this.#groups.length > GROUPS_KEPT) this.#groups.shift();
    const early = entries.filter(
      (e) => ORDER_KINDS.has(e.kind) && e.orderid !== undefined && g.orderids.includes(e.orderid),
    );
    if (early.length === 0) return { absorbed: [] };
    // Oldest first, so each order's latest alert is the one kept.
    const latest = new Map([...early].sort((a, b) => a.time - b.time).map((e) => [e.orderid, e]));
    return { entry: groupEntryOf(g, [...latest.values()]), absorbed: early.map((e) => e.id) };
  }
}
