// Order entry on the paper engine: placing, modifying and cancelling an order, each one transaction
// that checks the order (order-rules.ts), blocks or releases its margin, claims what it reduces of
// an opposite position, and matches it at once where its market is open.
import type { Instrument } from '../instruments/instrument.js';
import type { Clock, Market } from '../market/market.js';
import type { ActiveIndex } from './active-index.js';
import { sideKey } from './active-index.js';
import type { EngineResult, ModifyOutcome, OrderInput, OrderModification, PaperOrder } from './engine.js';
import type { Fills } from './fills.js';
import type { Ledger } from './ledger.js';
import type { OrderRow, PositionRow } from './ledger-rows.js';
import { orderMargin, reducingQuantity, type LeverageConfig } from './margin.js';
import type { OrderIds } from './order-ids.js';
import {
  ACTIVE,
  MODIFIABLE,
  cncSellRefusal,
  insufficientFunds,
  marginReference,
  marketPriceMissing,
  modifiedRow,
  newOrderRow,
  refuse,
} from './order-rules.js';
import { toPaperOrder, type ReadViews } from './read-views.js';
import { toUnits } from './units.js';
import { checkInstrument, checkShape, normalise } from './validation.js';

/** What order entry needs of the engine: its ledger, mirrors and matching. */
export interface OrderEntry {
  readonly ledger: Ledger;
  readonly market: Market;
  readonly clock: Clock;
  readonly lev: LeverageConfig;
  readonly ids: OrderIds;
  readonly fills: Fills;
  readonly views: ReadViews;
  instrument(exchange: string, symbol: string): Instrument | undefined;
  /** Matching brought up to the clock's time. */
  sync(): void;
  transaction<T>(fn: () => T): T;
  ensureAccount(account: string, now: number): void;
  /** The open and trigger-pending orders, by instrument and side. */
  activeOrders(): ActiveIndex;
  /** An order's market trades now. */
  isOpen(order: { exchange: string; symbol: string }, now: number): boolean;
  /** Runs the ticker, now that an order may rest. */
  armTicker(): void;
}

export function placeOrder(e: OrderEntry, account: string, raw: OrderInput): EngineResult<PaperOrder> {
  const shape = checkShape(raw);
  if (shape) return refuse(400, shape);
  const input = normalise(raw);
  const inst = e.instrument(input.exchange, input.symbol);
  const bad = checkInstrument(input, inst);
  if (bad || !inst) return refuse(400, bad ?? `Symbol ${input.symbol} not found on ${input.exchange}`);
  e.sync();
  const now = e.clock.now();
  let ltp = 0;
  if (input.pricetype === 'MARKET') {
    ltp = toUnits(e.market.lastPrice(inst));
    if (ltp <= 0) return refuse(400, marketPriceMissing(inst.symbol));
  }
  return e.transaction(() => {
    e.ensureAccount(account, now);
    const row = newOrderRow(input, inst, account, e.ids.next(now), now);
    const buy = input.action === 'BUY';
    const pos = e.ledger.position(account, row.exchange, row.symbol, row.product);
    const reason =
      buy || input.product !== 'CNC' ? undefined : cncSellCover(e, account, row, row.quantity, pos);
    row.claimed = reducingQuantity(
      buy,
      row.quantity,
      pos?.quantity ?? 0,
      e.activeOrders().claimedQuantity(sideKey(row)),
    );
    const ref = marginReference(row, ltp);
    const margin = orderMargin(e.lev, inst, row.product, buy, row.quantity - row.claimed, ref, 0);
    const available = reason ? 0 : e.views.availableUnits(account);
    const rejection = reason ?? (margin > available ? insufficientFunds(margin, available) : undefined);
    if (rejection) {
      // Business refusals are recorded (sandbox behaviour) and answered 400 with the order id.
      e.ledger.insertOrder({ ...row, status: 'rejected', rejection_reason: rejection, claimed: 0 });
      return refuse(400, rejection, row.orderid);
    }

    row.margin_blocked = margin;
    if (input.pricetype === 'SL' || input.pricetype === 'SL-M') row.status = 'trigger pending';
    e.ledger.movement(account, now, 'block', { available: -margin, used: margin }, row.orderid);
    // Match first, then write the row once in its resulting state (a MARKET order that fills is
    // one INSERT, not an INSERT and an UPDATE); its seq is the rowid, so nothing is read back.
    const stored: OrderRow = { seq: 0, ...row };
    if (e.isOpen(stored, now)) e.fills.matchNew(stored, now);
    stored.seq = e.ledger.insertOrder(stored);
    // Filed under its status after the first match (put() leaves out a completed order).
    e.activeOrders().put(stored);
    e.armTicker();
    return { ok: true, value: toPaperOrder(stored) };
  });
}

/** cncSellRefusal over the ledger's position and holding of the symbol. */
function cncSellCover(
  e: OrderEntry,
  account: string,
  row: Pick<OrderRow, 'exchange' | 'symbol'>,
  quantity: number,
  pos: PositionRow | undefined,
): string | undefined {
  const holding = e.ledger.holding(account, row.exchange, row.symbol)?.quantity ?? 0;
  return cncSellRefusal(row.symbol, quantity, pos?.quantity ?? 0, holding);
}

/**
 * Changes a working order as order-rules.ts modifiedRow allows, re-checks its funds (and a raised
 * CNC SELL's cover), then matches it like a placement: a limit moved through the market takes
 * the book at market prices, never fills at the new limit.
 */
export function modifyOrder(
  e: OrderEntry,
  account: string,
  orderid: string,
  req: OrderModification,
): EngineResult<ModifyOutcome> {
  e.sync();
  const now = e.clock.now();
  return e.transaction((): EngineResult<ModifyOutcome> => {
    const o = e.ledger.order(account, orderid);
    if (!o) return refuse(404, `Order ${orderid} not found`);
    if (!ACTIVE.has(o.status)) return refuse(400, `Cannot modify order in ${o.status} status`);
    const inst = e.instrument(o.exchange, o.symbol);
    if (!inst) return refuse(400, `Symbol ${o.symbol} not found on ${o.exchange}`);
    const next = modifiedRow(o, req, inst, now);
    if (!next.ok) return next;
    const updated = next.value;
    // The filled part has already left the position and holdings, so the unfilled rest is what
    // a raised CNC SELL must be covered for. A decrease is always allowed.
    const pos = e.ledger.position(account, o.exchange, o.symbol, o.product);
    if (o.action === 'SELL' && o.product === 'CNC' && updated.quantity > o.quantity) {
      const reason = cncSellCover(e, account, o, updated.quantity - o.filled_quantity, pos);
      if (reason) return refuse(400, reason);
    }
    let ltp = 0;
    if (updated.pricetype === 'MARKET') {
      ltp = toUnits(e.market.lastPrice(inst));
      if (ltp <= 0) return refuse(400, marketPriceMissing(inst.symbol));
    }
    const changed = MODIFIABLE.filter((f) => updated[f] !== o[f]);
    if (changed.length === 0) return { ok: true, value: { order: toPaperOrder(o), changed } };

    // Unlike the sandbox (which keeps the placement block), the unfilled part's margin is
    // recomputed at the new size and reference price, so raising a resting order cannot bypass the
    // funds check; a decrease releases the difference. Its own claim on an opposite position is
    // given up and made again at the new size; other orders keep theirs.
    const buy = o.action === 'BUY';
    const rest = updated.quantity - o.filled_quantity;
    const others = e.activeOrders().claimedQuantity(sideKey(o)) - o.claimed;
    updated.claimed = reducingQuantity(buy, rest, pos?.quantity ?? 0, others);
    const ref = marginReference(updated, ltp);
    updated.margin_blocked = orderMargin(e.lev, inst, o.product, buy, rest - updated.claimed, ref, 0);
    const extra = updated.margin_blocked - o.margin_blocked;
    const available = e.views.availableUnits(account);
    if (extra > available) return refuse(400, insufficientFunds(extra, available));
    if (extra !== 0) {
      const kind = extra > 0 ? 'block' : 'release';
      e.ledger.movement(account, now, kind, { available: -extra, used: extra }, orderid);
    }
    e.ledger.updateOrder(updated);
    if (e.isOpen(updated, now)) e.fills.match(updated, now, true);
    e.activeOrders().put(updated);
    e.armTicker();
    return { ok: true, value: { order: toPaperOrder(updated), changed } };
  });
}

export function cancelOrder(e: OrderEntry, account: string, orderid: string): EngineResult<PaperOrder> {
  e.sync();
  const now = e.clock.now();
  return e.transaction(() => {
    const o = e.ledger.order(account, orderid);
    if (!o) return refuse(404, `Order ${orderid} not found`);
    if (!ACTIVE.has(o.status)) return refuse(400, `Cannot cancel order in ${o.status} status`);
    const released = o.margin_blocked;
    const updated: OrderRow = { ...o, status: 'cancelled', margin_blocked: 0, claimed: 0, updated_ms: now };
    e.ledger.updateOrder(updated);
    e.ledger.movement(account, now, 'cancel', { available: released, used: -released }, orderid);
    e.activeOrders().delete(orderid);
    return { ok: true, value: toPaperOrder(updated) };
  });
}
