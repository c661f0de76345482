// The Alerts pane's list: every alert the core raised (fills, partial fills, rejections with their
// reason, cancellations) and every order action whose outcome was unknown, with how the core settled
// it. Unlike the toasts it keeps history (newest first, bounded), counts what the trader has not seen
// yet, and carries the core's alert state (paused, muted orders, undismissed rejections).
import type {
  AlertEvent,
  AlertsState,
  BridgeApi,
  EventPayload,
  IpcResult,
  PendingUnknownView,
} from '@contract';
import type { LinkState } from '../lib/bridge';
import type { RefusedOrder, Refusal } from '../lib/refusal-tap';

/** Oldest entries leave past this many: a day of alerts, never an unbounded list. */
export const ALERT_LOG_LIMIT = 500;

/**
 * A refusal and the core's rejection of the same order (the gateway recorded the refused order as
 * rejected, with an id) are one event to the trader when they come this close together.
 */
export const REFUSAL_MERGE_MS = 5000;

/** How far before an unknown outcome's announcement its journal entry (the intent) may be. */
const JOURNAL_LOOKBACK_MS = 120_000;

/** A refusal the desk listed, kept briefly so the core's rejection of the same order replaces it. */
interface RecentRefusal {
  entryId: string;
  at: number;
  orderid?: string;
  order?: RefusedOrder;
}

/** An orders.rejected the core reported, kept briefly; `alertId` once its alert is listed. */
interface RecentRejection {
  orderid: string;
  order: RefusedOrder;
  at: number;
  alertId?: string;
}

type UnknownEvent = EventPayload<'orders.unknown'>;
type ReconciledEvent = EventPayload<'orders.reconciled'>;
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
}

const OPERATION_TEXT: Readonly<Record<UnknownOperation, string>> = {
  placeorder: 'Order placement',
  modifyorder: 'Order modification',
  cancelorder: 'Order cancellation',
  splitorder: 'Split order',
  basketorder: 'Basket order',
  cancelallorder: 'Cancel all',
  closeposition: 'Close all positions',
  placegttorder: 'GTT placement',
  modifygttorder: 'GTT modification',
  cancelgttorder: 'GTT cancellation',
};

export function operationText(op: UnknownOperation): string {
  return OPERATION_TEXT[op];
}

/** The title an unknown outcome shows while it is reconciling and after it is settled. */
export function unknownTitle(op: UnknownOperation, resolution?: Resolution): string {
  const what = OPERATION_TEXT[op];
  if (!resolution) return `${what}: outcome unknown, reconciling`;
  return resolution.found ? `${what}: took effect` : `${what}: did not take effect`;
}

export interface AlertLogOptions {
  /** The transport's link to main (browser mode); the log reloads the core's state when it is back. */
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  /** The page's clock (ms), for pairing a refusal with its rejection. */
  now?: () => number;
}

export class AlertLog {
  /** Newest first. */
  entries = $state.raw<AlertEntry[]>([]);
  paused = $state(false);
  muted = $state.raw<readonly string[]>([]);
  /** Entries (and settlements of unknown outcomes) the trader has not seen in the pane yet. */
  unreadIds = $state.raw<readonly string[]>([]);
  unread = $derived(this.unreadIds.length);
  /** The last refusal of a call the pane made (shown next to the list, never swallowed). */
  problem = $state<string | undefined>();

  readonly #bridge: BridgeApi;
  readonly #options: AlertLogOptions;
  /** The last event reflected: a replayed or older one is skipped. */
  #seq = 0;
  /** The seq the paused/muted state was last set from, so an older snapshot cannot undo it. */
  #stateSeq = 0;
  #linkLost = false;
  #refusals = 0;
  #recentRefusals: RecentRefusal[] = [];
  #recentRejections: RecentRejection[] = [];

  constructor(bridge: BridgeApi, options: AlertLogOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
  }

  #fresh(seq: number): boolean {
    if (seq <= this.#seq) return false;
    this.#seq = seq;
    return true;
  }

  /** Subscribes and loads the core's alert state; returns the function that stops it. */
  start(): () => void {
    const b = this.#bridge;
    const offs = [
      b.on('alerts.raised', (a) => {
        // An unknown outcome's toast: the list has its entry from orders.unknown already.
        if (this.#fresh(a.seq) && a.about !== 'unknown_outcome') this.#raised(a);
      }),
      // Not listed: only remembered, so a refusal of the same order can be paired with its alert.
      b.on('orders.rejected', (e) => this.#rejected(e.order)),
      b.on('alerts.state', (s) => {
        if (this.#fresh(s.seq)) this.#applyState(s, s.seq);
      }),
      b.on('orders.unknown', (e) => {
        if (this.#fresh(e.seq)) this.#add(fromUnknown(e));
      }),
      b.on('orders.reconciled', (e) => {
        if (this.#fresh(e.seq)) this.#settle(e);
      }),
      this.#options.onLinkChange?.((state) => {
        if (state === 'lost') this.#linkLost = true;
        else if (this.#linkLost) {
          this.#linkLost = false;
          void this.refresh();
        }
      }) ?? (() => undefined),
    ];
    void this.refresh();
    return () => {
      for (const off of offs) off();
    };
  }

  /** Reads paused, muted and the undismissed rejections from session.snapshot. */
  async refresh(): Promise<void> {
    const r = await this.#bridge.invoke('session.snapshot');
    if (!r.ok) {
      this.problem = `Alerts: ${r.error.message}`;
      return;
    }
    this.problem = undefined;
    this.#seq = Math.max(this.#seq, r.value.seq);
    this.#applyState(r.value.alerts, r.value.seq);
    // Outcomes still unknown from before this page loaded (or while its link was down): listed as
    // reconciling until their orders.reconciled; one already listed keeps its entry.
    const pending = r.value.unknowns;
    for (const u of pending ?? [])
      if (!this.entries.some((e) => e.id === unknownId(u.journalId))) this.#add(fromUnknown(u));
    // Listed as reconciling here but no longer pending in the core: settled while this page was not
    // listening (a lost link), so its orders.reconciled was missed. The journal has how it settled.
    if (pending) {
      const still = pending.map((u) => unknownId(u.journalId));
      const missed = this.entries.filter(
        (e) => e.kind === 'unknown' && !e.resolution && !still.includes(e.id),
      );
      if (missed.length > 0) await this.#settleFromJournal(missed);
    }
  }

  /** Settles listed unknown outcomes from their journal entries (how the core settled them). */
  async #settleFromJournal(missed: readonly AlertEntry[]): Promise<void> {
    // The journal's time is the intent's, up to a mutation timeout before the unknown was announced.
    const from = Math.min(...missed.map((e) => e.time)) - JOURNAL_LOOKBACK_MS;
    const r = await this.#bridge.invoke('journal.query', { outcome: 'unknown', from, limit: 1000 });
    if (!r.ok) {
      this.problem = `Alerts: how ${missed.length} unknown outcome(s) settled could not be read (${r.error.message})`;
      return;
    }
    for (const e of missed) {
      const journalId = e.id.slice(UNKNOWN_PREFIX.length);
      const entry = r.value.find((j) => j.id === journalId);
      if (!entry?.resolution || !e.operation) continue;
      this.#settle({
        profileId: entry.profileId,
        time: entry.resolution.time,
        journalId,
        operation: e.operation,
        found: entry.resolution.found,
        ...(entry.resolution.orderid ? { orderid: entry.resolution.orderid } : {}),
        message: entry.resolution.message,
      });
    }
  }

  /**
   * An order action the desk sent and had refused (the bridge's refusal tap reports every one); a
   * semi-auto gateway's "queued for approval" is listed as information, not as a refusal.
   */
  noteRefusal(r: Refusal): void {
    const queued = r.error.kind === 'queued';
    const what = r.what.charAt(0).toUpperCase() + r.what.slice(1);
    const at = this.#now();
    const recent: RecentRefusal = { entryId: `refusal:${r.time}:${++this.#refusals}`, at };
    if (r.orderid) recent.orderid = r.orderid;
    if (r.order) recent.order = r.order;
    // The core's rejection of this very order is listed already: that entry is the one.
    if (!queued && this.#recent().rejections.some((j) => j.alertId && samePair(recent, j))) return;
    if (!queued) this.#recentRefusals.push(recent);
    this.#add({
      id: recent.entryId,
      time: r.time,
      kind: queued ? 'info' : 'refusal',
      title: queued ? `${what}: queued for approval` : `${what} refused`,
      body: r.error.message,
      ...(r.orderid ? { orderid: r.orderid } : {}),
      sticky: false,
    });
  }

  /**
   * A warning the desk itself raises (a smart order whose result differs from its preview): listed and
   * counted unread like the core's alerts, never sticky.
   */
  noteWarning(title: string, body: string, orderid?: string): void {
    const time = this.#now();
    this.#add({
      id: `desk-warning:${time}:${++this.#refusals}`,
      time,
      kind: 'warning',
      title,
      body,
      ...(orderid ? { orderid } : {}),
      sticky: false,
    });
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** The refusals and rejections still young enough to pair (older ones are let go). */
  #recent(): { refusals: RecentRefusal[]; rejections: RecentRejection[] } {
    const since = this.#now() - REFUSAL_MERGE_MS;
    this.#recentRefusals = this.#recentRefusals.filter((r) => r.at >= since);
    this.#recentRejections = this.#recentRejections.filter((r) => r.at >= since);
    return { refusals: this.#recentRefusals, rejections: this.#recentRejections };
  }

  #rejected(order: RefusedOrder & { orderid: string }): void {
    const { orderid, symbol, exchange, action, quantity } = order;
    const { rejections } = this.#recent();
    if (!rejections.some((j) => j.orderid === orderid))
      rejections.push({ orderid, order: { symbol, exchange, action, quantity }, at: this.#now() });
  }

  /** A raised alert; a rejection replaces the desk's own refusal of the same order. */
  #raised(a: AlertEvent): void {
    const entry = fromAlert(a);
    if (a.kind === 'rejection' && a.orderid) {
      const { refusals, rejections } = this.#recent();
      const rejection = rejections.find((j) => j.orderid === a.orderid);
      if (rejection) rejection.alertId = a.id;
      const pair = refusals.find((r) =>
        rejection ? samePair(r, rejection) : r.orderid !== undefined && r.orderid === a.orderid,
      );
      if (pair) {
        this.#recentRefusals = refusals.filter((r) => r !== pair);
        this.entries = this.entries.filter((e) => e.id !== pair.entryId);
        this.#unmarkUnread(pair.entryId);
      }
    }
    this.#add(entry);
  }

  /** The trader has looked at the list. */
  markRead(): void {
    if (this.unreadIds.length > 0) this.unreadIds = [];
  }

  isMuted(orderid: string | undefined): boolean {
    return orderid !== undefined && this.muted.includes(orderid);
  }

  /** Stops (or restores) alerts for one order. */
  async mute(orderid: string, muted: boolean): Promise<boolean> {
    return this.#apply(await this.#bridge.invoke('alerts.mute', { orderid, muted }), 'Mute');
  }

  /** Pauses every alert (persisted in settings) or resumes them. */
  async pause(paused: boolean): Promise<boolean> {
    return this.#apply(await this.#bridge.invoke('alerts.pause', { paused }), 'Pause');
  }

  /** Removes an entry from the list; a rejection is dismissed in the core too (its toast leaves). */
  async dismiss(id: string): Promise<boolean> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) return false;
    if (entry.sticky) {
      const r = await this.#bridge.invoke('alerts.dismiss', { id });
      if (!this.#apply(r, 'Dismiss')) return false;
    }
    this.entries = this.entries.filter((e) => e.id !== id);
    this.#unmarkUnread(id);
    return true;
  }

  #apply(r: IpcResult<AlertsState>, what: string): boolean {
    if (!r.ok) {
      this.problem = `${what}: ${r.error.message}`;
      return false;
    }
    this.problem = undefined;
    // The reply carries no seq: it is the newest word unless an event already went past it.
    this.#applyState(r.value, this.#seq);
    return true;
  }

  #applyState(s: AlertsState, seq: number): void {
    if (seq < this.#stateSeq) return;
    this.#stateSeq = seq;
    this.paused = s.paused;
    this.muted = [...s.muted];
    // A rejection dismissed elsewhere (its toast, the tray) stays in the history, no longer sticky.
    const still = s.sticky.map((a) => a.id);
    const gone = (e: AlertEntry) => e.sticky && !still.includes(e.id);
    if (this.entries.some(gone))
      this.entries = this.entries.map((e) => (gone(e) ? { ...e, sticky: false } : e));
    // Undismissed rejections from before this page loaded.
    for (const a of s.sticky) if (!this.entries.some((e) => e.id === a.id)) this.#add(fromAlert(a));
  }

  #add(entry: AlertEntry): void {
    // The same id replaces the earlier entry (an alert is deterministic per order state).
    const others = this.entries.filter((e) => e.id !== entry.id);
    const next = [entry, ...others].sort((a, b) => b.time - a.time);
    const dropped = next.splice(ALERT_LOG_LIMIT);
    this.entries = next;
    const droppedIds = dropped.map((d) => d.id);
    this.unreadIds = [
      entry.id,
      ...this.unreadIds.filter((id) => id !== entry.id && !droppedIds.includes(id)),
    ];
  }

  #settle(e: Omit<ReconciledEvent, 'seq'>): void {
    const id = unknownId(e.journalId);
    const resolution: Resolution = {
      found: e.found,
      message: e.message,
      time: e.time,
      ...(e.orderids ? { orderids: e.orderids } : {}),
    };
    const earlier = this.entries.find((x) => x.id === id);
    const orderid = e.orderid ?? earlier?.orderid;
    // Its settlement is news: the entry moves to the top and counts as unread again.
    this.#add({
      id,
      time: e.time,
      kind: 'unknown',
      title: unknownTitle(e.operation, resolution),
      body: e.message,
      ...(orderid ? { orderid } : {}),
      sticky: false,
      operation: e.operation,
      resolution,
    });
  }

  #unmarkUnread(id: string): void {
    if (this.unreadIds.includes(id)) this.unreadIds = this.unreadIds.filter((x) => x !== id);
  }
}

/** A refusal and a rejection of the same order: by order id when the refusal has one, else its legs. */
function samePair(r: RecentRefusal, j: RecentRejection): boolean {
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

const UNKNOWN_PREFIX = 'unknown:';
function unknownId(journalId: string): string {
  return `${UNKNOWN_PREFIX}${journalId}`;
}

function fromAlert(a: AlertEvent): AlertEntry {
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

function fromUnknown(e: PendingUnknownView): AlertEntry {
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
