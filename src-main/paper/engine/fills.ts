// Fills and settlement: one working order matched against the simulated book (Decision 6), each
// fill booked into the trade, order, position, holdings, margin and cash rows, and CNC longs settled
// into holdings at the IST day boundary. Runs inside the engine's transactions.
import type { Instrument } from '../instruments/instrument.js';
import type { LimitFills } from './engine.js';
import type { BookLevel, Market } from '../market/market.js';
import type { ActiveIndex } from './active-index.js';
import type { Ledger } from './ledger.js';
import type { OrderRow, PositionRow } from './ledger-rows.js';
import { type LeverageConfig, positionMargin } from './margin.js';
import { type Fill, LiquidityTracker } from './matching.js';
import { tradeId } from './order-ids.js';
import { applyFill, sellFromHolding } from './positions.js';
import { toUnits } from './units.js';

export interface FillDeps {
  ledger: Ledger;
  market: Market;
  lev: LeverageConfig;
  instrument(exchange: string, symbol: string): Instrument | undefined;
  /** The active-order index if loaded: a completed order leaves it. */
  active(): ActiveIndex | null;
  /** How a resting LIMIT fills once reached (default 'full'). */
  limitFills?: LimitFills;
}

export class Fills {
  private readonly liquidity = new LiquidityTracker();
  private seq: number;
  /** The order being placed: matched before its row exists, so it is inserted once afterwards. */
  private placing: OrderRow | undefined;

  constructor(private readonly d: FillDeps) {
    this.seq = Math.max(d.ledger.maxTradeSeq(), Number(d.ledger.meta('last_trade_seq') ?? 0));
  }

  /** The last trade sequence number handed out (trade ids stay unique across resets). */
  get tradeSeq(): number {
    return this.seq;
  }

  /** After a rollback: trades of the undone work are gone, the counter never goes back. */
  resync(): void {
    this.seq = Math.max(this.seq, this.d.ledger.maxTradeSeq());
  }

  /** Forgets the liquidity taken (after a reset, or a group whose commit failed). */
  clearLiquidity(): void {
    this.liquidity.clear();
  }

  /** Forgets liquidity snapshots older than `second`. */
  pruneLiquidity(second: number): void {
    this.liquidity.prune(second);
  }

  /** Matches an order being placed, whose row the caller inserts afterwards in its resulting state. */
  matchNew(o: OrderRow, now: number): void {
    this.placing = o;
    try {
      this.match(o, now, true);
    } finally {
      this.placing = undefined;
    }
  }

  /**
   * Tries to fill one active order at `now`. MARKET (and triggered SL-M) orders walk the book. A
   * LIMIT takes book liquidity up to its limit when placed, modified or triggered (`atPlacement`);
   * after that it rests and fills at its limit once the last price reaches it: in full, or (with
   * `limitFills: 'depth'`) up to the other side's best level still free this second.
   */
  match(o: OrderRow, now: number, atPlacement: boolean, ltpCache?: Map<string, number>): void {
    const inst = this.d.instrument(o.exchange, o.symbol);
    if (!inst) return;
    const key = `${inst.exchange}:${inst.symbol}`;
    let ltp = ltpCache?.get(key);
    if (ltp === undefined) {
      ltp = toUnits(this.d.market.lastPrice(inst));
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
      // A resting one fills at its limit once the last price reaches it: in full (as the sandbox),
      // or only what the best level of the other side still shows this second.
      const limit = o.price;
      const reached = buy ? ltp <= limit : ltp >= limit;
      if (!reached) fills = [];
      else if (this.d.limitFills !== 'depth') fills = [{ price: limit, quantity: remaining }];
      else {
        const best = this.levels(inst, buy).slice(0, 1);
        const taken = this.liquidity.walkUpTo(side, second, best, remaining, buy, undefined);
        const quantity = taken.reduce((n, f) => n + f.quantity, 0);
        fills = quantity > 0 ? [{ price: limit, quantity }] : [];
      }
    }
    for (const f of fills) this.fill(o, inst, f, now);
    if (fills.length === 0 && changed) this.save(o);
  }

  /** At an IST day boundary, CNC longs settle into holdings (the margin becomes the holding's cost). */
  settleAll(day: number, now: number): void {
    const { ledger } = this.d;
    for (const acc of ledger.accounts()) {
      if (acc.settled_day >= day) continue;
      for (const pos of ledger.cncLongPositions(acc.account)) {
        const h = ledger.holding(acc.account, pos.exchange, pos.symbol);
        ledger.putHolding({
          account: acc.account,
          exchange: pos.exchange,
          symbol: pos.symbol,
          quantity: (h?.quantity ?? 0) + pos.quantity,
          cost: (h?.cost ?? 0) + pos.cost,
          updated_ms: now,
        });
        ledger.movement(
          acc.account,
          now,
          'settle',
          { available: pos.margin - pos.cost, used: -pos.margin },
          `${pos.exchange}:${pos.symbol}`,
        );
        ledger.putPosition({ ...pos, quantity: 0, cost: 0, margin: 0 });
      }
      ledger.setSettledDay(acc.account, day);
    }
  }

  /** Writes an order's progress, unless it is the one being placed (inserted once, after its first match). */
  private save(o: OrderRow): void {
    if (o !== this.placing) this.d.ledger.updateOrder(o);
  }

  private levels(inst: Instrument, buy: boolean): BookLevel[] {
    const book = this.d.market.book(inst);
    return buy ? book.asks : book.bids;
  }

  /** Records one fill: trade row, order progress, position, holdings, margin and cash. */
  private fill(o: OrderRow, inst: Instrument, f: Fill, now: number): void {
    const { ledger } = this.d;
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
      this.d.active()?.delete(o.orderid);
    }
    this.save(o);

    this.seq += 1;
    ledger.insertTrade({
      tradeid: tradeId(now, this.seq),
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
    const pos = ledger.position(o.account, o.exchange, o.symbol, o.product) ?? emptyPosition(o, now);
    let state = { quantity: pos.quantity, cost: pos.cost, realised: pos.realised };
    let holdingCostFreed = 0;
    if (!buy && o.product === 'CNC') {
      // A delivery sell takes today's long first, then settled holdings.
      const fromPosition = Math.min(q, Math.max(pos.quantity, 0));
      if (fromPosition > 0) state = applyFill(state, -fromPosition, f.price);
      let rest = q - fromPosition;
      const holding = rest > 0 ? ledger.holding(o.account, o.exchange, o.symbol) : undefined;
      if (holding && holding.quantity > 0) {
        const fromHolding = Math.min(rest, holding.quantity);
        const sold = sellFromHolding(holding, fromHolding, f.price);
        holdingCostFreed = holding.cost - sold.cost;
        state = { ...state, realised: state.realised + sold.realised };
        ledger.putHolding({ ...holding, quantity: sold.quantity, cost: sold.cost, updated_ms: now });
        rest -= fromHolding;
      }
      if (rest > 0) state = applyFill(state, -rest, f.price);
    } else {
      state = applyFill(state, buy ? q : -q, f.price);
    }
    const margin = positionMargin(this.d.lev, inst, o.product, state.quantity, state.cost);
    ledger.putPosition({ ...pos, ...state, margin, updated_ms: now });
    const realised = state.realised - pos.realised;
    ledger.movement(
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
    ledger.addStrategyQuantity(o.account, o.strategy, o.exchange, o.symbol, o.product, buy ? q : -q);
  }
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
