// Over 300 lines: a GTT's place, modify, cancel, firing and margin reservation act on one book.
// The paper gateway's GTT (good-till-triggered) orders, as the live server's sandbox keeps them
// (gateway-behaviour "Live server, recorded"; upstream sandbox/gtt_manager.py), without its recorded
// bugs: a refused modify is a 4xx with a reason, and a cancel always releases what the GTT reserved.
//  - A GTT holds one leg (SINGLE → 'single') or two (OCO → 'two-leg': a stoploss leg that fires when
//    the price falls to triggerprice_sl and a target leg that fires when it rises to triggerprice_tg).
//  - Placing reserves margin: each leg's value at its limit (its trigger for MARKET) over the
//    product's leverage, the larger leg for an OCO (only one can fire). Positions and holdings are
//    not looked at, as the sandbox does; the order placed on firing is checked like any order.
//  - check() (each request to the engine's routes, and a timer while GTTs rest) fires every active
//    GTT whose trigger the simulator's price has reached: in one transaction the reservation is
//    released, the leg's order is placed through the engine (order book, feed order_update) and its
//    id recorded; an OCO's other leg is dropped with it. A GTT past its expiry is expired instead.
// Rows live in the ledger (gtt-store.ts), so they survive a restart and keep triggering after it.
import { randomBytes } from 'node:crypto';
import type { PlaceGttOrderRequest } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import type { Clock, Market } from '../market/market.js';
import type { EngineResult, OrderInput, PaperTradingEngine } from './engine.js';
import { GttStore, type GttLegRow, type GttRow } from './gtt-store.js';
import { istDayOf, istIdParts } from './ist-time.js';
import { leverageFor, type LeverageConfig } from './margin.js';
import { insufficientFunds, refuse } from './order-rules.js';
import { ceilDiv, toRupees, toUnits, toUnitsExact } from './units.js';
import { checkInstrument, checkShape, normalise, normaliseSymbol } from './validation.js';

/** A place request without the key; a modify is the same fields for an existing trigger id. */
export type GttRequest = Omit<PlaceGttOrderRequest, 'apikey'>;

export interface GttBookDeps {
  engine: PaperTradingEngine;
  master: InstrumentMaster;
  market: Market;
  clock: Clock;
  lev: LeverageConfig;
  /** Starting capital of an account, units (its row is created by its first GTT if need be). */
  capital: number;
}

/** A GTT rests for a year unless it fires first (Zerodha's rule, kept by the sandbox). */
export const GTT_LIFETIME_MS = 365 * 86_400_000;

export const noActiveGtt = (triggerId: string): string => `No active GTT with trigger_id '${triggerId}'`;

export class GttBook {
  private readonly store: GttStore;
  private timer: ReturnType<typeof setInterval> | undefined;
  private tickMs: number | undefined;

  constructor(private readonly d: GttBookDeps) {
    this.store = new GttStore(d.engine.ledger.db);
  }

  // ---- requests ----

  place(account: string, req: GttRequest): EngineResult<GttRow> {
    const built = this.legs(req);
    if (!built.ok) return built;
    const { inst, legs } = built.value;
    const now = this.d.clock.now();
    const margin = this.reservation(inst, legs);
    const out = this.d.engine.transaction((): EngineResult<GttRow> => {
      this.ensureAccount(account, now);
      const available = this.available(account);
      if (margin > available) return refuse(400, insufficientFunds(margin, available));
      const row: GttRow = {
        trigger_id: this.newId(now),
        account,
        strategy: req.strategy,
        trigger_type: req.trigger_type === 'OCO' ? 'two-leg' : 'single',
        exchange: inst.exchange,
        symbol: inst.symbol,
        status: 'active',
        last_price: toUnits(this.d.market.lastPrice(inst)),
        margin_blocked: margin,
        legs,
        created_ms: now,
        updated_ms: now,
        expires_ms: now + GTT_LIFETIME_MS,
      };
      this.d.engine.ledger.movement(
        account,
        now,
        'gtt-block',
        { available: -margin, used: margin },
        row.trigger_id,
      );
      this.store.insert(row);
      return { ok: true, value: row };
    });
    if (out.ok) this.arm();
    return out;
  }

  /** Replaces the prices, quantity, price type and product of an active GTT; the rest may not change. */
  modify(account: string, triggerId: string, req: GttRequest): EngineResult<GttRow> {
    const now = this.d.clock.now();
    return this.d.engine.transaction((): EngineResult<GttRow> => {
      const g = this.store.get(account, triggerId);
      if (!g || g.status !== 'active') return refuse(404, noActiveGtt(triggerId));
      const fixed = immutableChange(g, req);
      if (fixed) return refuse(400, fixed);
      const built = this.legs(req);
      if (!built.ok) return built;
      const { inst, legs } = built.value;
      const margin = this.reservation(inst, legs);
      const extra = margin - g.margin_blocked;
      const available = this.available(account);
      if (extra > available) return refuse(400, insufficientFunds(extra, available));
      if (extra !== 0) {
        const kind = extra > 0 ? 'gtt-block' : 'gtt-release';
        this.d.engine.ledger.movement(account, now, kind, { available: -extra, used: extra }, triggerId);
      }
      const next: GttRow = {
        ...g,
        legs,
        margin_blocked: margin,
        last_price: toUnits(this.d.market.lastPrice(inst)),
        updated_ms: now,
      };
      this.store.update(next);
      return { ok: true, value: next };
    });
  }

  /** Cancels an active GTT and releases everything it reserved, in the same transaction. */
  cancel(account: string, triggerId: string): EngineResult<GttRow> {
    const now = this.d.clock.now();
    return this.d.engine.transaction((): EngineResult<GttRow> => {
      const g = this.store.get(account, triggerId);
      if (!g || g.status !== 'active') return refuse(404, noActiveGtt(triggerId));
      const next = this.finish(g, 'cancelled', now, 'gtt-cancel');
      return { ok: true, value: next };
    });
  }

  list(account: string, filter: 'active' | 'all'): GttRow[] {
    this.check();
    return this.store.list(account, filter);
  }

  // ---- triggering ----

  /** Fires the GTTs whose trigger the price has reached and expires the old ones; returns how many acted. */
  check(): number {
    if (this.store.activeCount() === 0) return 0;
    const now = this.d.clock.now();
    let acted = 0;
    for (const g of this.store.active()) {
      if (now >= g.expires_ms) {
        this.d.engine.transaction(() => this.finish(g, 'expired', now, 'gtt-expire'));
        acted++;
        continue;
      }
      const inst = this.d.master.get(g.exchange, g.symbol);
      if (!inst) continue;
      const ltp = toUnits(this.d.market.lastPrice(inst));
      if (ltp <= 0) continue;
      const leg = g.legs.findIndex((l) =>
        l.direction === 'below' ? ltp <= l.trigger_price : ltp >= l.trigger_price,
      );
      if (leg < 0) continue;
      this.fire(g, leg, now);
      acted++;
    }
    return acted;
  }

  /** Releases the reservation and places the leg's order, all in one transaction. */
  private fire(g: GttRow, index: number, now: number): void {
    this.d.engine.transaction(() => {
      // Re-read inside the transaction: a request may have cancelled or modified it meanwhile.
      const current = this.store.get(g.account, g.trigger_id);
      if (!current || current.status !== 'active') return;
      const leg = current.legs[index];
      if (!leg) return;
      const released = this.finish(current, 'triggered', now, 'gtt-trigger');
      const placed = this.d.engine.placeOrder(current.account, legOrder(current, leg));
      const orderid = placed.ok ? placed.value.orderid : (placed.orderid ?? null);
      this.store.update({
        ...released,
        // A leg whose order the engine refused (funds, no cover to sell) leaves the GTT rejected.
        status: placed.ok ? 'triggered' : 'rejected',
        legs: released.legs.map((l, k) => (k === index ? { ...l, triggered_order_id: orderid } : l)),
      });
    });
  }

  /** Ends an active GTT with `status`, releasing its reservation (caller holds the transaction). */
  private finish(g: GttRow, status: GttRow['status'], now: number, kind: string): GttRow {
    const released = g.margin_blocked;
    this.d.engine.ledger.movement(
      g.account,
      now,
      kind,
      { available: released, used: -released },
      g.trigger_id,
    );
    const next: GttRow = { ...g, status, margin_blocked: 0, updated_ms: now };
    this.store.update(next);
    return next;
  }

  // ---- timer ----

  /** Checks every `intervalMs` while GTTs rest (a timer that does not keep the process alive). */
  startTicker(intervalMs = 250): void {
    this.stopTicker();
    this.tickMs = intervalMs;
    this.arm();
  }

  stopTicker(): void {
    this.tickMs = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.tickMs === undefined || this.timer || this.store.activeCount() === 0) return;
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch (err) {
        console.error('paper engine: GTT check failed', err);
      }
      if (this.store.activeCount() === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, this.tickMs);
    this.timer.unref();
  }

  // ---- parts ----

  /** The request's legs after the checks an order of each leg would get (product, lots, ticks). */
  private legs(req: GttRequest): EngineResult<{ inst: Instrument; legs: GttLegRow[] }> {
    const inst = this.d.master.get(req.exchange, normaliseSymbol(req.symbol));
    const base = {
      action: req.action,
      quantity: req.quantity,
      pricetype: req.pricetype,
      product: req.product,
    };
    const specs: { trigger: number; direction: GttLegRow['direction']; price: number }[] =
      req.trigger_type === 'OCO'
        ? [
            { trigger: req.triggerprice_sl, direction: 'below', price: req.stoploss },
            { trigger: req.triggerprice_tg, direction: 'above', price: req.target },
          ]
        : req.triggerprice_sl > 0
          ? [{ trigger: req.triggerprice_sl, direction: 'below', price: req.price }]
          : [{ trigger: req.triggerprice_tg, direction: 'above', price: req.price }];
    const legs: GttLegRow[] = [];
    for (const s of specs) {
      const input = normalise({
        ...base,
        strategy: req.strategy,
        exchange: req.exchange,
        symbol: req.symbol,
        price: s.price,
        trigger_price: s.trigger,
        disclosed_quantity: 0,
      });
      const bad = checkShape(input) ?? checkInstrument(input, inst);
      if (bad || !inst) return refuse(400, bad ?? `Symbol ${req.symbol} not found on ${req.exchange}`);
      legs.push({
        ...base,
        trigger_price: toUnitsExact(s.trigger) ?? toUnits(s.trigger),
        direction: s.direction,
        price: toUnitsExact(input.price) ?? toUnits(input.price),
        triggered_order_id: null,
      });
    }
    if (!inst) return refuse(400, `Symbol ${req.symbol} not found on ${req.exchange}`);
    return { ok: true, value: { inst, legs } };
  }

  /** Margin a GTT holds: each leg's value over its leverage, the larger of an OCO's two. */
  private reservation(inst: Instrument, legs: readonly GttLegRow[]): number {
    const each = legs.map((l) =>
      ceilDiv(
        l.quantity * (l.price > 0 ? l.price : l.trigger_price),
        leverageFor(this.d.lev, inst, l.product, l.action === 'BUY'),
      ),
    );
    return Math.max(0, ...each);
  }

  private available(account: string): number {
    return this.d.engine.ledger.account(account)?.available ?? this.d.capital;
  }

  /** An account's first act may be a GTT: its row must exist before margin moves. */
  private ensureAccount(account: string, now: number): void {
    if (this.d.engine.ledger.account(account)) return;
    this.d.engine.ledger.insertAccount({
      account,
      capital: this.d.capital,
      settled_day: istDayOf(now),
      created_ms: now,
    });
  }

  private newId(now: number): string {
    const day = istIdParts(now).ymd;
    for (;;) {
      const id = `GTT-${day}-${randomBytes(4).toString('hex')}`;
      if (!this.store.exists(id)) return id;
    }
  }
}

/** The order a fired leg places. */
function legOrder(g: GttRow, leg: GttLegRow): OrderInput {
  return {
    strategy: g.strategy,
    exchange: g.exchange,
    symbol: g.symbol,
    action: leg.action,
    quantity: leg.quantity,
    pricetype: leg.pricetype,
    product: leg.product,
    price: toRupees(leg.price),
    trigger_price: 0,
    disclosed_quantity: 0,
  };
}

/** What a modify may not change (the sandbox's list): the refusal, or undefined. */
function immutableChange(g: GttRow, req: GttRequest): string | undefined {
  const type = g.trigger_type === 'two-leg' ? 'OCO' : 'SINGLE';
  const action = g.legs[0]?.action ?? req.action;
  const checks: [string, string, string][] = [
    ['action', action, req.action],
    ['symbol', g.symbol, normaliseSymbol(req.symbol)],
    ['exchange', g.exchange, req.exchange],
    ['trigger_type', type, req.trigger_type],
  ];
  for (const [field, was, asked] of checks) {
    if (was !== asked)
      return `${field} cannot be changed on an existing GTT (${was} -> ${asked}). Cancel it and place a new one.`;
  }
  return undefined;
}
