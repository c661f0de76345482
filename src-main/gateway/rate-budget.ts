// One request budget per gateway (architecture rule 5), shaped like the gateway's own limiter
// (gateway-behaviour §1.6): a moving window of a second per limiter class — order mutations, smart
// orders, everything else ('api') — each allowing `perSecond` requests. A request counts only against
// its class's window, as it does at the gateway, so polling that fills the api window never takes a
// placeorder's slot. The gateway stamps a request when it handles it, somewhere between our send and
// our receipt of the answer, so a slot is held while the request is in flight and for a full window
// after its answer: then no two stamps of N+1 requests of one class can fall within one second of the
// gateway's clock, however slow it is. Within a window, waiting callers form a priority queue by lane:
// order mutations, then the reads an order waits on (its risk check's quote), then reads the trader
// asked for, then background polling; only the order path may take a window's last slot (on rates
// above 2 a second), so an order's reads never wait behind a burst of polls that are in flight or just
// answered. While the trader is reading (a read of theirs holds a slot of the window), background
// polling also leaves READ_SHARE of the window to the trader's reads (on rates of 5 a second and
// more), so a chain or chart load that follows another never waits for polls to age out of the
// window; with no read of theirs in the window, polling may use all but the order path's slot. Polling
// always keeps BACKGROUND_FLOOR of the window, so fills are still seen while the trader reads hard.
// These rules are checked only when a caller asks or a slot frees: an idle window has no timer.
import type { Clock } from './clock.js';
import type { LimiterClass } from './limiter-classes.js';

/**
 * Whom a request serves, most urgent first: an order's mutation; a read an order is waiting on (the
 * risk check's quote); a read the trader asked for; background polling (watcher, market watch).
 */
export type Priority = 'mutation' | 'order' | 'read' | 'background';

const RANK: Record<Priority, number> = { mutation: 0, order: 1, read: 2, background: 3 };
/** Ranks of the order path: they go first and may take the reserved slot. */
const ORDER_PATH = RANK.order;

/** Share of a window background polling leaves to the trader's reads while the trader is reading. */
export const READ_SHARE = 0.4;
/** Share of a window background polling keeps however much the trader reads (fills are still seen). */
export const BACKGROUND_FLOOR = 0.3;
/** Below this rate a window is too small to share: polling keeps all but the order path's slot. */
const SHARED_FROM_RATE = 5;

/** Call when the request's exchange is over (answered or failed); later calls are ignored. */
export type Release = () => void;

/** Slots of a window kept for the order path: other reads wait rather than take them. */
export const RESERVED_FOR_MUTATIONS = 1;

interface Waiter {
  rank: number;
  seq: number;
  grant: (release: Release) => void;
}

interface Slot {
  /** When the slot frees; Infinity while the request is in flight. */
  until: number;
  /** Whom the request served. */
  rank: number;
}

/** One moving window of the gateway's limiter: at most `perSecond` requests in any `windowMs`. */
export class RateWindow {
  private slots: Slot[] = [];
  private readonly queue: Waiter[] = [];
  private seq = 0;
  private cancelTimer: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    /** Requests per window; 0 or Infinity disables the window. */
    readonly perSecond = 10,
    private readonly windowMs = 1000,
  ) {}

  /** Resolves when the caller may send one request, with the function to call once it is over. */
  acquire(priority: Priority): Promise<Release> {
    if (!(this.perSecond > 0) || this.perSecond === Infinity) return Promise.resolve(() => undefined);
    return new Promise((grant) => {
      this.queue.push({ rank: RANK[priority], seq: this.seq++, grant });
      this.pump();
    });
  }

  /** Slots only the order path may take. */
  private get reserved(): number {
    return this.perSecond > 2 ? RESERVED_FOR_MUTATIONS : 0;
  }

  /** Slots a waiter of `rank` may not take now: the order path's, and the trader's while they read. */
  private keptFrom(rank: number): number {
    if (rank <= ORDER_PATH) return 0;
    if (rank < RANK.background || this.perSecond < SHARED_FROM_RATE) return this.reserved;
    let reads = 0;
    let polls = 0;
    for (const slot of this.slots) {
      if (slot.rank === RANK.read) reads++;
      else if (slot.rank === RANK.background) polls++;
    }
    if (reads === 0 || polls < Math.floor(this.perSecond * BACKGROUND_FLOOR)) return this.reserved;
    return this.reserved + Math.floor(this.perSecond * READ_SHARE);
  }

  /** Callers waiting for a grant. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Requests that could start now without waiting (Infinity when the window is disabled). */
  get free(): number {
    if (!(this.perSecond > 0) || this.perSecond === Infinity) return Infinity;
    const now = this.clock.now();
    return this.perSecond - this.slots.filter((slot) => slot.until > now).length;
  }

  private pump(): void {
    const now = this.clock.now();
    this.slots = this.slots.filter((slot) => slot.until > now);
    while (this.queue.length > 0 && this.slots.length < this.perSecond) {
      let best = 0;
      for (let i = 1; i < this.queue.length; i++) {
        const a = this.queue[i];
        const b = this.queue[best];
        if (a && b && (a.rank < b.rank || (a.rank === b.rank && a.seq < b.seq))) best = i;
      }
      // The best waiter is off the order path only when no order waits: it may not take a reserved
      // slot, and background polling only when no read of the trader's waits (then it leaves their share).
      const rank = this.queue[best]?.rank ?? ORDER_PATH;
      if (this.slots.length >= this.perSecond - this.keptFrom(rank)) break;
      const [waiter] = this.queue.splice(best, 1);
      const slot: Slot = { until: Infinity, rank };
      this.slots.push(slot);
      waiter?.grant(() => {
        if (slot.until !== Infinity) return;
        slot.until = this.clock.now() + this.windowMs;
        this.pump();
      });
    }
    if (this.queue.length === 0 || this.cancelTimer) return;
    // Full: wake when the first finished slot frees (a release while all are in flight pumps too).
    const next = Math.min(...this.slots.map((slot) => slot.until));
    if (next === Infinity) return;
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = undefined;
      this.pump();
    }, next - now);
  }
}

/** The gateway's budget: one window per limiter class, each at the same per-second rate. */
export class RateBudget {
  private readonly windows: Record<LimiterClass, RateWindow>;

  constructor(
    clock: Clock,
    /** Requests per window of each class; 0 or Infinity disables the budget. */
    readonly perSecond = 10,
    windowMs = 1000,
  ) {
    this.windows = {
      order: new RateWindow(clock, perSecond, windowMs),
      smart: new RateWindow(clock, perSecond, windowMs),
      api: new RateWindow(clock, perSecond, windowMs),
    };
  }

  /** Resolves when one request of `limiterClass` may be sent, ranked in that window by `priority`. */
  acquire(limiterClass: LimiterClass, priority: Priority): Promise<Release> {
    return this.windows[limiterClass].acquire(priority);
  }

  /** The window requests of `limiterClass` count against. */
  window(limiterClass: LimiterClass): RateWindow {
    return this.windows[limiterClass];
  }
}
