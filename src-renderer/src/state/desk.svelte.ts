// What the status bar shows, fed by the bridge: the active profile, the gateway connection, the key's
// status, the tray state, the last event's time and what the core says of its files
// (storage.svelte.ts). It starts from session.snapshot and applies the events numbered after it. The
// alerts (toasts and the Alerts pane) are alert-log.svelte.ts's.
import type {
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

/** The gateway connection, or the page's own link to the host lost (browser mode). */
export type ConnectionShown = SessionConnection | 'link_lost';

export interface DeskOptions {
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
  /** The last refusal of a call the desk made itself (shown, never swallowed). */
  problem = $state<string | undefined>();
  /** The journal salvaged at start, the paper ledger unavailable, and its reset. */
  readonly storage: StorageState;

  readonly #bridge: BridgeApi;
  readonly #options: DeskOptions;
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
    };
  }

  /** Loads session.snapshot: the profile, mode, connection and key status. */
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
  }

  /** Tells main whether the page is on screen (polling slows down when it is not). */
  async setVisible(visible: boolean): Promise<void> {
    const r = await this.#bridge.invoke('watcher.setVisibility', { visible });
    if (!r.ok) this.problem = `Visibility: ${r.error.message}`;
  }
}
