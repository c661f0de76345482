// Ticket actions as the desk sends them through the router: market and limit orders, modifies and
// cancels of orders still open, and refreshes. A seeded generator picks them, so a run is repeatable;
// the order ids the core acknowledged are kept, with what became of each, for the invariants.
import type { DeskSessionBase } from './desk-session.js';

export const STRESS_SYMBOLS = ['SBIN', 'TCS', 'INFY', 'RELIANCE', 'HDFCBANK', 'ITC'] as const;

/** mulberry32: small, seeded, good enough to pick actions. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type ActionKind = 'market' | 'limit' | 'modify' | 'cancel' | 'refresh';

export interface ActionTally {
  sent: Record<ActionKind, number>;
  /** Answered ok by the router. */
  ok: Record<ActionKind, number>;
  /** Refusals by error kind (a modify/cancel of an order that filled meanwhile is expected). */
  refused: Record<string, number>;
  /** Order ids acknowledged (placed), in order. */
  acknowledged: string[];
  /** Session-clock ms from invoke to answer, per order placement, in the order they were sent. */
  placeMs: number[];
}

export function newTally(): ActionTally {
  const zero = (): Record<ActionKind, number> => ({ market: 0, limit: 0, modify: 0, cancel: 0, refresh: 0 });
  return { sent: zero(), ok: zero(), refused: {}, acknowledged: [], placeMs: [] };
}

const TERMINAL = new Set(['orders.filled', 'orders.cancelled', 'orders.rejected']);

/** Order ids placed as resting limits and not yet seen filled, cancelled or rejected. */
export function openLimitIds(s: DeskSessionBase, limits: ReadonlySet<string>): string[] {
  const done = new Set<string>();
  for (const e of s.events) if (TERMINAL.has(e.name)) done.add(e.orderid);
  return [...limits].filter((id) => !done.has(id));
}

export interface ActionDriver {
  tally: ActionTally;
  /** Limit orders placed (ids), for modify/cancel targets. */
  limits: Set<string>;
  /** Sends one action of `kind` (a random one when omitted); resolves with the router's answer. */
  act(kind?: ActionKind): Promise<void>;
}

export function actionDriver(s: DeskSessionBase, random: () => number): ActionDriver {
  const tally = newTally();
  const limits = new Set<string>();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  /** A limit a little off the market (0.02–0.3 %), at tick: some fill within minutes, some rest. */
  const limitPrice = (symbol: string, buy: boolean, tighter = false) => {
    const tick = s.market.tickSize(symbol);
    const ltp = s.market.lastPrice(symbol);
    const off = (tighter ? 0.0002 : 0.0002 + random() * 0.003) * (buy ? -1 : 1);
    return Number((Math.round((ltp * (1 + off)) / tick) * tick).toFixed(4));
  };
  const note = (kind: ActionKind, r: { ok: true } | { ok: false; error: { kind: string } }) => {
    if (r.ok) tally.ok[kind] += 1;
    else tally.refused[r.error.kind] = (tally.refused[r.error.kind] ?? 0) + 1;
  };
  const placed = new Map<string, { symbol: string; action: 'BUY' | 'SELL' }>();

  async function act(kind?: ActionKind): Promise<void> {
    const open = openLimitIds(s, limits);
    let k: ActionKind =
      kind ?? pick(['market', 'market', 'limit', 'limit', 'limit', 'modify', 'cancel', 'refresh']);
    if ((k === 'modify' || k === 'cancel') && open.length === 0) k = 'limit';
    tally.sent[k] += 1;
    if (k === 'refresh') {
      note(k, await s.core.router.invoke('books.orders'));
      return;
    }
    if (k === 'market' || k === 'limit') {
      const symbol = pick(STRESS_SYMBOLS);
      const action = random() < 0.5 ? 'BUY' : 'SELL';
      const t0 = s.clock.now();
      const r = await s.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol,
        action,
        quantity: 1,
        product: 'MIS',
        ...(k === 'market'
          ? { pricetype: 'MARKET' }
          : { pricetype: 'LIMIT', price: limitPrice(symbol, action === 'BUY') }),
        confirmDuplicate: true,
      });
      tally.placeMs.push(s.clock.now() - t0);
      note(k, r);
      if (r.ok) {
        tally.acknowledged.push(r.value.orderid);
        placed.set(r.value.orderid, { symbol, action });
        if (k === 'limit') limits.add(r.value.orderid);
      }
      return;
    }
    const orderid = pick(open);
    const o = placed.get(orderid)!;
    if (k === 'cancel') {
      note(k, await s.core.router.invoke('orders.cancel', { orderid }));
      return;
    }
    note(
      k,
      await s.core.router.invoke('orders.modify', {
        orderid,
        exchange: 'NSE',
        symbol: o.symbol,
        action: o.action,
        quantity: 1,
        pricetype: 'LIMIT',
        price: limitPrice(o.symbol, o.action === 'BUY', true),
        product: 'MIS',
        trigger_price: 0,
        disclosed_quantity: 0,
        confirmDuplicate: true,
      }),
    );
  }
  return { tally, limits, act };
}
