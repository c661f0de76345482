// One OS notification per split or basket (docs/architecture.md, Alerts). A send's children are known
// from its answer; their alerts make one notification under the group's id, raised when every child
// is final or GROUP_WINDOW_MS after the group's first child alert with the count so far, whichever
// comes first. A rejected child raises it at once; once shown partial, only a rejection or the
// group's completion raises it again (same id: the shell replaces it). While a send is in flight its
// children are not known yet, so other order alerts wait for its answer, at most HOLD_MS; a rejection
// never waits. A send that placed one order (or none) is no group.
import { groupSummary, type GroupChildKind } from '../../shared/alert-group-title.js';
import { formatQty } from '../../shared/format.js';
import type { Clock, Notifier } from '../ports.js';

export type Shown = Parameters<Notifier['notify']>[0];

/** What an order is: enough to tell which child of a send it is when the answer named no id. */
export interface OrderShape {
  symbol: string;
  exchange: string;
  action: string;
  quantity: number;
}

/** An order's alert under the `os` rule. */
export interface ChildAlert {
  orderid: string;
  order: OrderShape;
  kind: GroupChildKind;
  shown: Shown;
}

/** One order a send asked for, as its answer tells of it. */
export interface SentChild extends OrderShape {
  /** The order the gateway placed. */
  orderid?: string;
  /** Why the gateway placed none (its answer's message): a rejection known from the answer. */
  refused?: string;
}

/** One split or basket in flight. */
export interface SendGroup {
  /** The send's answer: its children (none when it was refused, failed or is in doubt). */
  placed(children: readonly SentChild[]): void;
}

export interface NotifyGroups {
  /** A split or basket is about to be sent; `title` says what (`Split BUY 105 INFY`). */
  begin(title: string): SendGroup;
  /** An order's alert: notified on its own, into its group's one notification, or held meanwhile. */
  notify(child: ChildAlert): void;
}

export const GROUP_WINDOW_MS = 1500;
export const HOLD_MS = 3000;
/**
 * How long after its answer a child the answer refused (no id) can be told by its shape: the book's
 * rejected order of that shape is that child (the paper gateway lists refused children so).
 */
export const CLAIM_MS = 10_000;
/** Groups remembered (a day of splits); the oldest is forgotten first. */
const GROUPS_KEPT = 200;

const FINAL: ReadonlySet<GroupChildKind> = new Set(['fill', 'rejection', 'cancellation']);

interface Slot extends SentChild {
  /** The child's latest alert kind. */
  kind?: GroupChildKind;
}

interface Group {
  id: string;
  title: string;
  slots: Slot[];
  answeredAt: number;
  /** The latest child's words, for the notification's body. */
  latest: string;
  shown: 'no' | 'partial' | 'final';
  cancelWindow?: () => void;
  /** A rejection's notification is due in this turn (several in one poll make one). */
  due?: boolean;
}

interface Held {
  child: ChildAlert;
  /** Already notified on its own (a rejection does not wait). */
  told: boolean;
  cancel: () => void;
}

/**
 * A send's children from what it asked for and its answer's results, in the same order (a split's
 * children as planned, a basket's legs).
 */
export function sentChildren(
  asked: readonly OrderShape[],
  results: readonly { orderid?: string | undefined; status?: string; message?: string | undefined }[],
): SentChild[] {
  return asked.map((a, i) => {
    const r = results[i];
    const shape = { symbol: a.symbol, exchange: a.exchange, action: a.action, quantity: a.quantity };
    if (r?.orderid) return { ...shape, orderid: r.orderid };
    return { ...shape, refused: r?.message ?? r?.status ?? 'no order placed' };
  });
}

const sameShape = (a: OrderShape, b: OrderShape) =>
  a.symbol === b.symbol &&
  a.exchange === b.exchange &&
  a.action.toUpperCase() === b.action.toUpperCase() &&
  a.quantity === b.quantity;

const refusedText = (c: SentChild) =>
  `${c.action.toUpperCase()} ${formatQty(c.quantity)} ${c.symbol} rejected: ${c.refused}`;

export function createNotifyGroups(o: {
  notifier: Notifier;
  clock: Pick<Clock, 'now' | 'setTimer'>;
}): NotifyGroups {
  const groups: Group[] = [];
  let sends = 0;
  let inFlight = 0;
  let held: Held[] = [];

  /**
   * The group and slot of an order: by id, or, for a rejection, a refused child of the same shape
   * (claimed; only a rejection, so another order's fill never joins a group).
   */
  function slotOf(child: ChildAlert): { g: Group; slot: Slot } | undefined {
    for (const g of groups) {
      const slot = g.slots.find((x) => x.orderid === child.orderid);
      if (slot) return { g, slot };
    }
    if (child.kind !== 'rejection') return undefined;
    const now = o.clock.now();
    for (const g of groups) {
      if (now - g.answeredAt > CLAIM_MS) continue;
      const slot = g.slots.find((x) => x.orderid === undefined && sameShape(x, child.order));
      if (slot) {
        slot.orderid = child.orderid;
        return { g, slot };
      }
    }
    return undefined;
  }

  function show(g: Group, state: 'partial' | 'final'): void {
    g.cancelWindow?.();
    g.cancelWindow = undefined;
    g.shown = state;
    const kinds = g.slots.flatMap((x) => (x.kind ? [x.kind] : []));
    const { title, kind } = groupSummary(g.title, g.slots.length, kinds, kinds.at(-1) ?? 'partial');
    o.notifier.notify({
      kind,
      title,
      body: `Latest: ${g.latest}`,
      id: `group:${g.id}`,
      sticky: kinds.includes('rejection'),
    });
  }

  /** A child's state changed: the group's notification is raised by the timing rule. */
  function changed(g: Group, rejected: boolean): void {
    if (g.shown === 'final') return;
    if (g.slots.every((x) => x.kind && FINAL.has(x.kind))) return show(g, 'final');
    if (rejected && !g.due) {
      // At once, but after the rest of this turn's events: one poll's rejections make one.
      g.due = true;
      queueMicrotask(() => {
        g.due = false;
        if (g.shown !== 'final') show(g, 'partial');
      });
    } else if (g.shown === 'no' && !g.cancelWindow)
      g.cancelWindow = o.clock.setTimer(() => {
        g.cancelWindow = undefined;
        if (g.shown === 'no') show(g, 'partial');
      }, GROUP_WINDOW_MS);
  }

  /** Routes a child's alert; false when it is in no group. */
  function intoGroup(child: ChildAlert, told: boolean): boolean {
    const found = slotOf(child);
    if (!found) return false;
    const { g, slot } = found;
    const before = slot.kind;
    slot.kind = child.kind;
    g.latest = child.shown.title;
    // A rejection already told (on its own, or by the answer) raises nothing new.
    const quiet = told || (before === 'rejection' && child.kind === 'rejection');
    if (!quiet || g.slots.every((x) => x.kind && FINAL.has(x.kind)))
      changed(g, child.kind === 'rejection' && !quiet);
    return true;
  }

  /** A held alert whose send answered (or whose wait ran out): into its group, or on its own. */
  function release(h: Held): void {
    h.cancel();
    held = held.filter((x) => x !== h);
    if (!intoGroup(h.child, h.told) && !h.told) o.notifier.notify(h.child.shown);
  }

  return {
    begin(title) {
      const id = `send-${++sends}`;
      inFlight++;
      let answered = false;
      return {
        placed(children) {
          if (answered) return;
          answered = true;
          inFlight--;
          if (children.length > 1) {
            const slots: Slot[] = children.map((c) =>
              c.refused !== undefined ? { ...c, kind: 'rejection' } : { ...c },
            );
            const refused = slots.filter((x) => x.kind === 'rejection');
            const g: Group = {
              id,
              title,
              slots,
              answeredAt: o.clock.now(),
              latest: refused.length > 0 ? refusedText(refused[refused.length - 1] as Slot) : '',
              shown: 'no',
            };
            groups.push(g);
            if (groups.length > GROUPS_KEPT) groups.shift()?.cancelWindow?.();
            if (refused.length > 0) changed(g, true);
          }
          for (const h of [...held]) {
            if (inFlight === 0) release(h);
            // Another send is still in flight: an alert not of this one waits for that one's answer.
            else if (intoGroup(h.child, h.told)) {
              h.cancel();
              held = held.filter((x) => x !== h);
            }
          }
        },
      };
    },
    notify(child) {
      if (intoGroup(child, false)) return;
      if (inFlight === 0) return o.notifier.notify(child.shown);
      // It may be a child of the send in flight: held until the answer says, a rejection told now.
      const told = child.kind === 'rejection';
      if (told) o.notifier.notify(child.shown);
      const h: Held = { child, told, cancel: () => undefined };
      h.cancel = o.clock.setTimer(() => release(h), HOLD_MS);
      held.push(h);
    },
  };
}
