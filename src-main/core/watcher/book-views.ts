// Gateway books → the contract's view models, pure. The `books.*` channels and the watcher's
// `books.*` events both go through here, so the desk gets one shape whichever way a book arrived.
import type {
  FundsRecord,
  FundsView,
  HoldingsResponse,
  HoldingsView,
  OrderBookResponse,
  OrdersView,
  PositionRecord,
  PositionsView,
  TradeRecord,
  TradesView,
} from '../../contract/index.js';
import { toSnapshot } from './order-diff.js';
import { toPositionView, totalMtm } from './position-diff.js';

export function toOrdersView(book: OrderBookResponse['data']): OrdersView {
  const s = book.statistics;
  return {
    orders: book.orders.map(toSnapshot),
    statistics: {
      totalBuyOrders: s.total_buy_orders,
      totalSellOrders: s.total_sell_orders,
      totalCompletedOrders: s.total_completed_orders,
      totalOpenOrders: s.total_open_orders,
      totalRejectedOrders: s.total_rejected_orders,
    },
  };
}

export function toTradesView(rows: readonly TradeRecord[]): TradesView {
  return {
    trades: rows.map((t) => ({
      orderid: t.orderid,
      ...(t.tradeid ? { tradeid: t.tradeid } : {}),
      symbol: t.symbol,
      exchange: t.exchange,
      action: t.action.toUpperCase(),
      product: t.product,
      quantity: t.quantity,
      averagePrice: t.average_price,
      tradeValue: t.trade_value,
      ...(t.strategy ? { strategy: t.strategy } : {}),
      timestamp: t.timestamp,
    })),
  };
}

/** `ltps`: last prices known by `exchange:symbol`; a row's own ltp fills the gaps. */
export function toPositionsView(
  rows: readonly PositionRecord[],
  ltps: ReadonlyMap<string, number>,
): PositionsView {
  const positions = rows.map((p) => toPositionView(p, ltps));
  return { positions, totalMtm: totalMtm(positions.map((p) => p.mtm)) };
}

export function toHoldingsView(data: HoldingsResponse['data']): HoldingsView {
  const s = data.statistics;
  return {
    holdings: data.holdings.map((h) => ({
      symbol: h.symbol,
      exchange: h.exchange,
      product: h.product,
      quantity: h.quantity,
      averagePrice: h.average_price ?? null,
      ltp: h.ltp ?? null,
      pnl: h.pnl,
      pnlPercent: h.pnlpercent,
    })),
    statistics: {
      totalHoldingValue: s.totalholdingvalue,
      totalInvestmentValue: s.totalinvvalue,
      totalPnl: s.totalprofitandloss,
      totalPnlPercent: s.totalpnlpercentage,
    },
  };
}

export function toFundsView(f: FundsRecord): FundsView {
  return {
    availableCash: f.availablecash,
    collateral: f.collateral,
    realisedMtm: f.m2mrealized,
    unrealisedMtm: f.m2munrealized,
    utilisedDebits: f.utiliseddebits,
  };
}
