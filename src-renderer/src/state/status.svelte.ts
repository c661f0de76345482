// What the status bar adds to DeskState: when gateway data last arrived (books, order events, market
// ticks) and since when the gateway or the host link has been lost, for the offline banner.
import type { BridgeApi, EventName } from '@contract';
import type { LinkState } from '../lib/bridge';

/** Events that carry data read from the gateway: each one is a refresh. */
const GATEWAY_DATA: readonly EventName[] = [
  'books.orders',
  'books.trades',
  'books.positions',
  'books.funds',
  'orders.accepted',
  'orders.partial',
  'orders.filled',
  'orders.rejected',
  'orders.cancelled',
  'orders.modified',
  'orders.reconciled',
  'positions.changed',
  'market.ltp',
  'market.quote',
  'market.depth',
];

export interface StatusOptions {
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  now?: () => number;
}

export class StatusState {
  /** The last gateway data, to the second (ticks at 10/s change it once a second). */
  refreshedAt = $state<number | undefined>();
  /** Since when the gateway has not answered, per profile (its first `disconnected` event). */
  #offlineSince = $state.raw<Readonly<Record<string, number>>>({});
  /** Since when the page's link to the host is lost (browser mode). */
  linkLostSince = $state<number | undefined>();

  readonly #bridge: BridgeApi;
  readonly #options: StatusOptions;
  readonly #now: () => number;

  constructor(bridge: BridgeApi, options: StatusOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  start(): () => void {
    const b = this.#bridge;
    const offs = [
      ...GATEWAY_DATA.map((name) =>
        b.on(name, (payload) => {
          const time = (payload as { time?: unknown }).time;
          this.#refreshed(typeof time === 'number' ? time : this.#now());
        }),
      ),
      b.on('session.connection', (e) => {
        if (e.state === 'connected') this.#refreshed(e.time);
        this.#mark(e.profileId, e.state === 'disconnected', e.time);
      }),
      this.#options.onLinkChange?.((state) => {
        if (state === 'lost') this.linkLostSince ??= this.#now();
        else this.linkLostSince = undefined;
      }) ?? (() => undefined),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Since when the profile's gateway has been unreachable (undefined while it answers). */
  offlineSince(profileId: string | undefined): number | undefined {
    return profileId === undefined ? undefined : this.#offlineSince[profileId];
  }

  /**
   * Follows the connection the desk shows (from the snapshot as well as events): a desk loaded while
   * the gateway was already unreachable counts from then; one back online forgets the time.
   */
  track(profileId: string, offline: boolean): void {
    this.#mark(profileId, offline, this.#now());
  }

  #mark(profileId: string, offline: boolean, time: number): void {
    const known = this.#offlineSince[profileId];
    if (offline && known === undefined) this.#offlineSince = { ...this.#offlineSince, [profileId]: time };
    else if (!offline && known !== undefined) {
      const { [profileId]: _gone, ...rest } = this.#offlineSince;
      this.#offlineSince = rest;
    }
  }

  #refreshed(time: number): void {
    const second = Math.floor(time / 1000) * 1000;
    if (this.refreshedAt === undefined || second > this.refreshedAt) this.refreshedAt = second;
  }
}
