// What the status bar and the notifications show, fed by the bridge: the active profile, the
// gateway connection, the key's status, the tray state, the last event's time and the alerts.
import type {
  AlertEvent,
  ApiKeyStatus,
  BridgeApi,
  ConnectionEvent,
  EventName,
  ProfileView,
  TrayStateEvent,
} from '../../../src-main/contract/index.js';

/** Non-sticky alerts leave the page after this long; sticky ones (rejections) wait for a dismiss. */
export const ALERT_SHOWN_MS = 8000;
/** At most this many alerts on screen; the oldest non-sticky goes first. */
export const ALERTS_ON_SCREEN = 5;

/** Every event the desk hears, for "last event" (the books arrive on each poll that changes them). */
const HEARD: readonly EventName[] = [
  'orders.accepted',
  'orders.partial',
  'orders.filled',
  'orders.rejected',
  'orders.cancelled',
  'orders.modified',
  'orders.unknown',
  'orders.reconciled',
  'positions.changed',
  'books.orders',
  'books.trades',
  'books.positions',
  'books.funds',
  'session.connection',
  'alerts.raised',
  'alerts.state',
  'apiKey.status',
  'profiles.switched',
  'tray.state',
];

export type ConnectionShown = ConnectionEvent['state'] | 'connecting';

export class DeskState {
  profile = $state<ProfileView | undefined>();
  connection = $state<ConnectionShown>('connecting');
  connectionMessage = $state<string | undefined>();
  key = $state<ApiKeyStatus | undefined>();
  tray = $state<TrayStateEvent | undefined>();
  lastEventAt = $state<number | undefined>();
  alerts = $state<AlertEvent[]>([]);
  /** The last refusal of a call the desk made itself (shown, never swallowed). */
  problem = $state<string | undefined>();

  readonly #bridge: BridgeApi;
  readonly #systemNotify: (alert: AlertEvent) => void;
  // Bookkeeping the page never renders, so a plain Map, not a reactive one.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();

  /** `systemNotify` also shows each alert outside the page (the browser's notifications), if allowed. */
  constructor(bridge: BridgeApi, systemNotify: (alert: AlertEvent) => void = () => undefined) {
    this.#bridge = bridge;
    this.#systemNotify = systemNotify;
  }

  /** Subscribes and loads the first state; returns the function that stops it all. */
  start(): () => void {
    const b = this.#bridge;
    const offs = [
      ...HEARD.map((name) =>
        b.on(name, (payload) => {
          const time = (payload as { time?: unknown }).time;
          this.lastEventAt = typeof time === 'number' ? time : Date.now();
        }),
      ),
      b.on('session.connection', (e) => {
        if (this.profile && e.profileId !== this.profile.id) return;
        this.connection = e.state;
        this.connectionMessage = e.message;
      }),
      b.on('tray.state', (t) => (this.tray = t)),
      b.on('apiKey.status', (k) => {
        if (!this.profile || k.profileId === this.profile.id) this.key = k;
      }),
      b.on('profiles.switched', () => void this.refresh()),
      b.on('alerts.raised', (a) => this.#show(a)),
      b.on('alerts.state', (s) => {
        // A sticky alert dismissed elsewhere (another window, the tray) leaves this page too.
        const still = s.sticky.map((a) => a.id);
        this.alerts = this.alerts.filter((a) => !a.sticky || still.includes(a.id));
      }),
    ];
    void this.refresh();
    return () => {
      for (const off of offs) off();
      for (const t of this.#timers.values()) clearTimeout(t);
      this.#timers.clear();
    };
  }

  async refresh(): Promise<void> {
    const list = await this.#bridge.invoke('profiles.list');
    if (!list.ok) {
      this.problem = `Profiles: ${list.error.message}`;
      return;
    }
    this.profile = list.value.profiles.find((p) => p.id === list.value.activeProfileId);
    const key = await this.#bridge.invoke('apiKey.status', { profileId: list.value.activeProfileId });
    if (key.ok) this.key = key.value;
    else this.problem = `Key status: ${key.error.message}`;
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

  #show(alert: AlertEvent): void {
    // The same id replaces the earlier one (an alert is deterministic per order state).
    const others = this.alerts.filter((a) => a.id !== alert.id);
    let next = [alert, ...others];
    while (next.length > ALERTS_ON_SCREEN) {
      const oldest = next.findLastIndex((a) => !a.sticky);
      if (oldest < 0) break;
      next = next.filter((_, i) => i !== oldest);
    }
    this.alerts = next;
    this.#systemNotify(alert);
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
