// Gateway books → view models: MTM worked out in exact decimals (a binary float misses the half paisa
// at 1000.01 − 1000.005), totals summed in paise, and the camel-cased rows the desk reads.
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../../src-main/contract/index.js';
import {
  mtmOf,
  toFundsView,
  toOrdersView,
  toPositionsView,
  toTradesView,
  totalMtm,
} from '../../../src-main/core/watcher/index.js';

const position = (p: Partial<PositionRecord>): PositionRecord => ({
  symbol: 'SBIN',
  exchange: 'NSE',
  product: 'MIS',
  quantity: 1,
  average_price: '100.00',
  ...p,
});

describe('MTM', () => {
  it('is exact to the paisa, rounding a half paisa away from zero, longs and shorts alike', () => {
    expect(mtmOf(1000.01, 1000.005, 1)).toBe(0.01);
    expect(mtmOf(1000.005, 1000.01, 1)).toBe(-0.01);
    expect(mtmOf(100.05, 99.9, 3)).toBe(0.45);
    expect(mtmOf(812.35, 812.3375, 3)).toBe(0.04);
    expect(mtmOf(99.95, 100.05, -40)).toBe(4);
  });

  it('totals in paise (0.1 + 0.2 is 0.3), null while a row has no price', () => {
    expect(totalMtm([0.1, 0.2])).toBe(0.3);
    expect(totalMtm([])).toBe(0);
    expect(totalMtm([1.5, null])).toBeNull();
  });

  it('marks each row at the last price known, else the row’s own; flat rows are 0', () => {
    const view = toPositionsView(
      [
        position({ symbol: 'SBIN', quantity: 10, average_price: '812.30' }),
        position({ symbol: 'TCS', quantity: -2, average_price: '3500.10', ltp: 3490.1 }),
        position({ symbol: 'ITC', quantity: 0, average_price: '0.00' }),
      ],
      new Map([['NSE:SBIN', 812.35]]),
    );
    expect(view.positions.map((p) => [p.symbol, p.ltp, p.mtm])).toEqual([
      ['SBIN', 812.35, 0.5],
      ['TCS', 3490.1, 20],
      ['ITC', null, 0],
    ]);
    expect(view.totalMtm).toBe(20.5);
    expect(toPositionsView([position({ quantity: 5 })], new Map()).totalMtm).toBeNull();
  });
});

describe('realised P&L on a position row', () => {
  it("takes a flat row's pnl (a live gateway), the sandbox's today_realized_pnl, and nothing else", () => {
    const view = toPositionsView(
      [
        // As the live gateway's closed row: average 0.0, the day's P&L in pnl.
        position({ symbol: 'RELIANCE', quantity: 0, average_price: '0.0', ltp: 1189.9, pnl: 5.9 }),
        position({ symbol: 'NHPC', quantity: -1, pnl: 0.02, today_realized_pnl: 1.5 }),
        // An open row's pnl mixes realised and unrealised: not a realised figure.
        position({ symbol: 'YESBANK', quantity: -104, pnl: -10.44 }),
      ],
      new Map(),
    );
    expect(view.positions.map((p) => [p.symbol, p.realised])).toEqual([
      ['RELIANCE', 5.9],
      ['NHPC', 1.5],
      ['YESBANK', undefined],
    ]);
    // A closed row's unrealised MTM stays 0: the total is open MTM only.
    expect(view.positions[0]!.mtm).toBe(0);
  });
});

describe('views', () => {
  it('orders: camel-cased rows and statistics', () => {
    const view = toOrdersView({
      orders: [
        {
          action: 'buy',
          exchange: 'NSE',
          order_status: 'complete',
          orderid: '7',
          price: 0,
          pricetype: 'MARKET',
          product: 'MIS',
          quantity: 5,
          symbol: 'SBIN',
          timestamp: '20-Nov-2026 10:00:00',
          trigger_price: 0,
          average_price: 812.35,
          strategy: 'alpha',
        },
      ],
      statistics: {
        total_buy_orders: 1,
        total_sell_orders: 0,
        total_completed_orders: 1,
        total_open_orders: 0,
        total_rejected_orders: 0,
      },
    });
    expect(view).toEqual({
      orders: [
        {
          orderid: '7',
          symbol: 'SBIN',
          exchange: 'NSE',
          action: 'BUY',
          product: 'MIS',
          pricetype: 'MARKET',
          quantity: 5,
          filledQuantity: 5,
          price: 0,
          triggerPrice: 0,
          averagePrice: 812.35,
          status: 'complete',
          strategy: 'alpha',
          timestamp: '20-Nov-2026 10:00:00',
        },
      ],
      statistics: {
        totalBuyOrders: 1,
        totalSellOrders: 0,
        totalCompletedOrders: 1,
        totalOpenOrders: 0,
        totalRejectedOrders: 0,
      },
    });
  });

  it('trades and funds: camel-cased, money kept as the gateway’s decimal text', () => {
    expect(
      toTradesView([
        {
          action: 'sell',
          average_price: 812.35,
          exchange: 'NSE',
          orderid: '7',
          product: 'CNC',
          quantity: 2,
          symbol: 'SBIN',
          timestamp: '10:00:01',
          trade_value: 1624.7,
        },
      ]),
    ).toEqual({
      trades: [
        {
          orderid: '7',
          symbol: 'SBIN',
          exchange: 'NSE',
          action: 'SELL',
          product: 'CNC',
          quantity: 2,
          averagePrice: 812.35,
          tradeValue: 1624.7,
          timestamp: '10:00:01',
        },
      ],
    });
    expect(
      toFundsView({
        availablecash: '98412.30',
        collateral: '0.00',
        m2mrealized: '-12.50',
        m2munrealized: '40.05',
        utiliseddebits: '1587.70',
      }),
    ).toEqual({
      availableCash: '98412.30',
      collateral: '0.00',
      realisedMtm: '-12.50',
      unrealisedMtm: '40.05',
      utilisedDebits: '1587.70',
    });
  });
});
