// Over 300 lines: one list owns history, toasts, counts and settling, so they never disagree.
// The desk's one alert list: every alert the core raised (fills, partial fills, rejections with their
// reason, cancellations), every order action whose outcome was unknown (with how the core settled it)
// and every order action the desk had refused; a split's or basket's orders are one entry
// (alert-groups.ts). It keeps history (newest first, bounded), counts what
// the trader has not seen yet and carries the core's alert state (paused, muted orders, undismissed
// rejections). The toasts are the raised entries still on screen: a few seconds each, a rejection
// until dismissed. The Alerts pane, the toasts and the unread count all read this one list.
import type { AlertEvent, AlertsState, BridgeApi, IpcResult } from '@contract';
import type { LinkState } from '../lib/bridge';
import type { RefusedOrder, Refusal } from '../lib/refusal-tap';
import {
  fromAlert,
  fromSettled,
  fromUnknown,
  REFUSAL_MERGE_MS,
  samePair,
  settlementsFromJournal,
  unknownId,
  type AlertEntry,
  type ReconciledEvent,
  type RecentRefusal,
  type RecentRejection,
} from './alert-entry';
import { AlertGroups, groupedAlert, isListed, stickyIds, type AlertGroup } from './alert-groups';

export {
  operationText,
  REFUSAL_MERGE_MS,
  unknownTitle,
  type AlertEntry,
  type AlertEntryKind,
  type Resolution,
  type UnknownOperation,
} from './alert-entry';

/** Oldest entries leave past this many: a day of alerts, never an unbounded list. */
export const ALERT_LOG_LIMIT = 500;
/** A toast that is not sticky leaves the screen after this long; a sticky one waits for a dismiss. */
export const ALERT_SHOWN_MS = 8000;
/** At most this many toasts held (a few show, the rest are counted); the oldest non-sticky goes first. */
export const ALERTS_ON_SCREEN = 20;

export interface AlertLogOptions {
  /** The transport's link to main (browser mode); the log reloads the core's state when it is back. */
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  /** Also delivers each raised alert outside the page (a system notification, a chime), by its rule. */
  systemNotify?: (alert: AlertEvent) => void;
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
  /** The ids of the entries on screen as toasts, newest raised first. */
  #shownIds = $state.raw<readonly string[]>([]);
  /** The toasts: raised entries still on screen (a dismissed entry leaves them with the list). */
  readonly toasts: AlertEntry[] = $derived(
    this.#shownIds.flatMap((id) => this.entries.find((e) => e.id === id) ?? []),
  );

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
  readonly #groups = new AlertGroups();
  // Bookkeeping the page never renders, so a plain map, not a reactive one.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();

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
        if (!this.#fresh(a.seq)) return;
        // An unknown outcome's alert toasts the entry orders.unknown listed, with the alert's stickiness.
        if (a.about === 'unknown_outcome') this.#unknownRaised(a);
        else this.#raised(a);
        // A split's child toasts as its group's one entry.
        const group = this.entries.find((e) => e.id === this.#groups.groupIdOf(a));
        this.#toast(group ?? a);
        this.#options.systemNotify?.(group ? groupedAlert(a, group) : a);
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
      for (const t of this.#timers.values()) clearTimeout(t);
      this.#timers.clear();
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
    // Rejections stay on screen until dismissed, also across a reload.
    for (const a of r.value.alerts.sticky) if (!this.#shownIds.includes(a.id)) this.#toast(a);
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
    const r = await settlementsFromJournal(this.#bridge, missed);
    if (r.problem) this.problem = r.problem;
    for (const e of r.settled) this.#settle(e);
  }

  /**
   * The orders one split or basket placed (the bridge's group tap reports each): their alerts
   * become one entry with the children inside, and one toast. Alerts listed before it are taken in.
   */
  noteGroup(g: AlertGroup): void {
    const { entry, absorbed } = this.#groups.register(g, this.entries);
    if (!entry) return;
    const shown = absorbed.some((id) => this.#shownIds.includes(id));
    this.entries = this.entries.filter((e) => !absorbed.includes(e.id));
    for (const id of absorbed) {
      this.#hide(id);
      this.#unmarkUnread(id);
    }
    this.#add(entry);
    if (shown) this.#toast(entry);
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
    this.#add(this.#groups.absorb(entry, this.entries));
  }

  /** An unknown outcome's alert: its entry (listed from orders.unknown, or from the alert) toasts. */
  #unknownRaised(a: AlertEvent): void {
    const entry = this.entries.find((e) => e.id === a.id);
    if (!entry) this.#add(fromAlert(a));
    else if (entry.sticky !== a.sticky)
      this.entries = this.entries.map((e) => (e === entry ? { ...e, sticky: a.sticky } : e));
  }

  /** Puts a raised entry on screen: a sticky one until dismissed, the others for ALERT_SHOWN_MS. */
  #toast(a: Pick<AlertEvent, 'id' | 'sticky'>): void {
    let next = [a.id, ...this.#shownIds.filter((id) => id !== a.id)];
    const sticky = (id: string) => this.entries.find((e) => e.id === id)?.sticky ?? false;
    while (next.length > ALERTS_ON_SCREEN) {
      const oldest = next.findLastIndex((id) => !sticky(id));
      if (oldest < 0) break;
      this.#unshow(next[oldest]!);
      next = next.filter((_, i) => i !== oldest);
    }
    this.#shownIds = next;
    clearTimeout(this.#timers.get(a.id));
    if (!a.sticky)
      this.#timers.set(
        a.id,
        setTimeout(() => this.#hide(a.id), ALERT_SHOWN_MS),
      );
  }

  #unshow(id: string): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  #hide(id: string): void {
    this.#unshow(id);
    if (this.#shownIds.includes(id)) this.#shownIds = this.#shownIds.filter((x) => x !== id);
  }

  /** Takes a toast off the screen (the entry stays listed); a rejection is dismissed in the core too. */
  async dismissToast(id: string): Promise<void> {
    const entry = this.entries.find((e) => e.id === id);
    this.#hide(id);
    for (const sticky of entry ? stickyIds(entry) : [])
      this.#apply(await this.#bridge.invoke('alerts.dismiss', { id: sticky }), 'Dismiss');
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
    for (const sticky of stickyIds(entry)) {
      const r = await this.#bridge.invoke('alerts.dismiss', { id: sticky });
      if (!this.#apply(r, 'Dismiss')) return false;
    }
    this.entries = this.entries.filter((e) => e.id !== id);
    this.#unmarkUnread(id);
    this.#hide(id);
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
    const gone = (e: AlertEntry) => e.sticky && !stickyIds(e).some((id) => still.includes(id));
    // Its toast leaves this page too.
    for (const e of this.entries.filter(gone)) this.#hide(e.id);
    if (this.entries.some(gone))
      this.entries = this.entries.map((e) => (gone(e) ? { ...e, sticky: false } : e));
    // Undismissed rejections from before this page loaded.
    for (const a of s.sticky) if (!isListed(this.entries, a.id)) this.#add(fromAlert(a));
  }

  #add(entry: AlertEntry): void {
    // The same id replaces the earlier entry (an alert is deterministic per order state).
    const others = this.entries.filter((e) => e.id !== entry.id);
    const next = [entry, ...others].sort((a, b) => b.time - a.time);
    const dropped = next.splice(ALERT_LOG_LIMIT);
    this.entries = next;
    const droppedIds = dropped.map((d) => d.id);
    for (const id of droppedIds) this.#hide(id);
    this.unreadIds = [
      entry.id,
      ...this.unreadIds.filter((id) => id !== entry.id && !droppedIds.includes(id)),
    ];
  }

  #settle(e: Omit<ReconciledEvent, 'seq'>): void {
    const earlier = this.entries.find((x) => x.id === unknownId(e.journalId));
    // Its settlement is news: the entry moves to the top and counts as unread again.
    this.#add(fromSettled(e, earlier));
  }

  #unmarkUnread(id: string): void {
    if (this.unreadIds.includes(id)) this.unreadIds = this.unreadIds.filter((x) => x !== id);
  }
}
