// The paper trading engine: validation, margin, matching against the simulated book, positions,
// holdings and funds, all persisted in the SQLite ledger. Every mutation is one transaction that
// commits before the caller answers, so an acknowledged order survives a SIGKILL.
import type { Action, PriceType, Product } from '../../contract/index.js';
import type { Instrument, InstrumentMaster } from '../instruments/instrument.js';
import type { BookLevel, Clock, Market } from '../market/market.js';
import type {
  EngineResult,
  ModifyOutcome,
  OrderInput,
  OrderModification,
  PaperFunds,
  PaperHolding,
  PaperOrder,
  PaperOrderStatus,
  PaperPosition,
  PaperTrade,
  TradingEngine,
} from './engine.js';
import { istDayOf, istDayStartMs } from './ist-time.js';
import { Ledger, type NewOrderRow, type OrderRow, type PositionRow, type TradeRow } from './ledger.js';
import {
  DEFAULT_LEVERAGE,
  type LeverageConfig,
  orderMargin,
  positionMargin,
  reducingQuantity,
} from './margin.js';
import { ActiveIndex, sideKey } from './active-index.js';
import { type Fill, LiquidityTracker } from './matching.js';
import { OrderIds, tradeId } from './order-ids.js';
import { applyFill, sellFromHolding } from './positions.js';
import { formatMoney, toRupees, toUnits } from './units.js';
import {
  checkInstrument,
  checkQuantity,
  checkShape,
  checkStopLimit,
  checkTick,
  normalise,
  normaliseSymbol,
  usesPrice,
  usesTrigger,
} from './validation.js';

export const DEFAULT_CAPITAL = 10_000_000;

export interface TradingEngineDeps {
  /** Directory holding `paper.db`. */
  dataDir: string;
  master: InstrumentMaster;
  market: Market;
  /** Defaults to the market's clock. */
  clock?: Clock;
  /** Starting capital per account in rupees (default ₹1 crore). */
  capital?: number;
  leverage?: Partial<LeverageConfig>;
  /** See LedgerOptions.durability. */
  durability?: 'normal' | 'full';
  /**
   * Group commit (the HTTP gateway turns it on): the mutations of one event-loop turn each run in a
   * savepoint of one shared transaction, committed by setImmediate. Callers must not answer before
   * pendingCommit() settles. Off: every mutation commits before it returns.
   */
  groupCommit?: boolean;
}

export interface PaperTradingEngine extends TradingEngine {
  readonly ledger: Ledger;
  /** Runs `tick()` every `intervalMs` (default 250) on a timer that does not keep the process alive. */
  startTicker(intervalMs?: number): void;
  stopTicker(): void;
  /**
   * With group commit, the commit of the open group (rejects if it fails, and then nothing of the
   * group was kept); undefined when everything done so far is committed.
   */
  pendingCommit(): Promise<void> | undefined;
}

const ACTIVE: ReadonlySet<PaperOrderStatus> = new Set(['open', 'trigger pending']);

type Refusal = Extract<EngineResult<PaperOrder>, { ok: false }>;
const refuse = (status: number, message: string, orderid?: string): Refusal =>
  orderid === undefined ? { ok: false, status, message } : { ok: false, status, message, orderid };

export function createTradingEngine(deps: TradingEngineDeps): PaperTradingEngine {
  return new Engine(deps);
}

class Engine implements PaperTradingEngine {
  readonly ledger: Ledger;
  private readonly master: InstrumentMaster;
  private readonly market: Market;
  private readonly clock: Clock;
  private readonly capital: number;
  private readonly lev: LeverageConfig;
  private readonly liquidity = new LiquidityTracker();
  private readonly ids: OrderIds;
  private tradeSeq: number;
  /** In-memory mirror of open/trigger-pending orders; null after a rollback (reloaded on use). */
  private active: ActiveIndex | null = null;
  private knownAccounts = new Set<string>();
  private settledThrough = -1;
  /** The order placeOrder is matching before its row is written (see saveOrder). */
  private placing: OrderRow | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private depth = 0;
  private readonly groupCommit: boolean;
  private group: { done: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;

  constructor(deps: TradingEngineDeps) {
    this.ledger = new Ledger(deps.dataDir, { durability: deps.durability ?? 'normal' });
    this.groupCommit = deps.groupCommit ?? false;
    this.master = deps.master;
    this.market = deps.market;
    this.clock = deps.clock ?? deps.market.clock;
    this.capital = toUnits(deps.capital ?? DEFAULT_CAPITAL);
    this.lev = { ...DEFAULT_LEVERAGE, ...deps.leverage };
    this.ids = new OrderIds((from, to) => {
      const fromOrders = this.ledger.maxOrderId(from, to);
      const floor = this.ledger.meta('last_orderid');
      const fromMeta = floor !== undefined && floor >= from && floor < to ? floor : undefined;
      if (fromOrders === undefined) return fromMeta;
      return fromMeta !== undefined && fromMeta > fromOrders ? fromMeta : fromOrders;
    });
    this.tradeSeq = Math.max(this.ledger.maxTradeSeq(), Number(this.ledger.meta('last_trade_seq') ?? 0));
    if (this.ledger.meta('mode_version') === undefined) this.ledger.setMeta('mode_version', '1');
  }

  // ---- transactions ----

  transaction<T>(fn: () => T): T {
    if (this.groupCommit && !this.ledger.inTransaction) this.openGroup();
    this.depth += 1;
    try {
      return this.ledger.transaction(fn);
    } catch (err) {
      // SQLite rolled back; the in-memory mirrors may hold uncommitted state.
      this.invalidate();
      throw err;
    } finally {
      this.depth -= 1;
    }
  }

  private openGroup(): void {
    this.ledger.begin();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be waiting (a ticker pass); a failure is still logged by commitGroup.
    done.catch(() => undefined);
    this.group = { done, resolve, reject };
    setImmediate(() => this.commitGroup());
  }

  /** Commits the open group (no-op without one); on failure undoes it and resets the mirrors. */
  private commitGroup(): void {
    const g = this.group;
    if (!g) return;
    this.group = undefined;
    try {
      this.ledger.commit();
    } catch (err) {
      console.error('paper engine: group commit failed', err);
      this.ledger.rollback();
      this.invalidate();
      this.liquidity.clear();
      g.reject(err);
      return;
    }
    g.resolve();
  }

  pendingCommit(): Promise<void> | undefined {
    return this.group?.done;
  }

  private invalidate(): void {
    this.active = null;
    this.knownAccounts = new Set();
    this.settledThrough = -1;
    this.ids.resync();
    this.tradeSeq = Math.max(this.tradeSeq, this.ledger.maxTradeSeq());
  }

  private activeOrders(): ActiveIndex {
    if (!this.active) {
      const index = new ActiveIndex();
      for (const o of this.ledger.activeOrders()) index.put(o);
      this.active = index;
    }
    return this.active;
  }

  private ensureAccount(account: string, now: number): void {
    if (this.knownAccounts.has(account)) return;
    if (!this.ledger.account(account)) {
      this.ledger.insertAccount({
        account,
        capital: this.capital,
        settled_day: istDayOf(now),
        created_ms: now,
      });
    }
    this.knownAccounts.add(account);
  }

  // ---- matching ----

  tick(): void {
    this.sync();
  }

  /**
   * Matching at the clock's time; lazily before each call and from the ticker. Only orders that can
   * act are visited: open MARKET/SL-M orders, and resting limits/stops the last price has reached
   * (popped from the per-instrument heaps), in placement order as a full scan would have.
   */
  private sync(): void {
    const now = this.clock.now();
    const day = istDayOf(now);
    if (day > this.settledThrough) this.transaction(() => this.settleAll(day, now));
    const active = this.activeOrders();
    if (active.size === 0) return;
    const ltpCache = new Map<string, number>();
    const due: OrderRow[] = [...active.walkers.values()];
    for (const [key, q] of active.queues) {
      if (
        q.buyLimits.items.length +
          q.sellLimits.items.length +
          q.buyStops.items.length +
          q.sellStops.items.length ===
        0
      ) {
        active.queues.delete(key);
        continue;
      }
      const inst = this.instrument(q.exchange, q.symbol);
      if (!inst) continue;
      const ltp = toUnits(this.market.lastPrice(inst));
      ltpCache.set(`${inst.exchange}:${inst.symbol}`, ltp);
      if (ltp > 0) active.takeActionable(q, ltp, due);
    }
    if (due.length === 0) return;
    due.sort(bySeq);
    try {
      this.transaction(() => {
        for (const order of due) this.matchOrder(order, now, false, ltpCache);
      });
    } finally {
      // Re-file what is still active (a rollback dropped the whole index instead).
      for (const order of due) if (active.byId.get(order.orderid) === order) active.put(order);
    }
    this.liquidity.prune(Math.floor(now / 1000));
  }

  private instrument(exchange: string, symbol: string): Instrument | undefined {
    return this.master.get(exchange, normaliseSymbol(symbol));
  }

  /**
   * Tries to fill one active order at `now`. MARKET (and triggered SL-M) orders walk the book. A
   * LIMIT takes book liquidity up to its limit when placed (or when its SL trigger fires); after
   * that it rests and fills in full at its limit once the last price reaches it.
   */
  private matchOrder(o: OrderRow, now: number, atPlacement: boolean, ltpCache?: Map<string, number>): void {
    const inst = this.instrument(o.exchange, o.symbol);
    if (!inst) return;
    const key = `${inst.exchange}:${inst.symbol}`;
    let ltp = ltpCache?.get(key);
    if (ltp === undefined) {
      ltp = toUnits(this.market.lastPrice(inst));
      ltpCache?.set(key, ltp);
    }
    if (ltp <= 0) return;
    const buy = o.action === 'BUY';
    let changed = false;
    if (o.status === 'trigger pending') {
      const triggered = buy ? ltp >= o.trigger_price : ltp <= o.trigger_price;
      if (!triggered) return;
      o.status = 'open';
      o.updated_ms = now;
      changed = true;
    }
    const remaining = o.quantity - o.filled_quantity;
    const second = Math.floor(now / 1000);
    const side = `${key}:${buy ? 'ask' : 'bid'}`;
    let fills: Fill[];
    if (o.pricetype === 'MARKET' || o.pricetype === 'SL-M') {
      fills = this.liquidity.walkUpTo(side, second, this.levels(inst, buy), remaining, buy, undefined);
    } else if (atPlacement || changed) {
      // A new (or just triggered) limit order takes what the book offers up to its limit.
      fills = this.liquidity.walkUpTo(side, second, this.levels(inst, buy), remaining, buy, o.price);
    } else {
      // A resting one fills in full at its limit once the last price reaches it (as the sandbox).
      const limit = o.price;
      fills = (buy ? ltp <= limit : ltp >= limit) ? [{ price: limit, quantity: remaining }] : [];
    }
    for (const f of fills) this.fill(o, inst, f, now);
    if (fills.length === 0 && changed) this.saveOrder(o);
  }

  /** Writes an order's progress, unless it is the one being placed (inserted once, after its first match). */
  private saveOrder(o: OrderRow): void {
    if (o !== this.placing) this.ledger.updateOrder(o);
  }

  private levels(inst: Instrument, buy: boolean): BookLevel[] {
    const book = this.market.book(inst);
    return buy ? book.asks : book.bids;
  }

  /** Records one fill: trade row, order progress, position, holdings, margin and cash. */
  private fill(o: OrderRow, inst: Instrument, f: Fill, now: number): void {
    const remainingBefore = o.quantity - o.filled_quantity;
    const q = f.quantity;
    // A fill reduces the position first, using up the claimed part, which blocked nothing; the
    // rest releases its share of the block held for the opening part.
    const reducing = Math.min(q, o.claimed);
    const openingBefore = remainingBefore - o.claimed;
    const release =
      q >= remainingBefore
        ? o.margin_blocked
        : openingBefore <= 0
          ? 0
          : Math.round((o.margin_blocked * (q - reducing)) / openingBefore);
    o.margin_blocked -= release;
    o.claimed -= reducing;
    o.filled_quantity += q;
    o.fill_value += q * f.price;
    o.updated_ms = now;
    if (o.filled_quantity >= o.quantity) {
      o.status = 'complete';
      o.margin_blocked = 0;
      o.claimed = 0;
      this.active?.delete(o.orderid);
    }
    this.saveOrder(o);

    this.tradeSeq += 1;
    this.ledger.insertTrade({
      tradeid: tradeId(now, this.tradeSeq),
      orderid: o.orderid,
      account: o.account,
      strategy: o.strategy,
      exchange: o.exchange,
      symbol: o.symbol,
      product: o.product,
      action: o.action,
      quantity: q,
      price: f.price,
      time_ms: now,
    });

    const buy = o.action === 'BUY';
    const pos = this.ledger.position(o.account, o.exchange, o.symbol, o.product) ?? emptyPosition(o, now);
    let state = { quantity: pos.quantity, cost: pos.cost, realised: pos.realised };
    let holdingCostFreed = 0;
    if (!buy && o.product === 'CNC') {
      // A delivery sell takes today's long first, then settled holdings.
      const fromPosition = Math.min(q, Math.max(pos.quantity, 0));
      if (fromPosition > 0) state = applyFill(state, -fromPosition, f.price);
      let rest = q - fromPosition;
      const holding = rest > 0 ? this.ledger.holding(o.account, o.exchange, o.symbol) : undefined;
      if (holding && holding.quantity > 0) {
        const fromHolding = Math.min(rest, holding.quantity);
        const sold = sellFromHolding(holding, fromHolding, f.price);
        holdingCostFreed = holding.cost - sold.cost;
        state = { ...state, realised: state.realised + sold.realised };
        this.ledger.putHolding({ ...holding, quantity: sold.quantity, cost: sold.cost, updated_ms: now });
        rest -= fromHolding;
      }
      if (rest > 0) state = applyFill(state, -rest, f.price);
    } else {
      state = applyFill(state, buy ? q : -q, f.price);
    }
    const margin = positionMargin(this.lev, inst, o.product, state.quantity, state.cost);
    this.ledger.putPosition({ ...pos, ...state, margin, updated_ms: now });
    const realised = state.realised - pos.realised;
    this.ledger.movement(
      o.account,
      now,
      'fill',
      {
        available: release + pos.margin - margin + realised + holdingCostFreed,
        used: margin - pos.margin - release,
        realised,
      },
      o.orderid,
    );
    this.ledger.addStrategyQuantity(o.account, o.strategy, o.exchange, o.symbol, o.product, buy ? q : -q);
  }

  /** At an IST day boundary, CNC longs settle into holdings (the margin becomes the holding's cost). */
  private settleAll(day: number, now: number): void {
    for (const acc of this.ledger.accounts()) {
      if (acc.settled_day >= day) continue;
      for (const pos of this.ledger.cncLongPositions(acc.account)) {
        const h = this.ledger.holding(acc.account, pos.exchange, pos.symbol);
        this.ledger.putHolding({
          account: acc.account,
          exchange: pos.exchange,
          symbol: pos.symbol,
          quantity: (h?.quantity ?? 0) + pos.quantity,
          cost: (h?.cost ?? 0) + pos.cost,
          updated_ms: now,
        });
        this.ledger.movement(
          acc.account,
          now,
          'settle',
          { available: pos.margin - pos.cost, used: -pos.margin },
          `${pos.exchange}:${pos.symbol}`,
        );
        this.ledger.putPosition({ ...pos, quantity: 0, cost: 0, margin: 0 });
      }
      this.ledger.setSettledDay(acc.account, day);
    }
    this.settledThrough = day;
  }

  // ---- orders ----

  placeOrder(account: string, raw: OrderInput): EngineResult<PaperOrder> {
    const shape = checkShape(raw);
    if (shape) return refuse(400, shape);
    const input = normalise(raw);
    const inst = this.instrument(input.exchange, input.symbol);
    const bad = checkInstrument(input, inst);
    if (bad || !inst) return refuse(400, bad ?? `Symbol ${input.symbol} not found on ${input.exchange}`);
    this.sync();
    const now = this.clock.now();
    let ltp = 0;
    if (input.pricetype === 'MARKET') {
      ltp = toUnits(this.market.lastPrice(inst));
      if (ltp <= 0) {
        return refuse(400, marketPriceMissing(inst.symbol));
      }
    }
    return this.transaction(() => {
      this.ensureAccount(account, now);
      const row: NewOrderRow = {
        orderid: this.ids.next(now),
        account,
        strategy: input.strategy,
        exchange: inst.exchange,
        symbol: inst.symbol,
        action: input.action,
        quantity: input.quantity,
        pricetype: input.pricetype,
        product: input.product,
        price: toUnits(input.price),
        trigger_price: toUnits(input.trigger_price),
        disclosed_quantity: input.disclosed_quantity,
        status: 'open',
        filled_quantity: 0,
        fill_value: 0,
        rejection_reason: '',
        margin_blocked: 0,
        claimed: 0,
        created_ms: now,
        updated_ms: now,
      };
      const buy = input.action === 'BUY';
      const pos = this.ledger.position(account, row.exchange, row.symbol, row.product);

      const reason =
        buy || input.product !== 'CNC' ? undefined : this.cncSellRefusal(account, row, row.quantity, pos);
      const ref =
        input.pricetype === 'MARKET' ? ltp : input.pricetype === 'LIMIT' ? row.price : row.trigger_price;
      row.claimed = reducingQuantity(
        buy,
        row.quantity,
        pos?.quantity ?? 0,
        this.activeOrders().claimedQuantity(sideKey(row)),
      );
      const margin = orderMargin(this.lev, inst, row.product, buy, row.quantity - row.claimed, ref, 0);
      const available = reason ? 0 : this.availableUnits(account);
      const rejection = reason ?? (margin > available ? insufficientFunds(margin, available) : undefined);
      if (rejection) {
        // Business refusals are recorded (sandbox behaviour) and answered 400 with the order id.
        this.ledger.insertOrder({ ...row, status: 'rejected', rejection_reason: rejection, claimed: 0 });
        return refuse(400, rejection, row.orderid);
      }

      row.margin_blocked = margin;
      if (input.pricetype === 'SL' || input.pricetype === 'SL-M') row.status = 'trigger pending';
      this.ledger.movement(account, now, 'block', { available: -margin, used: margin }, row.orderid);
      // Match first, then write the row once in its resulting state (a MARKET order that fills is
      // one INSERT, not an INSERT and an UPDATE); its seq is the rowid, so nothing is read back.
      const stored: OrderRow = { seq: 0, ...row };
      this.placing = stored;
      try {
        this.matchOrder(stored, now, true);
      } finally {
        this.placing = undefined;
      }
      stored.seq = this.ledger.insertOrder(stored);
      // Filed under its status after the first match (put() leaves out a completed order).
      this.activeOrders().put(stored);
      return { ok: true, value: toPaperOrder(stored) };
    });
  }

  /**
   * The real sandbox's CNC SELL check: today's long plus settled holdings must cover `quantity`
   * (other open CNC SELL orders of the symbol reserve nothing).
   */
  private cncSellRefusal(
    account: string,
    row: Pick<NewOrderRow, 'exchange' | 'symbol'>,
    quantity: number,
    pos: PositionRow | undefined,
  ): string | undefined {
    const p = Math.max(pos?.quantity ?? 0, 0);
    const h = Math.max(this.ledger.holding(account, row.exchange, row.symbol)?.quantity ?? 0, 0);
    const available = p + h;
    if (available <= 0) {
      return `Cannot sell ${row.symbol} in CNC. No positions or holdings available. CNC (delivery) requires existing shares. Use MIS for intraday short selling.`;
    }
    if (quantity > available) {
      return `Cannot sell ${quantity} shares of ${row.symbol} in CNC. Only ${available} shares available (Position: ${p}, Holdings: ${h})`;
    }
    return undefined;
  }

  /**
   * Applies what a modify may change (quantity, pricetype, price, trigger_price, disclosed_quantity)
   * and refuses a different exchange, symbol, action or product: those name the order, and a modify
   * that silently ignored them would report a change that never happened. The strategy is only the
   * caller's tag, as for cancelorder. Price or trigger 0 means "keep" (sandbox). The result is then
   * matched like a placement: a limit moved through the market takes the book at market prices.
   */
  modifyOrder(account: string, orderid: string, req: OrderModification): EngineResult<ModifyOutcome> {
    this.sync();
    const now = this.clock.now();
    return this.transaction((): EngineResult<ModifyOutcome> => {
      const o = this.ledger.order(account, orderid);
      if (!o) return refuse(404, `Order ${orderid} not found`);
      if (!ACTIVE.has(o.status)) return refuse(400, `Cannot modify order in ${o.status} status`);
      const fixed = fixedFieldChange(o, req);
      if (fixed) {
        return refuse(
          400,
          `modifyorder cannot change ${fixed}: order ${orderid} has ${fixed} ${o[fixed]}; cancel it and place a new order`,
        );
      }
      const pricetype = req.pricetype;
      if (req.price > 0 && !usesPrice(pricetype)) {
        return refuse(400, `${pricetype} orders do not accept a price`);
      }
      if (req.trigger_price > 0 && !usesTrigger(pricetype)) {
        return refuse(400, `${pricetype} orders do not accept a trigger_price`);
      }
      const keep = (units: number, used: (t: PriceType) => boolean) => (used(o.pricetype) ? units : 0);
      const price = !usesPrice(pricetype) ? 0 : req.price > 0 ? toUnits(req.price) : keep(o.price, usesPrice);
      const trigger = !usesTrigger(pricetype)
        ? 0
        : req.trigger_price > 0
          ? toUnits(req.trigger_price)
          : keep(o.trigger_price, usesTrigger);
      if (usesPrice(pricetype) && price === 0) return refuse(400, `${pricetype} orders require price`);
      if (usesTrigger(pricetype) && trigger === 0) {
        return refuse(400, `${pricetype} orders require trigger_price`);
      }
      const quantity = req.quantity;
      if (quantity <= o.filled_quantity) {
        return refuse(400, `Quantity ${quantity} must exceed the filled quantity ${o.filled_quantity}`);
      }
      const inst = this.instrument(o.exchange, o.symbol);
      if (!inst) return refuse(400, `Symbol ${o.symbol} not found on ${o.exchange}`);
      const bad =
        checkQuantity(quantity, inst) ??
        (req.price > 0 ? checkTick('Price', req.price, inst) : undefined) ??
        (req.trigger_price > 0 ? checkTick('Trigger price', req.trigger_price, inst) : undefined) ??
        checkStopLimit({
          pricetype,
          action: o.action,
          price: toRupees(price),
          trigger_price: toRupees(trigger),
        });
      if (bad) return refuse(400, bad);
      // Raising a CNC SELL is checked like a placement, so it cannot sell more than is owned; the
      // filled part has already left the position and holdings, so the unfilled rest is what must be
      // covered. A decrease is always allowed.
      const pos = this.ledger.position(account, o.exchange, o.symbol, o.product);
      if (o.action === 'SELL' && o.product === 'CNC' && quantity > o.quantity) {
        const reason = this.cncSellRefusal(account, o, quantity - o.filled_quantity, pos);
        if (reason) return refuse(400, reason);
      }
      let ltp = 0;
      if (pricetype === 'MARKET') {
        ltp = toUnits(this.market.lastPrice(inst));
        if (ltp <= 0) return refuse(400, marketPriceMissing(inst.symbol));
      }
      // A stop stays triggered once it has fired; a LIMIT/MARKET made a stop waits for its trigger.
      const stop = usesTrigger(pricetype);
      const status: PaperOrderStatus =
        stop && (!usesTrigger(o.pricetype) || o.status === 'trigger pending') ? 'trigger pending' : 'open';
      const updated: OrderRow = {
        ...o,
        quantity,
        pricetype,
        price,
        trigger_price: trigger,
        disclosed_quantity: req.disclosed_quantity,
        status,
        updated_ms: now,
      };
      const changed = MODIFIABLE.filter((f) => updated[f] !== o[f]);
      if (changed.length === 0) return { ok: true, value: { order: toPaperOrder(o), changed } };

      // Unlike the sandbox (which keeps the placement block), the unfilled part's margin is
      // recomputed at the new size and reference price, so raising a resting order cannot bypass the
      // funds check; a decrease releases the difference. Its own claim on an opposite position is
      // given up and made again at the new size; other orders keep theirs.
      const buy = o.action === 'BUY';
      const rest = quantity - o.filled_quantity;
      const others = this.activeOrders().claimedQuantity(sideKey(o)) - o.claimed;
      updated.claimed = reducingQuantity(buy, rest, pos?.quantity ?? 0, others);
      const ref = pricetype === 'MARKET' ? ltp : pricetype === 'LIMIT' ? price : trigger;
      updated.margin_blocked = orderMargin(this.lev, inst, o.product, buy, rest - updated.claimed, ref, 0);
      const extra = updated.margin_blocked - o.margin_blocked;
      const available = this.availableUnits(account);
      if (extra > available) return refuse(400, insufficientFunds(extra, available));
      if (extra !== 0) {
        this.ledger.movement(
          account,
          now,
          extra > 0 ? 'block' : 'release',
          { available: -extra, used: extra },
          orderid,
        );
      }
      this.ledger.updateOrder(updated);
      this.matchOrder(updated, now, true);
      this.activeOrders().put(updated);
      return { ok: true, value: { order: toPaperOrder(updated), changed } };
    });
  }

  cancelOrder(account: string, orderid: string): EngineResult<PaperOrder> {
    this.sync();
    const now = this.clock.now();
    return this.transaction(() => {
      const o = this.ledger.order(account, orderid);
      if (!o) return refuse(404, `Order ${orderid} not found`);
      if (!ACTIVE.has(o.status)) return refuse(400, `Cannot cancel order in ${o.status} status`);
      const released = o.margin_blocked;
      const updated: OrderRow = { ...o, status: 'cancelled', margin_blocked: 0, claimed: 0, updated_ms: now };
      this.ledger.updateOrder(updated);
      this.ledger.movement(account, now, 'cancel', { available: released, used: -released }, orderid);
      this.activeOrders().delete(orderid);
      return { ok: true, value: toPaperOrder(updated) };
    });
  }

  // ---- reads ----

  order(account: string, orderid: string): PaperOrder | undefined {
    this.sync();
    const o = this.ledger.order(account, orderid);
    return o ? toPaperOrder(o) : undefined;
  }

  orders(account: string): PaperOrder[] {
    this.sync();
    const today = istDayOf(this.clock.now());
    const out: PaperOrder[] = [];
    for (const o of this.ledger.recentOrders(account, istDayStartMs(today))) {
      if (ACTIVE.has(o.status) || istDayOf(o.created_ms) === today) out.push(toPaperOrder(o));
    }
    return out;
  }

  trades(account: string): PaperTrade[] {
    this.sync();
    const today = istDayOf(this.clock.now());
    return this.ledger
      .trades(account)
      .filter((t) => istDayOf(t.time_ms) === today)
      .map(toPaperTrade);
  }

  positions(account: string): PaperPosition[] {
    this.sync();
    const today = istDayOf(this.clock.now());
    const out: PaperPosition[] = [];
    for (const p of this.ledger.positions(account)) {
      if (p.quantity === 0 && istDayOf(p.updated_ms) !== today) continue;
      const ltp = this.ltpUnits(p.exchange, p.symbol);
      const unrealised = p.quantity === 0 || ltp <= 0 ? 0 : ltp * p.quantity - p.cost;
      out.push({
        exchange: p.exchange,
        symbol: p.symbol,
        product: p.product,
        quantity: p.quantity,
        average_price: p.quantity === 0 ? 0 : toRupees(p.cost / p.quantity),
        realised_pnl: toRupees(p.realised),
        unrealised_pnl: toRupees(unrealised),
        ltp: toRupees(ltp),
      });
    }
    return out;
  }

  holdings(account: string): PaperHolding[] {
    this.sync();
    return this.ledger.holdings(account).map((h) => {
      const ltp = this.ltpUnits(h.exchange, h.symbol);
      const pnl = ltp * h.quantity - h.cost;
      return {
        exchange: h.exchange,
        symbol: h.symbol,
        quantity: h.quantity,
        average_price: toRupees(h.cost / h.quantity),
        ltp: toRupees(ltp),
        pnl: toRupees(pnl),
        pnlpercent: h.cost === 0 ? 0 : Math.round((pnl / h.cost) * 10_000) / 100,
      };
    });
  }

  /**
   * availablecash = capital + realised − order blocks − position margin − settled holdings cost;
   * utiliseddebits = order blocks + position margin; m2mrealized = realised since the last reset;
   * m2munrealized = Σ (ltp × qty − cost) of open positions; collateral 0.
   */
  funds(account: string): PaperFunds {
    this.sync();
    const acc = this.ledger.account(account);
    let unrealised = 0;
    for (const p of this.ledger.positions(account)) {
      if (p.quantity === 0) continue;
      const ltp = this.ltpUnits(p.exchange, p.symbol);
      if (ltp > 0) unrealised += ltp * p.quantity - p.cost;
    }
    return {
      availablecash: toRupees(acc?.available ?? this.capital),
      collateral: 0,
      m2mrealized: toRupees(acc?.realised ?? 0),
      m2munrealized: toRupees(unrealised),
      utiliseddebits: toRupees(acc?.used_margin ?? 0),
    };
  }

  private availableUnits(account: string): number {
    return this.ledger.account(account)?.available ?? this.capital;
  }

  private ltpUnits(exchange: string, symbol: string): number {
    const inst = this.instrument(exchange, symbol);
    return inst ? toUnits(this.market.lastPrice(inst)) : 0;
  }

  strategyQuantity(
    account: string,
    strategy: string,
    symbol: string,
    exchange: string,
    product: Product,
  ): number {
    this.sync();
    return this.ledger.strategyQuantity(account, strategy, exchange, normaliseSymbol(symbol), product);
  }

  strategyExposure(
    account: string,
    strategy: string,
  ): { symbol: string; exchange: string; product: Product; quantity: number }[] {
    this.sync();
    return this.ledger
      .strategyExposure(account, strategy)
      .map((r) => ({ symbol: r.symbol, exchange: r.exchange, product: r.product, quantity: r.quantity }));
  }

  // ---- misc ----

  rememberResponse(
    account: string,
    requestId: string,
    request: string,
    compute: () => unknown,
  ): EngineResult<unknown> {
    return this.transaction((): EngineResult<unknown> => {
      const stored = this.ledger.response(account, requestId);
      if (stored !== undefined) {
        // A row from before requests were kept ('') cannot be checked, so it is not replayed either.
        if (stored.request !== request) {
          return refuse(
            409,
            `request_id ${requestId} was already used for a different request; send this one with a new request_id`,
          );
        }
        return { ok: true, value: JSON.parse(stored.body) as unknown };
      }
      const value = compute();
      this.ledger.insertResponse(
        account,
        requestId,
        { request, body: JSON.stringify(value ?? null) },
        this.clock.now(),
      );
      return { ok: true, value };
    });
  }

  mode(): { mode: 'analyze'; balance_type: 'sandbox'; mode_version: number } {
    return {
      mode: 'analyze',
      balance_type: 'sandbox',
      mode_version: Number(this.ledger.meta('mode_version') ?? 1),
    };
  }

  reset(): void {
    const now = this.clock.now();
    this.transaction(() => {
      // Ids stay unique across resets: remember the high-water marks before the rows go.
      const lastId = this.ledger.maxOrderId('000000', '999999~');
      if (lastId) this.ledger.setMeta('last_orderid', lastId);
      this.ledger.setMeta('last_trade_seq', String(this.tradeSeq));
      this.ledger.clearBooks(this.capital, istDayOf(now));
      this.ledger.setMeta('mode_version', String(this.mode().mode_version + 1));
    });
    this.active = new ActiveIndex();
    this.liquidity.clear();
  }

  startTicker(intervalMs = 250): void {
    this.stopTicker();
    this.timer = setInterval(() => {
      try {
        this.tick();
      } catch (err) {
        console.error('paper engine: tick failed', err);
      }
    }, intervalMs);
    this.timer.unref();
  }

  stopTicker(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.stopTicker();
    this.commitGroup();
    this.ledger.close();
  }
}

const bySeq = (a: OrderRow, b: OrderRow): number => a.seq - b.seq;

/** The fields a modify may change, in the order a caller would list them. */
const MODIFIABLE = [
  'quantity',
  'pricetype',
  'price',
  'trigger_price',
  'disclosed_quantity',
  'status',
] as const;

/** The first field of a modify that names another order than `o` (it may not change), if any. */
function fixedFieldChange(
  o: OrderRow,
  req: OrderModification,
): 'exchange' | 'symbol' | 'action' | 'product' | undefined {
  if (req.exchange !== o.exchange) return 'exchange';
  if (normaliseSymbol(req.symbol) !== o.symbol) return 'symbol';
  if (req.action !== o.action) return 'action';
  if (req.product !== o.product) return 'product';
  return undefined;
}

/** The one sentence of a funds refusal (placement and modify), as the sandbox words it. */
function insufficientFunds(required: number, available: number): string {
  return `Insufficient funds. Required: ₹${formatMoney(required)}, Available: ₹${formatMoney(available)}, Shortage: ₹${formatMoney(required - available)}`;
}

function marketPriceMissing(symbol: string): string {
  return `Cannot place MARKET order for ${symbol} - unable to fetch current price. Please try again later or use LIMIT order with a specific price.`;
}

function emptyPosition(o: OrderRow, now: number): PositionRow {
  return {
    account: o.account,
    exchange: o.exchange,
    symbol: o.symbol,
    product: o.product,
    quantity: 0,
    cost: 0,
    realised: 0,
    margin: 0,
    updated_ms: now,
  };
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

export function toPaperOrder(o: OrderRow): PaperOrder {
  return {
    orderid: o.orderid,
    account: o.account,
    strategy: o.strategy,
    exchange: o.exchange,
    symbol: o.symbol,
    action: o.action as Action,
    quantity: o.quantity,
    pricetype: o.pricetype,
    product: o.product,
    price: toRupees(o.price),
    trigger_price: toRupees(o.trigger_price),
    disclosed_quantity: o.disclosed_quantity,
    status: o.status,
    filled_quantity: o.filled_quantity,
    average_price: o.filled_quantity === 0 ? 0 : round4(toRupees(o.fill_value / o.filled_quantity)),
    rejection_reason: o.rejection_reason,
    margin_blocked: toRupees(o.margin_blocked),
    created_ms: o.created_ms,
    updated_ms: o.updated_ms,
  };
}

function toPaperTrade(t: TradeRow): PaperTrade {
  return {
    tradeid: t.tradeid,
    orderid: t.orderid,
    account: t.account,
    strategy: t.strategy,
    exchange: t.exchange,
    symbol: t.symbol,
    product: t.product,
    action: t.action,
    quantity: t.quantity,
    price: toRupees(t.price),
    time_ms: t.time_ms,
  };
}
