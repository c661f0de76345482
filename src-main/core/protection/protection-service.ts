// The core's brackets: per profile, a keeper of core-held brackets and one of GTT brackets, fed the
// watcher's order books (and the GTT book while a GTT bracket lives) and the market's prices, sending
// through the router's own order and GTT channels (journal first, risk checks, the order rate budget,
// unknown outcomes settled from the book). A keeper only ever sends while its profile is the active
// one: after a switch its orders wait, never going to another profile's gateway. Brackets are saved
// before each send and re-attached from the file on the profile's first book after a start. Books,
// prices and the trader's actions take turns per profile.
import type {
  BracketFlattenResult,
  BracketView,
  GttRecord,
  IpcResult,
  OrderSnapshot,
} from '../../contract/index.js';
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
import { createGttKeeper, gttUnfit, type GttKeeper, type GttOrder } from './gtt-keeper.js';
import { sendResultOf } from './send-outcome.js';

type OrderChannel = 'orders.place' | 'orders.modify' | 'orders.cancel';
type GttChannel = 'gtt.place' | 'gtt.modify' | 'gtt.cancel';

export interface ProtectionDeps {
  invoke(channel: OrderChannel, input: object): Promise<IpcResult<{ orderid: string }>>;
  invokeGtt?(channel: GttChannel, input: object): Promise<IpcResult<{ trigger_id: string }>>;
  /** The active profile's GTT book (active GTTs), read now; undefined when it could not be read. */
  readGtts?(): Promise<readonly GttRecord[] | undefined>;
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
type FlattenAnswer = ({ ok: true } & BracketFlattenResult) | { ok: false; message: string };

export interface ProtectionService {
  attach(profileId: string, entry: BracketEntry): Promise<BracketDone>;
  /** A book of the profile's orders, as the watcher read it. */
  onOrders(profileId: string, orders: readonly OrderSnapshot[]): Promise<void>;
  onPrice(profileId: string, symbol: string, exchange: string, ltp: number): Promise<void>;
  views(profileId: string): BracketView[];
  modify(profileId: string, entry: string, to: { stop?: number; target?: number }): Promise<BracketAnswer>;
  remove(profileId: string, entry: string): Promise<BracketAnswer>;
  retry(profileId: string, entry: string): Promise<BracketAnswer>;
  flatten(profileId: string, entry: string): Promise<FlattenAnswer>;
}

/** Sent again once a look finds nothing changed: a leg that was not sent is planned again. */
const LOOK_AGAIN_MS = 1_000;

interface Kept {
  keeper: BracketKeeper;
  gtt: GttKeeper;
  last: readonly OrderSnapshot[];
  chain: Promise<unknown>;
  shown: string;
}

const views = (k: Kept): BracketView[] => [...k.keeper.views(), ...k.gtt.views()];

export function createProtectionService(d: ProtectionDeps): ProtectionService {
  const strategy = d.strategy ?? 'OrderDesk protection';
  const keepers = new Map<string, Kept>();
  /** Profiles whose saved brackets were read (once per core life). */
  const loaded = new Set<string>();
  const lookAgain = new Set<string>();

  function create(profileId: string): Kept {
    const active = () => d.activeProfileId() === profileId;
    const notActive: SendResult = { ok: false, outcome: 'not_sent', message: 'another profile is active' };
    const send = async (channel: OrderChannel, input: object): Promise<SendResult> =>
      active() ? sendResultOf(await d.invoke(channel, input)) : notActive;
    const sendGtt = async (channel: GttChannel, input: object): Promise<SendResult> => {
      if (!active()) return notActive;
      if (!d.invokeGtt) return { ok: false, outcome: 'refused', message: 'this desk has no GTT channel' };
      const r = await d.invokeGtt(channel, input);
      return sendResultOf(r.ok ? { ok: true, value: { orderid: r.value.trigger_id } } : r);
    };
    const leg = (o: ProtectiveOrder) => ({ ...o, strategy, disclosed_quantity: 0 });
    const gttOf = (o: GttOrder) => ({
      trigger_type: 'OCO',
      symbol: o.symbol,
      exchange: o.exchange,
      action: 'SELL',
      product: o.product,
      quantity: o.quantity,
      pricetype: 'MARKET',
      price: o.stop,
      triggerprice_sl: o.stop,
      stoploss: o.stop,
      triggerprice_tg: o.target,
      target: o.target,
      strategy,
    });
    const save = () => d.store!.save(profileId, () => snapshotOf(keepers.get(profileId)!));
    const beforeSend = d.store ? { beforeSend: save } : {};
    const hazard = (h: BracketHazard) => d.onHazard(profileId, h);
    const keeper = createBracketKeeper(
      {
        // The keeper sends each leg once: the duplicate guard's hold is for a trader's second press.
        place: (o) => send('orders.place', { ...leg(o), confirmDuplicate: true }),
        modify: (o) => send('orders.modify', leg(o)),
        cancel: (orderid) => send('orders.cancel', { orderid, strategy }),
        ...beforeSend,
      },
      hazard,
    );
    const gtt = createGttKeeper(
      {
        place: (o) => sendGtt('gtt.place', { ...gttOf(o), confirmDuplicate: true }),
        modify: (o) => sendGtt('gtt.modify', { ...gttOf(o), trigger_id: o.trigger_id }),
        cancel: (triggerId) => sendGtt('gtt.cancel', { trigger_id: triggerId, strategy }),
        close: (o) =>
          send('orders.place', {
            ...o,
            action: 'SELL',
            pricetype: 'MARKET',
            price: 0,
            trigger_price: 0,
            strategy,
          }),
        ...beforeSend,
      },
      hazard,
    );
    const k: Kept = { keeper, gtt, last: [], chain: Promise.resolve(), shown: '[]' };
    keepers.set(profileId, k);
    return k;
  }

  const snapshotOf = (k: Kept) => ({ brackets: k.keeper.snapshot(), gtt: k.gtt.snapshot() });

  /** The profile's keepers, made (and its saved brackets re-attached) on first need. */
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
      if (saved.brackets.length || saved.gtt.length) {
        const made = create(profileId);
        made.keeper.restore(saved.brackets);
        made.gtt.restore(saved.gtt);
        d.logger.info(
          `protection: ${saved.brackets.length + saved.gtt.length} saved bracket(s) re-attached`,
          {
            profileId,
          },
        );
        return made;
      }
    }
    return make ? create(profileId) : undefined;
  }

  /** After each turn: the views (when changed), the prices wanted, the file. */
  function after(profileId: string, k: Kept): void {
    const now = views(k);
    const shown = JSON.stringify(now);
    if (shown !== k.shown) {
      k.shown = shown;
      d.onViews?.(profileId, now);
      if (d.store)
        void d.store
          .save(profileId, () => snapshotOf(k))
          .catch((err: unknown) =>
            d.logger.error('protection: the brackets could not be saved', { profileId, error: String(err) }),
          );
    }
    if (d.activeProfileId() === profileId) d.watchPrices?.([...k.keeper.symbols(), ...k.gtt.symbols()]);
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

  async function lookGtt(profileId: string, k: Kept, orders: readonly OrderSnapshot[]): Promise<void> {
    if (!k.gtt.views().length || d.activeProfileId() !== profileId) return;
    // The GTT book only while a GTT bracket has a GTT (or one in doubt): an unread book acts on nothing.
    const gtts = k.gtt.needsGttBook() ? await d.readGtts?.() : [];
    if (!gtts || !(await k.gtt.onBooks(orders, gtts))) return;
    // What it sent shows in the GTT book, not in the order book: read it once more.
    const after = await d.readGtts?.();
    if (after) await k.gtt.onBooks(orders, after);
  }

  function look(profileId: string, orders: readonly OrderSnapshot[]): Promise<void> {
    // No bracket on this profile: nothing to do, no keeper made.
    const k = keeperOf(profileId, false);
    if (!k) return Promise.resolve();
    k.last = orders;
    return turn(profileId, k, async () => {
      const fail = (err: unknown) => {
        d.logger.error('protection: a book could not be acted on', { profileId, error: String(err) });
        return true;
      };
      await lookGtt(profileId, k, orders).catch(fail);
      const again = await k.keeper.onBook(orders).catch(fail);
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
    work: (k: Kept) => Promise<BracketDone> | BracketDone,
    thenLook = false,
  ): Promise<BracketAnswer> {
    const k = keeperOf(profileId, false);
    if (!k) return noBracket(entry);
    // Acted on against the book as it is now, not as the last poll left it.
    await refreshed(k);
    const done = await turn(profileId, k, async () => work(k));
    if (!done.ok) return done;
    if (thenLook) await look(profileId, k.last);
    await refreshed(k);
    const view = views(k).find((v) => v.entry === entry);
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
      if (entry.kind === 'gtt') {
        const unfit = gttUnfit(entry);
        if (unfit) return { ok: false, message: unfit };
        if (!d.invokeGtt)
          return { ok: false, message: 'this gateway has no GTT orders: protect it core-held' };
      }
      const k = keeperOf(profileId, true)!;
      if (k.keeper.views().some((v) => v.entry === entry.orderid) || k.gtt.has(entry.orderid))
        return { ok: false, message: `order ${entry.orderid} already has a protection` };
      await turn(profileId, k, async () => {
        if (entry.kind === 'gtt') k.gtt.attach(entry);
        else k.keeper.attach(entry);
        await d.store?.save(profileId, () => snapshotOf(k));
      });
      return { ok: true };
    },
    onOrders: look,
    async onPrice(profileId, symbol, exchange, ltp) {
      const k = keepers.get(profileId);
      if (!k || d.activeProfileId() !== profileId) return;
      await turn(profileId, k, async () => {
        await k.keeper.onPrice(symbol, exchange, ltp);
        await k.gtt.onPrice(symbol, exchange, ltp);
      });
    },
    views: (profileId) => {
      const k = keeperOf(profileId, false);
      return k ? views(k) : [];
    },
    modify: (profileId, entry, to) =>
      act(profileId, entry, (k) => (k.gtt.has(entry) ? k.gtt : k.keeper).setLevels(entry, to)),
    async remove(profileId, entry) {
      const k = keeperOf(profileId, false);
      const before = k ? views(k).find((v) => v.entry === entry) : undefined;
      const r = await act(profileId, entry, (x) => (x.gtt.has(entry) ? x.gtt : x.keeper).remove(entry));
      // Removed and its legs read back as ended: the bracket is gone, as asked.
      if (!r.ok && before && !views(k!).some((v) => v.entry === entry)) {
        const { stop: _s, target: _t, ...rest } = before;
        return { ok: true, view: { ...rest, state: 'closed' } };
      }
      return r;
    },
    retry: (profileId, entry) =>
      act(profileId, entry, (k) => (k.gtt.has(entry) ? k.gtt : k.keeper).retry(entry), true),
    async flatten(profileId, entry) {
      const k = keeperOf(profileId, false);
      if (!k) return noBracket(entry);
      const which = k.gtt.has(entry) ? k.gtt : k.keeper;
      const removed = await turn(profileId, k, () => which.remove(entry, { flattenNext: true }));
      if (!removed.ok) return removed;
      await refreshed(k);
      return turn(profileId, k, () => which.flatten(entry));
    },
  };
}
