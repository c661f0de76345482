// What the status bar and the notifications show, fed by the bridge: the active profile, the
// gateway connection, the key's status, the tray state, the last event's time, the alerts and what
// the core says of its files (storage.svelte.ts). It starts from session.snapshot and applies the
// events numbered after it.
import type {
  AlertEvent,
  ApiKeyStatus,
  BridgeApi,
  ProfileView,
  SessionConnection,
  SessionFeed,
  SessionMode,
  TrayStateEvent,
} from '@contract';
import { ACTIVITY_EVENT_NAMES } from '@shared/ipc-names.js';
import type { LinkState } from '../lib/bridge';
import { StorageState } from './storage.svelte';

/** Non-sticky alerts leave the page after this long; sticky ones (rejections) wait for a dismiss. */
export const ALERT_SHOWN_MS = 8000;
/**
 * At most this many recent alerts held for the toasts (the toasts show a few and count the rest);
 * the oldest non-sticky goes first.
 */
export const ALERTS_ON_SCREEN = 20;


/** The gateway connection, or the page's own link to the host lost (browser mode). */
export type ConnectionShown = SessionConnection | 'link_lost';

export interface DeskOptions {
  /** Also shows each alert outside the page (the browser's notifications), if allowed. */
  systemNotify?: (alert: AlertEvent) => void;
  /** The transport's link to main (browser mode's WebSocket); returns the function that stops it. */
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
}

export class DeskState {
  profile = $state<ProfileView | undefined>();
  mode = $state<SessionMode | undefined>();
  /** Why the mode is what it is, in the core's words (analyze mode reported, marked by hand). */
  modeWhy = $state<string | undefined>();
  /** Whether the feed streams or the desk polls; undefined from an older core. */
  feed = $state<SessionFeed | undefined>();
  connection = $state<ConnectionShown>('connecting');
  connectionMessage = $state<string | undefined>();
  key = $state<ApiKeyStatus | undefined>();
  tray = $state<TrayStateEvent | undefined>();
  lastEventAt = $state<number | undefined>();
  alerts = $state<AlertEvent[]>([]);
  /** The last refusal of a call the desk made itself (shown, never swallowed). */
  problem = $state<string | undefined>();
  /** The journal salvaged at start, the paper ledger unavailable, and its reset. */
  readonly storage: StorageState;

  readonly #bridge: BridgeApi;
  readonly #options: DeskOptions;
  // Bookkeeping the page never renders, so plain fields, not reactive ones.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The last event the desk reflects: older (or replayed) ones are skipped. */
  #seq = 0;
  /** The events the connection and the key status were last set from. */
  #connectionSeq = 0;
  #keySeq = 0;
  #gatewaySeq = 0;

  constructor(bridge: BridgeApi, options: DeskOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
    this.storage = new StorageState(bridge);
  }

  /** True for an event newer than what the desk shows (and records it as shown). */
  #fresh(seq: number): boolean {
    if (seq <= this.#seq) return false;
    this.#seq = seq;
    return true;
  }

  /** Subscribes and loads the first state; returns the function that stops it all. */
  start(): () => void {
    const b = this.#bridge;
    const offs = [
      ...ACTIVITY_EVENT_NAMES.map((name) =>
        b.on(name, (payload) => {
          const time = (payload as { time?: unknown }).time;
          this.lastEventAt = typeof time === 'number' ? time : Date.now();
        }),
      ),
      b.on('session.connection', (e) => {
        if (!this.#fresh(e.seq) || (this.profile && e.profileId !== this.profile.id)) return;
        this.#connectionSeq = e.seq;
        this.connection = e.state;
        this.connectionMessage = e.message;
      }),
      b.on('session.gateway', (e) => {
        if (!this.#fresh(e.seq) || (this.profile && e.profileId !== this.profile.id)) return;
        this.#gatewaySeq = e.seq;
        this.mode = e.mode;
        this.modeWhy = e.modeWhy;
        this.feed = e.feed;
      }),
      b.on('tray.state', (t) => (this.tray = t)),
      b.on('session.storage', ({ seq, ...status }) => this.storage.apply(status, seq)),
      b.on('apiKey.status', (k) => {
        if (!this.#fresh(k.seq) || (this.profile && k.profileId !== this.profile.id)) return;
        this.#keySeq = k.seq;
        this.key = k;
      }),
      b.on('profiles.switched', () => void this.refresh()),
      b.on('alerts.raised', (a) => {
        if (this.#fresh(a.seq)) this.#show(a);
      }),
      b.on('alerts.state', (s) => {
        if (!this.#fresh(s.seq)) return;
        // A sticky alert dismissed elsewhere (another window, the tray) leaves this page too.
        const still = s.sticky.map((a) => a.id);
        this.alerts = this.alerts.filter((a) => !a.sticky || still.includes(a.id));
      }),
      this.#options.onLinkChange?.((state) => {
        if (state === 'lost') {
          this.connection = 'link_lost';
          this.connectionMessage = 'Lost the link to the OrderDesk host; reconnecting';
          // Whatever happened meanwhile is read again from the snapshot once the link is back.
        } else if (this.connection === 'link_lost') void this.refresh();
      }) ?? (() => undefined),
    ];
    void this.refresh();
    return () => {
      for (const off of offs) off();
      for (const t of this.#timers.values()) clearTimeout(t);
      this.#timers.clear();
    };
  }

  /** Loads session.snapshot: the profile, mode, connection, key status and undismissed alerts. */
  async refresh(): Promise<void> {
    const r = await this.#bridge.invoke('session.snapshot');
    if (!r.ok) {
      this.problem = `Session: ${r.error.message}`;
      return;
    }
    const snap = r.value;
    this.#seq = Math.max(this.#seq, snap.seq);
    this.problem = undefined;
    this.profile = snap.profile;
    if (snap.seq >= this.#gatewaySeq) {
      this.mode = snap.mode;
      this.modeWhy = snap.modeWhy;
      this.feed = snap.feed;
    }
    // An event numbered after the snapshot may have come before its answer: it is the newer word.
    if (snap.seq >= this.#connectionSeq || this.connection === 'link_lost') {
      this.connection = snap.connection;
      this.connectionMessage = undefined;
    }
    if (snap.seq >= this.#keySeq) this.key = snap.apiKey;
    this.storage.apply(snap.storage ?? {}, snap.seq);
    // Rejections stay until dismissed, also across a reload.
    for (const a of snap.alerts.sticky) if (!this.alerts.some((x) => x.id === a.id)) this.#show(a, false);
  }

  async dismiss(id: string): Promise<void> {
    const alert = this.alerts.find((a) => a.id === id);
    this.#drop(id);
    if (!alert?.sticky) return;
    const r = await this.#bridge.invoke('alerts.dismiss', { id });
    if (!r.ok) this.problem = `Dismiss: ${r.error.message}`;
  }

  /** Tells main whether the page is on screen (polling slows down when it is not). */
  async setVisible(visible: boolean): Promise<void> {
    const r = await this.#bridge.invoke('watcher.setVisibility', { visible });
    if (!r.ok) this.problem = `Visibility: ${r.error.message}`;
  }

  #show(alert: AlertEvent, notify = true): void {
    // The same id replaces the earlier one (an alert is deterministic per order state).
    const others = this.alerts.filter((a) => a.id !== alert.id);
    let next = [alert, ...others];
    while (next.length > ALERTS_ON_SCREEN) {
      const oldest = next.findLastIndex((a) => !a.sticky);
      if (oldest < 0) break;
      next = next.filter((_, i) => i !== oldest);
    }
    this.alerts = next;
    if (notify) this.#options.systemNotify?.(alert);
    if (!alert.sticky) {
      clearTimeout(this.#timers.get(alert.id));
      this.#timers.set(
        alert.id,
        setTimeout(() => this.#drop(alert.id), ALERT_SHOWN_MS),
      );
    }
  }

  #drop(id: string): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.alerts = this.alerts.filter((a) => a.id !== id);
  }
}
