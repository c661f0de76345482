// Over 300 lines: four books share one sequence check and one reload path.
// The books the desk shows (orders, trades, positions, funds; holdings on demand), fed by the
// bridge: loaded from session.snapshot, then replaced wholesale by each `books.*` event numbered
// after it. Every bus event is counted by seq, so a skipped number (a lost event) reloads the
// snapshot instead of leaving a stale book on screen. Views are `$state.raw`: a book of 5,000 orders
// is swapped by reference, never proxied row by row.
import { reloadOnRelink } from '../lib/followed-view';
import type {
  BridgeApi,
  BusEventName,
  EventPayload,
  FundsView,
  HoldingsView,
  IpcError,
  OrderSnapshot,
  OrdersView,
  PendingUnknownView,
  PositionsView,
  TradesView,
} from '@contract';
import type { LinkState } from '../lib/bridge';
import { ORDER_FILTERS, orderFilterOf, type OrderFilter } from '../lib/order-status';

/** An unknown outcome the core is still settling from the order book. */
export interface Reconciling {
  journalId: string;
  operation: EventPayload<'orders.unknown'>['operation'];
  orderid?: string;
  message: string;
  time: number;
}

// Every event the core's bus numbers: the books listen to all of them so a gap in seq is seen
// whichever event went missing. The Record makes the compiler name any bus event left out.
const BUS_EVENTS: Record<BusEventName, true> = {
  'orders.accepted': true,
  'orders.partial': true,
  'orders.filled': true,
  'orders.rejected': true,
  'orders.cancelled': true,
  'orders.modified': true,
  'orders.unknown': true,
  'orders.reconciled': true,
  'orders.closeAllProgress': true,
  'positions.changed': true,
  'protection.brackets': true,
  'guard.state': true,
  'strategies.list': true,
  'books.orders': true,
  'books.trades': true,
  'books.positions': true,
  'books.funds': true,
  'session.connection': true,
  'session.storage': true,
  'session.gateway': true,
  'alerts.raised': true,
  'alerts.state': true,
  'apiKey.status': true,
  'profiles.switched': true,
  'settings.changed': true,
  'market.ltp': true,
  'market.quote': true,
  'market.depth': true,
  'market.error': true,
};
const BUS_EVENT_NAMES = Object.keys(BUS_EVENTS) as BusEventName[];

export type OrderCounts = Record<OrderFilter, number>;

function reconcilingOf(u: PendingUnknownView): Reconciling {
  return {
    journalId: u.journalId,
    operation: u.operation,
    message: u.message,
    time: u.time,
    ...(u.orderid ? { orderid: u.orderid } : {}),
  };
}

export interface BooksOptions {
  /** The transport's link to main (browser mode's WebSocket); returns the function that stops it. */
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
}

export class BooksState {
  orders = $state.raw<OrdersView | undefined>();
  trades = $state.raw<TradesView | undefined>();
  positions = $state.raw<PositionsView | undefined>();
  funds = $state.raw<FundsView | undefined>();
  holdings = $state.raw<HoldingsView | undefined>();
  /** Why the last holdings or funds read failed (shown in the pane, never swallowed). */
  holdingsError = $state<IpcError | undefined>();
  fundsError = $state<IpcError | undefined>();
  holdingsLoading = $state(false);
  /** Unknown outcomes not yet settled, newest first. */
  reconciling = $state.raw<Reconciling[]>([]);
  /** Why the snapshot could not be loaded. */
  problem = $state<string | undefined>();
  /** The profile the books belong to; events of another profile are ignored. */
  profileId = $state<string | undefined>();
  /** How many snapshots were loaded (the first, then one per gap or profile switch). */
  snapshots = $state(0);

  readonly counts: OrderCounts = $derived(countOrders(this.orders?.orders ?? []));

  readonly #bridge: BridgeApi;
  readonly #options: BooksOptions;
  /** The last event the books reflect; 0 until the first snapshot. */
  #seq = 0;
  #loading: Promise<void> | undefined;
  /** Events heard while a snapshot loads: those numbered after it are applied once it lands. */
  #heard: { name: BusEventName; payload: EventPayload<BusEventName> }[] = [];

  constructor(bridge: BridgeApi, options: BooksOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
  }

  /** The last seq applied (for tests and diagnosis). */
  get seq(): number {
    return this.#seq;
  }

  start(): () => void {
    const offs = BUS_EVENT_NAMES.map((name) =>
      this.#bridge.on(name, (payload) => this.#receive(name, payload as EventPayload<BusEventName>)),
    );
    // Events sent while the link was down are gone: the snapshot is read again once it is back.
    const offLink = reloadOnRelink(this.#options.onLinkChange, () => this.reload());
    void this.reload();
    return () => {
      offLink();
      for (const off of offs) off();
    };
  }

  /** Loads session.snapshot, then the events heard meanwhile; a call while one loads joins it. */
  reload(): Promise<void> {
    this.#loading ??= (async () => {
      let gap = true;
      while (gap) {
        this.#heard = [];
        const loaded = await this.#loadSnapshot();
        const heard = this.#heard.sort((a, b) => seqOf(a.payload) - seqOf(b.payload));
        this.#heard = [];
        gap = false;
        for (const { name, payload } of heard) {
          if (seqOf(payload) <= this.#seq) continue;
          // Without a snapshot there is no base to apply events to; a gap means one more load.
          if (!loaded || seqOf(payload) > this.#seq + 1) {
            gap = loaded;
            break;
          }
          this.#seq = seqOf(payload);
          this.#apply(name, payload);
        }
      }
      this.#loading = undefined;
    })();
    return this.#loading;
  }

  /** True when the snapshot loaded (a refusal is shown as the problem). */
  async #loadSnapshot(): Promise<boolean> {
    const r = await this.#bridge.invoke('session.snapshot');
    if (!r.ok) {
      this.problem = `Books: ${r.error.message}`;
      return false;
    }
    const s = r.value;
    if (s.profile.id !== this.profileId) {
      // Another profile's unknown outcomes and holdings are not this one's.
      this.reconciling = [];
      this.holdings = undefined;
      this.holdingsError = undefined;
    }
    this.profileId = s.profile.id;
    this.orders = s.orders ?? undefined;
    this.trades = s.trades ?? undefined;
    this.positions = s.positions ?? undefined;
    this.funds = s.funds ?? undefined;
    // The outcomes still unknown at the snapshot's seq (a reloaded window keeps showing them as
    // reconciling); the orders.reconciled events after it settle them.
    if (s.unknowns) this.reconciling = s.unknowns.map(reconcilingOf).sort((a, b) => b.time - a.time);
    this.#seq = s.seq;
    this.problem = undefined;
    this.snapshots += 1;
    return true;
  }

  #receive<E extends BusEventName>(name: E, payload: EventPayload<E>): void {
    const seq = seqOf(payload);
    // While a snapshot loads, its seq decides which of these are new.
    if (this.#loading) {
      this.#heard.push({ name, payload });
      return;
    }
    // Nothing loaded yet (the first snapshot was refused): the next event is a reason to try again.
    if (this.snapshots === 0) {
      void this.reload();
      return;
    }
    if (seq <= this.#seq) return;
    if (seq > this.#seq + 1) {
      // Something was missed: the snapshot is the truth again.
      void this.reload();
      return;
    }
    this.#seq = seq;
    this.#apply(name, payload);
  }

  #apply<E extends BusEventName>(name: E, payload: EventPayload<E>): void {
    const p = payload as EventPayload<BusEventName>;
    if ('profileId' in p && p.profileId !== this.profileId) {
      if (name === 'profiles.switched') void this.reload();
      return;
    }
    switch (name) {
      case 'books.orders':
        this.orders = (p as EventPayload<'books.orders'>).view;
        break;
      case 'books.trades':
        this.trades = (p as EventPayload<'books.trades'>).view;
        break;
      case 'books.positions':
        this.positions = (p as EventPayload<'books.positions'>).view;
        break;
      case 'books.funds':
        this.funds = (p as EventPayload<'books.funds'>).view;
        this.fundsError = undefined;
        break;
      case 'orders.unknown': {
        const u = p as EventPayload<'orders.unknown'>;
        const entry = reconcilingOf(u);
        this.reconciling = [entry, ...this.reconciling.filter((r) => r.journalId !== u.journalId)];
        break;
      }
      case 'orders.reconciled': {
        const done = (p as EventPayload<'orders.reconciled'>).journalId;
        this.reconciling = this.reconciling.filter((r) => r.journalId !== done);
        break;
      }
      default:
        break;
    }
  }

  /** The unknown outcome an order is being reconciled for (its modify or cancel), if any. */
  reconcilingFor(orderid: string): Reconciling | undefined {
    return this.reconciling.find((r) => r.orderid === orderid);
  }

  /**
   * Reads the orders, positions and funds now, after the desk changed them (a close, an exit), so
   * the books agree with what was just reported without waiting for the watcher's next poll.
   */
  async refresh(): Promise<void> {
    const [orders, positions, funds] = await Promise.all([
      this.#bridge.invoke('books.orders'),
      this.#bridge.invoke('books.positions'),
      this.#bridge.invoke('books.funds'),
    ]);
    if (orders.ok) this.orders = orders.value;
    if (positions.ok) this.positions = positions.value;
    if (funds.ok) this.funds = funds.value;
    const refused = [orders, positions, funds].find((r) => !r.ok);
    this.problem = refused && !refused.ok ? `Books: ${refused.error.message}` : undefined;
  }

  /** Reads holdings now (they have no event: the watcher does not poll them). */
  async loadHoldings(): Promise<void> {
    this.holdingsLoading = true;
    const r = await this.#bridge.invoke('books.holdings');
    this.holdingsLoading = false;
    if (r.ok) {
      this.holdings = r.value;
      this.holdingsError = undefined;
    } else this.holdingsError = r.error;
  }

  /** Reads funds now (between the watcher's reads, e.g. when the Funds tab opens). */
  async loadFunds(): Promise<void> {
    const r = await this.#bridge.invoke('books.funds');
    if (r.ok) {
      this.funds = r.value;
      this.fundsError = undefined;
    } else this.fundsError = r.error;
  }
}

const seqOf = (payload: unknown): number => (payload as { seq: number }).seq;

export function countOrders(orders: readonly OrderSnapshot[]): OrderCounts {
  const counts = Object.fromEntries(ORDER_FILTERS.map((f) => [f, 0])) as OrderCounts;
  counts.all = orders.length;
  for (const o of orders) {
    const f = orderFilterOf(o.status);
    if (f) counts[f] += 1;
  }
  return counts;
}
