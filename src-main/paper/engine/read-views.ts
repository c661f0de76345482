// The engine's read side: ledger rows turned into the engine's records (rupees, average prices,
// marked to the last price) for the books, funds and exposure checks. Reads only; the engine runs
// its matching first, so what is read is current.
import type { Action, Product } from '../../contract/index.js';
import type { Instrument } from '../instruments/instrument.js';
import type { Clock, Market } from '../market/market.js';
import type {
  PaperFunds,
  PaperHolding,
  PaperOrder,
  PaperPosition,
  PaperTrade,
  StrategyExposure,
} from './engine.js';
import { istDayOf, istDayStartMs } from './ist-time.js';
import type { Ledger } from './ledger.js';
import type { OrderRow, TradeRow } from './ledger-rows.js';
import { ACTIVE } from './order-rules.js';
import { toRupees, toUnits } from './units.js';
import { normaliseSymbol } from './validation.js';

export interface ReadDeps {
  ledger: Ledger;
  market: Market;
  clock: Clock;
  /** Starting capital (units): the balance of an account that has not traded yet. */
  capital: number;
  instrument(exchange: string, symbol: string): Instrument | undefined;
}

export class ReadViews {
  /**
   * The record of each cached order row, made once per row version (the ledger hands out a new
   * row object on every change), frozen, so the book's formatter can key its own cache on it.
   */
  private readonly records = new WeakMap<OrderRow, PaperOrder>();

  constructor(private readonly d: ReadDeps) {}

  order(account: string, orderid: string): PaperOrder | undefined {
    const o = this.d.ledger.order(account, orderid);
    return o ? toPaperOrder(o) : undefined;
  }

  /**
   * Today's orders and any still working from before, newest first. An order that has not changed
   * since an earlier call is the same (frozen) object.
   */
  orders(account: string): readonly PaperOrder[] {
    const today = istDayOf(this.d.clock.now());
    const out: PaperOrder[] = [];
    for (const o of this.d.ledger.recentOrders(account, istDayStartMs(today))) {
      if (!ACTIVE.has(o.status) && istDayOf(o.created_ms) !== today) continue;
      let record = this.records.get(o);
      if (record === undefined) {
        record = Object.freeze(toPaperOrder(o));
        this.records.set(o, record);
      }
      out.push(record);
    }
    return out;
  }

  trades(account: string): PaperTrade[] {
    const today = istDayOf(this.d.clock.now());
    return this.d.ledger
      .trades(account)
      .filter((t) => istDayOf(t.time_ms) === today)
      .map(toPaperTrade);
  }

  /** Open positions, and today's closed ones (spec §3 keeps a flat row for the day). */
  positions(account: string): PaperPosition[] {
    const today = istDayOf(this.d.clock.now());
    const out: PaperPosition[] = [];
    for (const p of this.d.ledger.positions(account)) {
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
    return this.d.ledger.holdings(account).map((h) => {
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
    const acc = this.d.ledger.account(account);
    let unrealised = 0;
    for (const p of this.d.ledger.positions(account)) {
      if (p.quantity === 0) continue;
      const ltp = this.ltpUnits(p.exchange, p.symbol);
      if (ltp > 0) unrealised += ltp * p.quantity - p.cost;
    }
    return {
      availablecash: toRupees(acc?.available ?? this.d.capital),
      collateral: 0,
      m2mrealized: toRupees(acc?.realised ?? 0),
      m2munrealized: toRupees(unrealised),
      utiliseddebits: toRupees(acc?.used_margin ?? 0),
    };
  }

  /** Available cash in units, for the funds check. */
  availableUnits(account: string): number {
    return this.d.ledger.account(account)?.available ?? this.d.capital;
  }

  strategyQuantity(
    account: string,
    strategy: string,
    symbol: string,
    exchange: string,
    product: Product,
  ): number {
    return this.d.ledger.strategyQuantity(account, strategy, exchange, normaliseSymbol(symbol), product);
  }

  strategyExposure(account: string, strategy: string): StrategyExposure[] {
    return this.d.ledger.strategyExposure(account, strategy);
  }

  private ltpUnits(exchange: string, symbol: string): number {
    const inst = this.d.instrument(exchange, symbol);
    return inst ? toUnits(this.d.market.lastPrice(inst)) : 0;
  }
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
