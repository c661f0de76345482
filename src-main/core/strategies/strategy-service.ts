// Over 300 lines: the strategies' turns, their loading, and the seven actions the router calls.
// Options strategies per profile (issue 27, docs/strategies.md): saved before anything is sent, their
// legs sent one at a time through the router, followed as one from the legs' trades (their P&L, the
// combined stop and target that exit them as one basket), a leg rolled to another contract. Books,
// prices and the trader's actions take turns per profile; only the active profile's strategies send.
import { randomBytes } from 'node:crypto';
import type {
  OrderReconciledEvent,
  OrderSnapshot,
  PositionView,
  StoredStrategy,
  StoredStrategyExit,
  StoredStrategyLeg,
  StrategyRollInput,
  StrategySendInput,
  StrategyUpdateInput,
  StrategyView,
  TradeRow,
} from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import { rupeeText } from './exact-money.js';
import { exitRows, sendExitBasket } from './exit-basket.js';
import { sendLegs, tagOf, type Invoke } from './leg-sends.js';
import { sendRoll } from './leg-roll.js';
import { sendOrder } from './leg-order.js';
import { OPTION_EXCHANGES, parseOptionSymbol } from './option-symbol.js';
import { restored, type StrategyStore } from './strategy-store.js';
import {
  figuresOf,
  legKey,
  strategyView,
  tradesBehind,
  type Figures,
  type PriceOf,
} from './strategy-view.js';
import { reached } from './strategy-pnl.js';

export type StrategyAnswer =
  { ok: true; view: StrategyView } | { ok: false; kind: 'invalid_input' | 'conflict'; message: string };

export interface StrategyService {
  send(profileId: string, input: StrategySendInput): Promise<StrategyAnswer>;
  resume(profileId: string, id: string): Promise<StrategyAnswer>;
  exit(profileId: string, id: string): Promise<StrategyAnswer>;
  roll(profileId: string, input: StrategyRollInput): Promise<StrategyAnswer>;
  update(profileId: string, input: StrategyUpdateInput): Promise<StrategyAnswer>;
  remove(
    profileId: string,
    id: string,
  ): Promise<{ ok: true } | { ok: false; kind: 'invalid_input' | 'conflict'; message: string }>;
  views(profileId: string): StrategyView[];
}

/** The books of a profile as last read; trades null before the first read. */
export interface StrategyBooks {
  orders: readonly OrderSnapshot[];
  trades: readonly TradeRow[] | null;
  positions: readonly PositionView[];
}

export interface StrategyDeps {
  invoke: Invoke;
  activeProfileId(): string | undefined;
  /** The profile's books as the watcher last read them; undefined when it is not the active one. */
  books(profileId: string): StrategyBooks | undefined;
  /** Reads the active profile's books now (their `books.*` events come back through onBooks). */
  refreshBook(): Promise<void>;
  clock: Clock;
  logger: Logger;
  /** A sticky OS notification: a stop or target fired, an exit refused. */
  notify(n: { title: string; body: string; id: string }): void;
  store?: StrategyStore;
  /** A profile's strategies changed (sent whole). */
  onViews?(profileId: string, strategies: StrategyView[]): void;
  /** Prices of these contracts are wanted (their `market.ltp` events feed onPrice). */
  watchPrices?(list: { symbol: string; exchange: string }[]): void;
  newId?(): string;
  /** How the journal settled a lost send, once it has (undefined while in doubt). */
  settled?(journalId: string): Settled | undefined;
}

/** A lost send as the order book settled it (`orders.reconciled`, or the journal's resolution). */
export type Settled = Pick<OrderReconciledEvent, 'journalId' | 'found' | 'orderid' | 'orderids' | 'message'>;

export interface StrategyCore extends StrategyService {
  /** The profile's books changed: P&L, closes and the stop and target looked at again. */
  onBooks(profileId: string): Promise<void>;
  onPrice(profileId: string, symbol: string, exchange: string, ltp: number): Promise<void>;
  /** An unknown outcome settled from the book: a lost leg or basket adopts its orders. */
  onReconciled(e: OrderReconciledEvent): Promise<void>;
  /** Writes every profile's strategies as they are now (the core stopping). */
  flush(): Promise<void>;
}

interface Kept {
  list: StoredStrategy[];
  prices: Map<string, number>;
  chain: Promise<unknown>;
  shown: string;
  saved: string;
}

type Fail = { ok: false; kind: 'invalid_input' | 'conflict'; message: string };
const invalid = (message: string): Fail => ({ ok: false, kind: 'invalid_input', message });
const conflict = (message: string): Fail => ({ ok: false, kind: 'conflict', message });
const WORKING = new Set(['open', 'trigger pending']);
/** How long the book must not show a crashed leg's order before it counts as not sent. */
const LOST_MS = 10_000;
const legName = (l: StoredStrategyLeg) => `${l.action} ${l.symbol}`;

export function createStrategyService(d: StrategyDeps): StrategyCore {
  const kept = new Map<string, Kept>();
  /** When the book was first read without a crashed leg's order (clock ms). */
  const unseen = new WeakMap<StoredStrategyLeg, number>();
  const newId = d.newId ?? (() => `${d.clock.now().toString(36)}-${randomBytes(3).toString('hex')}`);

  function keptOf(profileId: string): Kept {
    let k = kept.get(profileId);
    if (k) return k;
    const saved = d.store?.load(profileId) ?? { strategies: [] };
    if (saved.damaged) {
      d.logger.error('strategies: the saved strategies could not be read', { profileId, ...saved.damaged });
      d.notify({
        title: 'The saved strategies could not be read',
        body: `${saved.damaged.reason}; the file was kept as ${saved.damaged.keptAs}. Check the positions at the gateway.`,
        id: `strategies-damaged-${profileId}`,
      });
    }
    const list = saved.strategies.map(restored);
    k = { list, prices: new Map(), chain: Promise.resolve(), shown: '', saved: JSON.stringify(list) };
    kept.set(profileId, k);
    if (list.length) d.logger.info(`strategies: ${list.length} saved strateg(ies) loaded`, { profileId });
    return k;
  }

  const save = (profileId: string, k: Kept) =>
    d.store ? d.store.save(profileId, () => k.list) : Promise.resolve();

  function priceOf(profileId: string, k: Kept): PriceOf {
    const positions = d.books(profileId)?.positions ?? [];
    return (symbol, exchange) =>
      k.prices.get(`${exchange}:${symbol}`) ??
      positions.find((p) => p.symbol === symbol && p.exchange === exchange && p.ltp !== null)?.ltp ??
      null;
  }

  function figures(profileId: string, k: Kept, s: StoredStrategy): Figures {
    return figuresOf(s, d.books(profileId)?.trades ?? [], priceOf(profileId, k));
  }

  /** Why the legs' open units cannot be known from the trades now, or undefined. */
  function lagging(profileId: string, s: StoredStrategy): string | undefined {
    const books = d.books(profileId);
    const behind = tradesBehind(s, books?.orders ?? [], books?.trades ?? []);
    if (!behind.length) return undefined;
    return `the trade book does not show every fill of ${behind.join(', ')} yet (the order book does)`;
  }

  const viewOf = (profileId: string, k: Kept, s: StoredStrategy) =>
    strategyView(s, figures(profileId, k, s), priceOf(profileId, k));

  /** After each turn: the views (when changed), the file (when changed), the prices wanted. */
  function after(profileId: string, k: Kept): void {
    const views = k.list.map((s) => viewOf(profileId, k, s));
    const shown = JSON.stringify(views);
    if (shown !== k.shown) {
      k.shown = shown;
      d.onViews?.(profileId, views);
    }
    const stored = JSON.stringify(k.list);
    if (stored !== k.saved) {
      k.saved = stored;
      void save(profileId, k).catch((err: unknown) =>
        d.logger.error('strategies: the strategies could not be saved', { profileId, error: String(err) }),
      );
    }
    if (d.activeProfileId() !== profileId) return;
    const wanted = new Map<string, { symbol: string; exchange: string }>();
    for (const s of k.list) {
      if (s.state === 'closed') continue;
      const f = figures(profileId, k, s);
      s.legs.forEach((l, i) => {
        if (f.legs[i]!.open !== 0) wanted.set(legKey(l), { symbol: l.symbol, exchange: l.exchange });
      });
    }
    d.watchPrices?.([...wanted.values()]);
  }

  function turn<T>(profileId: string, work: (k: Kept) => Promise<T>): Promise<T> {
    const k = keptOf(profileId);
    const run = async () => {
      try {
        return await work(k);
      } finally {
        after(profileId, k);
      }
    };
    const p = k.chain.then(run, run);
    k.chain = p.catch(() => undefined);
    return p;
  }

  /** A book or price the strategies could not act on: logged (its event has no one to answer). */
  const failed = (profileId: string) => (err: unknown) =>
    d.logger.error('strategies: a book or price could not be acted on', { profileId, error: String(err) });

  const ports = (profileId: string, k: Kept) => ({
    invoke: d.invoke,
    save: () => save(profileId, k),
    active: () => d.activeProfileId() === profileId,
  });

  /** A lost send settled from the book: the leg or the exit takes its orders (or learns none went). */
  function adopt(k: Kept, e: Settled): void {
    for (const s of k.list) {
      for (const l of s.legs) {
        if (l.journalId !== e.journalId) continue;
        delete l.journalId;
        if (e.found && e.orderid) {
          l.orderids.push(e.orderid);
          if (l.state === 'unknown') {
            l.state = 'sent';
            delete l.reason;
          }
        } else if (l.state === 'unknown') {
          l.state = 'refused';
          l.reason = `the book shows it was not placed: ${e.message}`;
        }
      }
      if (s.exit?.journalId !== e.journalId) continue;
      delete s.exit.journalId;
      s.exit.orderids.push(...(e.orderids ?? (e.orderid ? [e.orderid] : [])));
      s.exit.note = `the basket's answer was lost; the book showed ${e.found ? 'it placed' : 'it not placed, or in part'}: ${e.message}`;
      // Nothing of it reached the book: the trader may exit again.
      if (!e.found && !s.exit.orderids.length && s.state === 'exiting') {
        s.state = 'exitFailed';
        s.exit.refused.push('the book shows the basket was not placed');
      }
    }
  }

  /** Lost sends the journal has settled since (a reconciliation heard by an earlier run). */
  function adoptSettled(k: Kept): void {
    if (!d.settled) return;
    const lost = k.list.flatMap((s) => [...s.legs.map((l) => l.journalId), s.exit?.journalId]);
    for (const id of lost) {
      const e = id === undefined ? undefined : d.settled(id);
      if (e) adopt(k, e);
    }
  }

  /**
   * Legs a crash left in doubt (saved `sending`, no journal entry to settle them): adopted from an
   * order of the book with their shape and the strategy's tag that no leg holds; the book not showing
   * one for LOST_MS, it did not go (refused: resume may send it).
   */
  function settleCrashed(k: Kept, orders: readonly OrderSnapshot[]): void {
    const taken = new Set(
      k.list.flatMap((s) => [...s.legs.flatMap((l) => l.orderids), ...(s.exit?.orderids ?? [])]),
    );
    const find = (s: StoredStrategy, l: StoredStrategyLeg, action: string, quantity: number) =>
      orders.find(
        (o) =>
          !taken.has(o.orderid) &&
          o.symbol === l.symbol &&
          o.exchange === l.exchange &&
          o.action === action &&
          o.quantity === quantity &&
          (o.strategy === undefined || o.strategy === tagOf(s)),
      );
    /** True once the book has not shown the order for LOST_MS. */
    const gone = (l: StoredStrategyLeg) => {
      const since = unseen.get(l) ?? d.clock.now();
      unseen.set(l, since);
      if (d.clock.now() - since < LOST_MS) return false;
      unseen.delete(l);
      return true;
    };
    for (const s of k.list) {
      // An exit basket sent just before a crash (no answer, no journal entry): its rows are the
      // MARKET orders with the strategy's tag on its legs' contracts that no leg holds.
      if (s.state === 'exiting' && s.exit && !s.exit.orderids.length && s.exit.journalId === undefined) {
        const rows = orders.filter(
          (o) =>
            !taken.has(o.orderid) &&
            o.pricetype === 'MARKET' &&
            o.strategy === tagOf(s) &&
            s.legs.some((l) => l.symbol === o.symbol && l.exchange === o.exchange),
        );
        for (const o of rows) taken.add(o.orderid);
        s.exit.orderids.push(...rows.map((o) => o.orderid));
      }
      for (const l of s.legs) {
        // A roll's close in doubt: adopted, or (not in the book) the leg was never rolled.
        if (l.closing !== undefined && l.journalId === undefined) {
          const row = find(s, l, l.closing > 0 ? 'SELL' : 'BUY', Math.abs(l.closing));
          if (row) {
            taken.add(row.orderid);
            l.orderids.push(row.orderid);
            delete l.closing;
            unseen.delete(l);
          } else if (gone(l)) {
            delete l.closing;
            delete l.rolled;
            l.reason = `its roll's close did not go: the order book has not shown it for ${LOST_MS / 1000} s`;
          }
          continue;
        }
        if (l.state !== 'unknown' || l.journalId !== undefined) continue;
        const row = find(s, l, l.action, l.quantity);
        if (row) {
          taken.add(row.orderid);
          l.orderids.push(row.orderid);
          l.state = row.status === 'rejected' ? 'refused' : 'sent';
          if (l.state === 'refused') l.reason = row.rejectionReason || 'the gateway rejected it';
          else delete l.reason;
          unseen.delete(l);
          continue;
        }
        if (!gone(l)) continue;
        l.state = 'refused';
        l.reason = `the order book has not shown it for ${LOST_MS / 1000} s: it did not go`;
      }
    }
  }

  /** Closes what the trades show flat, and exits a strategy whose P&L reached its stop or target. */
  async function review(profileId: string, k: Kept): Promise<void> {
    const books = d.books(profileId);
    // Nothing is judged before the trades are read (a restart's first moments read as flat).
    if (!books?.trades) return;
    adoptSettled(k);
    settleCrashed(k, books.orders);
    for (const s of k.list) {
      // Trades behind the order book: open units, P&L and flatness wait for them.
      if (lagging(profileId, s)) continue;
      const f = figures(profileId, k, s);
      s.legs.forEach((l, i) => {
        if (l.rolled && l.state !== 'closed' && f.legs[i]!.open === 0) l.state = 'closed';
      });
      if (s.state === 'exiting' && f.legs.every((x) => x.open === 0)) {
        s.state = 'closed';
        d.logger.info('strategies: closed, every leg flat', { profileId, id: s.id });
      }
      if (s.state !== 'open' || d.activeProfileId() !== profileId) continue;
      const why = reached(f.total.pnl, s.stop, s.target);
      if (!why) continue;
      const pnl = rupeeText(f.total.pnl!);
      d.logger.warn(`strategies: the ${why} of ${s.name} fired at ₹${pnl}; exiting every leg`, {
        profileId,
        id: s.id,
      });
      d.notify({
        title: `${s.name}: ${why} reached at ₹${pnl}`,
        body: `Every leg is being exited at MARKET as one basket (${why} ₹${why === 'stop' ? s.stop : s.target}).`,
        id: `strategy-${s.id}-${why}`,
      });
      await exitNow(profileId, k, s, why, pnl);
    }
  }

  /** The exit, in the profile's turn: cancels, then one basket saved before it goes. */
  async function exitNow(
    profileId: string,
    k: Kept,
    s: StoredStrategy,
    why: 'stop' | 'target' | 'trader' | 'unwind',
    pnl?: string,
  ): Promise<string | undefined> {
    await d.refreshBook();
    let books = d.books(profileId);
    if (!books?.trades) return 'the books could not be read: nothing was sent';
    const ids = new Set(s.legs.flatMap((l) => l.orderids));
    const working = books.orders.filter((o) => ids.has(o.orderid) && WORKING.has(o.status));
    for (const o of working) {
      const r = await d.invoke('orders.cancel', { orderid: o.orderid, strategy: tagOf(s) });
      if (!r.ok)
        d.logger.warn('strategies: a leg order could not be cancelled', {
          id: s.id,
          orderid: o.orderid,
          reason: r.error.message,
        });
    }
    if (working.length) {
      await d.refreshBook();
      books = d.books(profileId) ?? books;
      const still = books.orders.filter((o) => ids.has(o.orderid) && WORKING.has(o.status));
      if (still.length)
        return `${still.map((o) => o.orderid).join(', ')} still working after the cancel: nothing was exited`;
    }
    const lag = lagging(profileId, s);
    if (lag) return `${lag}: nothing was sent; exit again once it does`;
    const rows = exitRows(
      s,
      figures(profileId, k, s).legs.map((l) => l.open),
    );
    const exit: StoredStrategyExit = {
      why,
      at: d.clock.now(),
      ...(pnl !== undefined ? { pnl } : {}),
      orderids: [],
      refused: [],
    };
    const before = { state: s.state, exit: s.exit };
    s.exit = exit;
    if (!rows.length) {
      s.state = 'closed';
      return undefined;
    }
    s.state = 'exiting';
    try {
      await save(profileId, k);
    } catch (err) {
      Object.assign(s, before);
      return `the exit could not be saved (${String(err)}): nothing was sent`;
    }
    await sendExitBasket(d.invoke, s, exit, rows);
    if (exit.refused.length) {
      s.state = 'exitFailed';
      d.logger.error('strategies: an exit was refused', { profileId, id: s.id, refused: exit.refused });
      d.notify({
        title: `${s.name}: an exit was refused`,
        body: `${exit.refused.join('; ')}. Exit the rest by hand from the positions.`,
        id: `strategy-${s.id}-exit`,
      });
    } else if (exit.note) {
      d.logger.warn(`strategies: ${s.name}: ${exit.note}`, { profileId, id: s.id });
    }
    await save(profileId, k).catch(() => undefined);
    await d.refreshBook();
    return undefined;
  }

  /** A trader's action on one strategy, answered with its view after the books were read again. */
  async function act(
    profileId: string,
    id: string,
    work: (k: Kept, s: StoredStrategy) => Promise<Fail | undefined>,
  ): Promise<StrategyAnswer> {
    const found = keptOf(profileId).list.find((s) => s.id === id);
    if (!found) return invalid(`no strategy ${id}`);
    // Acted on against the book as it is now: a lost leg it has settled since no longer blocks.
    await d.refreshBook();
    const failed = await turn(profileId, async (k) => {
      await review(profileId, k);
      return work(k, found);
    });
    if (failed) return failed;
    await d.refreshBook();
    return turn(profileId, async (k) => {
      await review(profileId, k);
      return { ok: true as const, view: viewOf(profileId, k, found) };
    });
  }

  function validLeg(l: { symbol: string; exchange: string }): { underlying: string } | string {
    if (!OPTION_EXCHANGES.has(l.exchange))
      return `${l.symbol} is on ${l.exchange}: a strategy's legs are options (NFO, BFO, MCX, CDS)`;
    const c = parseOptionSymbol(l.symbol);
    if (!c) return `${l.symbol} is not an option contract (UNDERLYING DDMMMYY STRIKE CE/PE)`;
    return { underlying: c.underlying };
  }

  return {
    async send(profileId, input) {
      let underlying: string | undefined;
      for (const l of input.legs) {
        const v = validLeg(l);
        if (typeof v === 'string') return invalid(v);
        if (underlying !== undefined && v.underlying !== underlying)
          return invalid(`every leg must be an option of one underlying: ${underlying} and ${v.underlying}`);
        underlying = v.underlying;
        if (l.quantity % l.lotSize !== 0)
          return invalid(`${l.symbol}: quantity ${l.quantity} is not a whole number of lots of ${l.lotSize}`);
        if (l.pricetype === 'LIMIT' && !((l.price ?? 0) > 0))
          return invalid(`${l.symbol}: a LIMIT leg needs a price`);
      }
      const name = input.name.trim();
      const s: StoredStrategy = {
        id: newId(),
        name,
        tag: tagOf({ name }),
        product: input.product,
        underlying: underlying!,
        createdAt: d.clock.now(),
        state: 'sending',
        legs: input.legs.map((l) => ({
          symbol: l.symbol.trim().toUpperCase(),
          exchange: l.exchange,
          action: l.action.toUpperCase() as 'BUY' | 'SELL',
          quantity: l.quantity,
          lotSize: l.lotSize,
          pricetype: l.pricetype ?? 'MARKET',
          price: l.pricetype === 'LIMIT' ? (l.price ?? 0) : 0,
          state: 'waiting',
          orderids: [],
        })),
        ...(input.stop !== undefined ? { stop: input.stop } : {}),
        ...(input.target !== undefined ? { target: input.target } : {}),
      };
      const k = keptOf(profileId);
      await turn(profileId, async () => {
        k.list.push(s);
        // Saved before anything is sent: a restart knows the strategy and which legs may have gone.
        await save(profileId, k);
        await sendLegs(ports(profileId, k), s, sendOrder(s.legs), false);
      });
      await d.refreshBook();
      return turn(profileId, async () => {
        await review(profileId, k);
        return { ok: true as const, view: viewOf(profileId, k, s) };
      });
    },

    resume: (profileId, id) =>
      act(profileId, id, async (k, s) => {
        if (s.state !== 'partial')
          return conflict(`${s.name} is ${s.state}: only a partial strategy resumes`);
        const lost = s.legs.find((l) => l.state === 'unknown');
        if (lost) return conflict(`${legName(lost)}'s outcome is not known yet; the book will tell`);
        const rest = sendOrder(s.legs).filter((i) => ['refused', 'waiting'].includes(s.legs[i]!.state));
        await sendLegs(ports(profileId, k), s, rest, true);
        return undefined;
      }),

    exit: (profileId, id) =>
      act(profileId, id, async (k, s) => {
        if (s.state === 'exiting')
          return conflict(`${s.name}'s exit basket already went: it is never sent twice; the book will tell`);
        if (s.state === 'sending')
          return conflict(`${s.name}'s legs are on their way: exit once they are answered`);
        if (s.state === 'closed') return conflict(`${s.name} holds nothing open`);
        // Its order may be at the gateway: exited without it, the strategy would read closed too soon.
        const lost = s.legs.find((l) => l.state === 'unknown');
        if (lost) return conflict(`${legName(lost)}'s outcome is not known yet; the book will tell`);
        const failed = await exitNow(profileId, k, s, s.state === 'partial' ? 'unwind' : 'trader');
        return failed ? conflict(failed) : undefined;
      }),

    roll: (profileId, input) =>
      act(profileId, input.id, async (k, s) => {
        if (s.state !== 'open' && s.state !== 'partial')
          return conflict(`${s.name} is ${s.state}: nothing to roll`);
        const leg = s.legs[input.leg];
        if (!leg) return invalid(`${s.name} has no leg ${input.leg}`);
        const to = { symbol: input.to.symbol.trim().toUpperCase(), exchange: input.to.exchange };
        const v = validLeg(to);
        if (typeof v === 'string') return invalid(v);
        if (v.underlying !== s.underlying) return invalid(`${to.symbol} is not an option of ${s.underlying}`);
        if (s.legs.some((l) => l.symbol === to.symbol && l.exchange === to.exchange))
          return invalid(`${to.symbol} is a leg already`);
        await d.refreshBook();
        if (!d.books(profileId)?.trades) return conflict('the books could not be read: nothing was sent');
        const lag = lagging(profileId, s);
        if (lag) return conflict(`${lag}: nothing was sent`);
        const open = figures(profileId, k, s).legs[input.leg]!.open;
        if (leg.state !== 'sent' || leg.rolled || open === 0)
          return conflict(`${legName(leg)} holds nothing open to roll`);
        const stopped = await sendRoll(ports(profileId, k), s, input.leg, to, open);
        return stopped ? conflict(stopped) : undefined;
      }),

    update: (profileId, input) =>
      act(profileId, input.id, async (_k, s) => {
        if (input.name !== undefined) s.name = input.name.trim();
        if (input.stop === null) delete s.stop;
        else if (input.stop !== undefined) s.stop = input.stop;
        if (input.target === null) delete s.target;
        else if (input.target !== undefined) s.target = input.target;
        return undefined;
      }),

    async remove(profileId, id) {
      const k = keptOf(profileId);
      if (!k.list.some((s) => s.id === id)) return invalid(`no strategy ${id}`);
      await d.refreshBook();
      return turn(profileId, async () => {
        const s = k.list.find((x) => x.id === id);
        if (!s) return invalid(`no strategy ${id}`);
        if (s.state === 'sending' || s.state === 'exiting')
          return conflict(`${s.name} is ${s.state}: wait for the book`);
        const books = d.books(profileId);
        if (!books?.trades) return conflict('the books could not be read: nothing was removed');
        const lag = lagging(profileId, s);
        if (lag) return conflict(`${lag}: nothing was removed`);
        if (figures(profileId, k, s).legs.some((l) => l.open !== 0))
          return conflict(`${s.name} holds open legs: exit it first`);
        const ids = new Set(s.legs.flatMap((l) => l.orderids));
        if (books.orders.some((o) => ids.has(o.orderid) && WORKING.has(o.status)))
          return conflict(`${s.name} has working orders: exit it first`);
        k.list.splice(k.list.indexOf(s), 1);
        await save(profileId, k);
        return { ok: true as const };
      });
    },

    views: (profileId) => {
      const k = keptOf(profileId);
      return k.list.map((s) => viewOf(profileId, k, s));
    },

    async flush() {
      await Promise.all(
        [...kept].map(([profileId, k]) =>
          save(profileId, k).catch((err: unknown) =>
            d.logger.error('strategies: the strategies could not be saved', {
              profileId,
              error: String(err),
            }),
          ),
        ),
      );
    },

    async onBooks(profileId) {
      // No strategy, nothing to review: an idle desk's polls cost the strategies nothing.
      if (!keptOf(profileId).list.length) return;
      await turn(profileId, (k) => review(profileId, k)).catch(failed(profileId));
    },

    async onPrice(profileId, symbol, exchange, ltp) {
      const k = kept.get(profileId);
      const key = `${exchange}:${symbol}`;
      if (!k?.list.some((s) => s.state !== 'closed' && s.legs.some((l) => legKey(l) === key))) return;
      k.prices.set(key, ltp);
      await turn(profileId, (x) => review(profileId, x)).catch(failed(profileId));
    },

    async onReconciled(e) {
      // Loaded first: a restarted core hears the reconciliation before anything else reads the file.
      const k = keptOf(e.profileId);
      if (!k.list.length) return;
      await turn(e.profileId, async () => {
        adopt(k, e);
        await review(e.profileId, k);
      }).catch(failed(e.profileId));
    },
  };
}
