// The core's brackets: one keeper per profile, fed the watcher's order books and the market's
// prices, sending its stops and targets through the router's own order channels (journal first, risk
// checks, the order rate budget, unknown outcomes settled from the book). A keeper only ever sends
// while its profile is the active one: after a switch its orders wait, never going to another
// profile's gateway. Brackets are saved before each send and re-attached from the file on the
// profile's first book after a start. Books, prices and the trader's actions take turns per profile.
import type { BracketFlattenResult, BracketView, IpcResult, OrderSnapshot } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import {
  createBracketKeeper,
  type BracketDone,
  type BracketEntry,
  type BracketHazard,
  type BracketKeeper,
  type ProtectiveOrder,
  type SendResult,
} from './bracket-keeper.js';
import type { BracketStore } from './bracket-store.js';
import { sendResultOf } from './send-outcome.js';

type OrderChannel = 'orders.place' | 'orders.modify' | 'orders.cancel';

export interface ProtectionDeps {
  invoke(channel: OrderChannel, input: object): Promise<IpcResult<{ orderid: string }>>;
  activeProfileId(): string | undefined;
  clock: Clock;
  logger: Logger;
  onHazard(profileId: string, hazard: BracketHazard): void;
  /** The saved brackets; without one, brackets last as long as the process. */
  store?: BracketStore;
  /** A profile's brackets changed (sent whole). */
  onViews?(profileId: string, brackets: BracketView[]): void;
  /** Prices of these symbols are wanted (the market watch's `market.ltp` events feed onPrice). */
  watchPrices?(symbols: { symbol: string; exchange: string }[]): void;
  /** Reads the active profile's order book now; its `books.orders` comes back through onOrders. */
  refreshBook?(): Promise<void>;
  /** Strategy tag of the protective orders (the journal and the book show it). */
  strategy?: string;
}

export type BracketAnswer = { ok: true; view: BracketView; note?: string } | { ok: false; message: string };

export interface ProtectionService {
  attach(profileId: string, entry: BracketEntry): Promise<void>;
  /** A book of the profile's orders, as the watcher read it. */
  onOrders(profileId: string, orders: readonly OrderSnapshot[]): Promise<void>;
  onPrice(profileId: string, symbol: string, exchange: string, ltp: number): Promise<void>;
  views(profileId: string): BracketView[];
  modify(profileId: string, entry: string, to: { stop?: number; target?: number }): Promise<BracketAnswer>;
  remove(profileId: string, entry: string): Promise<BracketAnswer>;
  retry(profileId: string, entry: string): Promise<BracketAnswer>;
  flatten(
    profileId: string,
    entry: string,
  ): Promise<({ ok: true } & BracketFlattenResult) | { ok: false; message: string }>;
}

/** Sent again once a look finds nothing changed: a leg that was not sent is planned again. */
const LOOK_AGAIN_MS = 1_000;

interface Kept {
  keeper: BracketKeeper;
  last: readonly OrderSnapshot[];
  chain: Promise<unknown>;
  shown: string;
}

export function createProtectionService(d: ProtectionDeps): ProtectionService {
  const strategy = d.strategy ?? 'OrderDesk protection';
  const keepers = new Map<string, Kept>();
  /** Profiles whose saved brackets were read (once per core life). */
  const loaded = new Set<string>();
  const lookAgain = new Set<string>();

  function create(profileId: string): Kept {
    const send = async (channel: OrderChannel, input: object): Promise<SendResult> => {
      if (d.activeProfileId() !== profileId)
        return { ok: false, outcome: 'not_sent', message: 'another profile is active' };
      return sendResultOf(await d.invoke(channel, input));
    };
    const leg = (o: ProtectiveOrder) => ({ ...o, strategy, disclosed_quantity: 0 });
    const keeper = createBracketKeeper(
      {
        // The keeper sends each leg once: the duplicate guard's hold is for a trader's second press.
        place: (o) => send('orders.place', { ...leg(o), confirmDuplicate: true }),
        modify: (o) => send('orders.modify', leg(o)),
        cancel: (orderid) => send('orders.cancel', { orderid, strategy }),
        ...(d.store
          ? { beforeSend: () => d.store!.save(profileId, () => keepers.get(profileId)!.keeper.snapshot()) }
          : {}),
      },
      (h) => d.onHazard(profileId, h),
    );
    const k: Kept = { keeper, last: [], chain: Promise.resolve(), shown: '[]' };
    keepers.set(profileId, k);
    return k;
  }

  /** The profile's keeper, made (and its saved brackets re-attached) on first need. */
  function keeperOf(profileId: string, make: boolean): Kept | undefined {
    const k = keepers.get(profileId);
    if (k) return k;
    if (!loaded.has(profileId) && d.store) {
      loaded.add(profileId);
      const saved = d.store.load(profileId);
      if (saved.damaged) {
        d.logger.error('protection: the saved brackets could not be read', { profileId, ...saved.damaged });
        d.onHazard(profileId, {
          kind: 'levels',
          entry: 'saved brackets',
          message: `The saved brackets could not be read (${saved.damaged.reason}); the file was kept as ${saved.damaged.keptAs}. Check the stops and targets resting at the gateway.`,
        });
      }
      if (saved.brackets.length) {
        const made = create(profileId);
        made.keeper.restore(saved.brackets);
        d.logger.info(`protection: ${saved.brackets.length} saved bracket(s) re-attached`, { profileId });
        return made;
      }
    }
    return make ? create(profileId) : undefined;
  }

  /** After each turn: the views (when changed), the prices wanted, the file. */
  function after(profileId: string, k: Kept): void {
    const views = k.keeper.views();
    const shown = JSON.stringify(views);
    if (shown !== k.shown) {
      k.shown = shown;
      d.onViews?.(profileId, views);
      if (d.store)
        void d.store
          .save(profileId, () => k.keeper.snapshot())
          .catch((err: unknown) =>
            d.logger.error('protection: the brackets could not be saved', { profileId, error: String(err) }),
          );
    }
    if (d.activeProfileId() === profileId) d.watchPrices?.(k.keeper.symbols());
  }

  /** Runs `work` in the profile's turn. */
  function turn<T>(profileId: string, k: Kept, work: () => Promise<T>): Promise<T> {
    const run = async () => {
      try {
        return await work();
      } finally {
        after(profileId, k);
      }
    };
    const p = k.chain.then(run, run);
    k.chain = p.catch(() => undefined);
    return p;
  }

  function look(profileId: string, orders: readonly OrderSnapshot[]): Promise<void> {
    // No bracket on this profile: nothing to do, no keeper made.
    const k = keeperOf(profileId, false);
    if (!k) return Promise.resolve();
    k.last = orders;
    return turn(profileId, k, async () => {
      const again = await k.keeper.onBook(orders).catch((err: unknown) => {
        d.logger.error('protection: a book could not be acted on', { profileId, error: String(err) });
        return true;
      });
      // Anything sent changes the book (a new one comes); a leg not sent does not: look again.
      if (!again || lookAgain.has(profileId)) return;
      lookAgain.add(profileId);
      d.clock.setTimer(() => {
        lookAgain.delete(profileId);
        void look(profileId, k.last);
      }, LOOK_AGAIN_MS);
    });
  }

  const noBracket = (entry: string) => ({
    ok: false as const,
    message: `order ${entry} has no protection attached`,
  });

  async function act(
    profileId: string,
    entry: string,
    work: (keeper: BracketKeeper) => Promise<BracketDone> | BracketDone,
    thenLook = false,
  ): Promise<BracketAnswer> {
    const k = keeperOf(profileId, false);
    if (!k) return noBracket(entry);
    const done = await turn(profileId, k, async () => work(k.keeper));
    if (!done.ok) return done;
    if (thenLook) await look(profileId, k.last);
    await refreshed(k);
    const view = k.keeper.views().find((v) => v.entry === entry);
    if (!view)
      return {
        ok: false,
        message: `the protection of order ${entry} ended: nothing of it works at the gateway`,
      };
    return { ok: true, view, ...(done.note ? { note: done.note } : {}) };
  }

  /** The book read again and looked at, so what the desk is told is the gateway's word. */
  async function refreshed(k: Kept): Promise<void> {
    await d.refreshBook?.();
    await k.chain;
  }

  return {
    async attach(profileId, entry) {
      const k = keeperOf(profileId, true)!;
      await turn(profileId, k, async () => {
        k.keeper.attach(entry);
        await d.store?.save(profileId, () => k.keeper.snapshot());
      });
    },
    onOrders: look,
    async onPrice(profileId, symbol, exchange, ltp) {
      const k = keepers.get(profileId);
      if (!k || d.activeProfileId() !== profileId) return;
      await turn(profileId, k, () => k.keeper.onPrice(symbol, exchange, ltp));
    },
    views: (profileId) => keeperOf(profileId, false)?.keeper.views() ?? [],
    modify: (profileId, entry, to) => act(profileId, entry, (keeper) => keeper.setLevels(entry, to)),
    async remove(profileId, entry) {
      const k = keeperOf(profileId, false);
      const before = k?.keeper.views().find((v) => v.entry === entry);
      const r = await act(profileId, entry, (keeper) => keeper.remove(entry));
      // Removed and its legs read back as ended: the bracket is gone, as asked.
      if (!r.ok && before && !k!.keeper.views().some((v) => v.entry === entry)) {
        const { stop: _s, target: _t, ...rest } = before;
        return { ok: true, view: { ...rest, state: 'closed' } };
      }
      return r;
    },
    retry: (profileId, entry) => act(profileId, entry, (keeper) => keeper.retry(entry), true),
    async flatten(profileId, entry) {
      const k = keeperOf(profileId, false);
      if (!k) return noBracket(entry);
      const removed = await turn(profileId, k, () => k.keeper.remove(entry, { flattenNext: true }));
      if (!removed.ok) return removed;
      await refreshed(k);
      return turn(profileId, k, () => k.keeper.flatten(entry));
    },
  };
}
