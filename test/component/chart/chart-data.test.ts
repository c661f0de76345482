// The chart's data: bars → candles and volume at IST-safe times (IST wall clock written as UTC, so
// the library's UTC axis reads IST anywhere), sorted and de-duplicated; fills → markers on the bar
// they fell in; open orders → price lines (limit and trigger); ticks moving the last bar; the
// lookback per interval; and ChartState's loads (interval switch, unknown interval, stale answers).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BarRecord, IntervalsResponse, OrderSnapshot, TickerResponse, TradeRow } from '@contract';
import {
  applyTick,
  barAt,
  barsToSeries,
  chartTime,
  formatChartTime,
  includePrices,
  intervalList,
  istToday,
  lookbackFrom,
  orderLines,
  stampToChartTime,
  tradeMarkers,
  type Candle,
} from '../../../src-renderer/src/lib/chart-data';
import { ChartState } from '../../../src-renderer/src/state/chart.svelte';
import { deferred, FakeBridge } from '../../support/component/fake-bridge';

// 23-Nov-2026 09:15:00 IST = 03:45:00 UTC.
const OPEN_UTC_S = Date.UTC(2026, 10, 23, 3, 45, 0) / 1000;
const TODAY = { year: 2026, month: 11, day: 23 };

function bar(i: number, over: Partial<BarRecord> = {}): BarRecord {
  const o = 900 + i;
  return {
    timestamp: OPEN_UTC_S + i * 60,
    open: o,
    high: o + 2,
    low: o - 1,
    close: o + 1,
    volume: 1000 + i,
    ...over,
  };
}

describe('bars → series', () => {
  it('writes each bar at its IST wall-clock time as UTC, whatever the machine’s zone', () => {
    const { candles, volumes } = barsToSeries([bar(0)]);
    // 09:15 IST reads 09:15 on the library's UTC axis.
    const shown = new Date(candles[0]!.time * 1000);
    expect([shown.getUTCHours(), shown.getUTCMinutes()]).toEqual([9, 15]);
    expect(candles[0]).toEqual({ time: OPEN_UTC_S + 19_800, open: 900, high: 902, low: 899, close: 901 });
    expect(volumes[0]).toMatchObject({ time: OPEN_UTC_S + 19_800, value: 1000 });
    expect(formatChartTime(candles[0]!.time, '1m')).toBe('23-Nov-2026 09:15 IST');
    expect(formatChartTime(candles[0]!.time, '5s')).toBe('23-Nov-2026 09:15:00 IST');
    expect(formatChartTime(candles[0]!.time, 'D')).toBe('23-Nov-2026');
  });

  it('puts a daily bar on its IST date, stamped 00:00 UTC (the live server) or IST midnight alike', () => {
    // 2026-09-01: the live server's 1788220800 (00:00 UTC), and IST midnight (18:30 UTC the day before).
    const utc = 1_788_220_800;
    for (const stamp of [utc, utc - 19_800]) {
      const { candles, volumes } = barsToSeries([bar(0, { timestamp: stamp })], 'D');
      expect(candles[0]!.time).toBe(utc);
      expect(volumes[0]!.time).toBe(utc);
      expect(formatChartTime(candles[0]!.time, 'D')).toBe('01-Sep-2026');
    }
    // A fill at 09:20 IST that day sits on that day's bar.
    const { candles } = barsToSeries([bar(0, { timestamp: utc })], 'D');
    const fill: TradeRow = {
      orderid: '1',
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      product: 'MIS',
      quantity: 1,
      averagePrice: 900,
      tradeValue: 900,
      timestamp: '01-Sep-2026 09:20:00',
    };
    const [marker] = tradeMarkers(
      [fill],
      { symbol: 'SBIN', exchange: 'NSE' },
      candles.map((c) => c.time),
      TODAY,
    );
    expect(marker?.time).toBe(utc);
    // Intraday bars keep their own time.
    expect(barsToSeries([bar(0)], '1m').candles[0]!.time).toBe(OPEN_UTC_S + 19_800);
  });

  it('sorts ascending, keeps one bar per time (the last given), drops bars with non-finite figures', () => {
    const { candles, volumes } = barsToSeries([
      bar(2),
      bar(0),
      bar(1),
      bar(1, { close: 777 }),
      bar(3, { high: NaN }),
    ]);
    expect(candles.map((c) => c.time)).toEqual([0, 1, 2].map((i) => chartTime(OPEN_UTC_S + i * 60)));
    expect(candles[1]!.close).toBe(777);
    expect(volumes).toHaveLength(3);
    // Volume takes the bar's direction: 777 < open 901 is a down bar.
    expect(volumes[0]!.color).not.toBe(volumes[1]!.color);
  });

  it('lists the gateway’s intervals in reading order', () => {
    const data: IntervalsResponse['data'] = {
      seconds: ['5s'],
      minutes: ['1m', '5m'],
      hours: ['1h'],
      days: ['D'],
      weeks: ['W'],
      months: ['M'],
    };
    expect(intervalList(data)).toEqual(['5s', '1m', '5m', '1h', 'D', 'W', 'M']);
  });

  it('reads one day of 1-minute bars, a week of 5-minute, two years of days, all months', () => {
    const now = Date.UTC(2026, 10, 23, 9, 0, 0);
    expect(Number(lookbackFrom('1m', now))).toBe(now - 86_400_000);
    expect(Number(lookbackFrom('5m', now))).toBe(now - 7 * 86_400_000);
    expect(Number(lookbackFrom('D', now))).toBe(now - 730 * 86_400_000);
    expect(lookbackFrom('M', now)).toBeUndefined();
    // A 13-digit millisecond bound, as the ticker takes it.
    expect(lookbackFrom('1m', now)).toMatch(/^\d{13}$/);
  });
});

describe('fills → markers', () => {
  const times = [0, 1, 2, 3].map((i) => chartTime(OPEN_UTC_S + i * 60) as number);
  const trade = (over: Partial<TradeRow>): TradeRow => ({
    orderid: '1',
    tradeid: 't1',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    quantity: 10,
    averagePrice: 901.35,
    tradeValue: 9013.5,
    timestamp: '23-Nov-2026 09:16:42',
    ...over,
  });

  it('puts each fill of the instrument on the bar it fell in, buys under, sells over, oldest first', () => {
    const markers = tradeMarkers(
      [
        trade({ tradeid: 's', action: 'SELL', timestamp: '23-Nov-2026 09:17:05', averagePrice: 903 }),
        trade({}),
        trade({ tradeid: 'x', symbol: 'INFY' }),
        trade({ tradeid: 'y', exchange: 'BSE' }),
      ],
      { symbol: 'SBIN', exchange: 'NSE' },
      times,
      TODAY,
      0.05,
    );
    expect(markers).toHaveLength(2);
    // 09:16:42 falls in the 09:16 bar; 09:17:05 in the 09:17 bar.
    expect(markers[0]).toMatchObject({
      time: times[1],
      shape: 'arrowUp',
      position: 'atPriceBottom',
      price: 901.35,
      color: '#3b82f6',
      text: 'B 10 @ 901.35',
    });
    expect(markers[1]).toMatchObject({
      time: times[2],
      shape: 'arrowDown',
      position: 'atPriceTop',
      text: 'S 10 @ 903.00',
    });
  });

  it('takes today’s IST date for a time-only stamp, and leaves out fills before the first bar', () => {
    expect(stampToChartTime('09:16:42', TODAY)).toBe(Date.UTC(2026, 10, 23, 9, 16, 42) / 1000);
    expect(stampToChartTime('2026-11-23 09:16:42', TODAY)).toBe(Date.UTC(2026, 10, 23, 9, 16, 42) / 1000);
    expect(stampToChartTime('not a time', TODAY)).toBeUndefined();
    const early = tradeMarkers(
      [trade({ timestamp: '09:10:00' })],
      { symbol: 'SBIN', exchange: 'NSE' },
      times,
      TODAY,
    );
    expect(early).toEqual([]);
    expect(barAt(times, times[3]! + 5000)).toBe(times[3]);
  });

  it('knows today in IST across the UTC midnight', () => {
    // 20:00 UTC on the 23rd is 01:30 IST on the 24th.
    expect(istToday(Date.UTC(2026, 10, 23, 20, 0, 0))).toEqual({ year: 2026, month: 11, day: 24 });
  });
});

describe('working orders → price lines', () => {
  const order = (over: Partial<OrderSnapshot>): OrderSnapshot => ({
    orderid: 'o1',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    pricetype: 'LIMIT',
    quantity: 10,
    filledQuantity: 4,
    price: 880,
    triggerPrice: 0,
    averagePrice: 0,
    status: 'open',
    timestamp: '23-Nov-2026 09:16:42',
    ...over,
  });

  it('draws open and trigger-pending orders of the instrument: the limit, and the trigger of a stop', () => {
    const lines = orderLines(
      [
        order({}),
        order({
          orderid: 'o2',
          action: 'SELL',
          pricetype: 'SL',
          price: 870,
          triggerPrice: 871,
          status: 'trigger pending',
          filledQuantity: 0,
        }),
        order({
          orderid: 'o3',
          pricetype: 'SL-M',
          price: 0,
          triggerPrice: 930,
          status: 'trigger pending',
          filledQuantity: 0,
        }),
        order({ orderid: 'o4', status: 'complete' }),
        order({ orderid: 'o5', status: 'cancelled' }),
        order({ orderid: 'o6', symbol: 'INFY' }),
      ],
      { symbol: 'SBIN', exchange: 'NSE' },
    );
    expect(lines.map((l) => [l.key, l.price, l.title, l.dashed])).toEqual([
      ['o1:price', 880, 'BUY 6 LMT', false],
      ['o2:price', 870, 'SELL 10 SL limit', false],
      ['o2:trigger', 871, 'SELL 10 trigger', true],
      ['o3:trigger', 930, 'BUY 10 trigger', true],
    ]);
    expect(lines[1]!.color).toBe('#ef4444');
  });
});

describe('price scale', () => {
  it('widens the range to keep working orders in view', () => {
    expect(includePrices({ minValue: 900, maxValue: 910 }, [874.9, 905])).toEqual({
      minValue: 874.9,
      maxValue: 910,
    });
    expect(includePrices({ minValue: 900, maxValue: 910 }, [])).toEqual({ minValue: 900, maxValue: 910 });
    expect(includePrices(null, [874.9])).toBeNull();
  });
});

describe('ticks → the last bar', () => {
  const last: Candle = { time: chartTime(OPEN_UTC_S), open: 900, high: 902, low: 899, close: 901 };
  const at = (sec: number) => (OPEN_UTC_S + sec) * 1000;

  it('moves the last bar inside its period, opens the next after it, ignores older ticks', () => {
    expect(applyTick(last, 905, at(30), 60)).toEqual({ ...last, high: 905, close: 905 });
    expect(applyTick(last, 898, at(59), 60)).toEqual({ ...last, low: 898, close: 898 });
    expect(applyTick(last, 904, at(125), 60)).toEqual({
      time: last.time + 120,
      open: 904,
      high: 904,
      low: 904,
      close: 904,
    });
    expect(applyTick(last, 904, at(-1), 60)).toBeUndefined();
    // Daily bars (no fixed period) and a zero price change nothing.
    expect(applyTick(last, 904, at(30), undefined)).toBeUndefined();
    expect(applyTick(last, 0, at(30), 60)).toBeUndefined();
  });

  it('keeps the bars’ own phase: hourly bars from 09:15 stay on :15', () => {
    const hour: Candle = { ...last, time: chartTime(OPEN_UTC_S) };
    const next = applyTick(hour, 910, at(3600 + 600), 3600)!;
    const d = new Date(next.time * 1000);
    expect([d.getUTCHours(), d.getUTCMinutes()]).toEqual([10, 15]);
  });
});

describe('ChartState', () => {
  const NOW = Date.UTC(2026, 10, 23, 9, 0, 0);
  const ok = (data: BarRecord[]): { ok: true; value: TickerResponse } => ({
    ok: true,
    value: { status: 'success', data },
  });
  let bridge: FakeBridge;

  beforeEach(() => {
    bridge = new FakeBridge().answer('market.intervals', () => ({
      ok: true,
      value: {
        status: 'success',
        data: { seconds: [], minutes: ['1m', '5m'], hours: [], days: ['D'], weeks: [], months: [] },
      },
    }));
  });
  afterEach(() => vi.useRealTimers());

  it('reads the bars of the instrument at the chosen interval and reloads on a switch', async () => {
    bridge.answer('market.ticker', (input) => ok(input?.interval === '5m' ? [bar(0)] : [bar(0), bar(1)]));
    const chart = new ChartState(bridge, () => NOW);
    await chart.loadIntervals();
    expect(chart.intervals).toEqual(['1m', '5m', 'D']);
    await chart.show({ symbol: 'SBIN', exchange: 'NSE' });
    expect(chart.series.candles).toHaveLength(2);
    expect(bridge.callsTo('market.ticker')[0]!.input).toEqual({
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: '1m',
      from: String(NOW - 86_400_000),
    });
    await chart.setInterval('5m');
    expect(chart.interval).toBe('5m');
    expect(chart.series.candles).toHaveLength(1);
    expect(chart.loads).toBe(2);
    // An interval the gateway does not offer is refused in words; nothing is asked.
    await chart.setInterval('3h');
    expect(chart.error).toBe('The gateway offers no 3h bars');
    expect(bridge.callsTo('market.ticker')).toHaveLength(2);
  });

  it('says why the intervals could not be read, and still loads at its default interval', async () => {
    bridge.answer('market.intervals', () => ({
      ok: false,
      error: { kind: 'network', message: 'Gateway unreachable' },
    }));
    bridge.answer('market.ticker', () => ok([bar(0)]));
    const chart = new ChartState(bridge, () => NOW);
    await chart.loadIntervals();
    await chart.show({ symbol: 'SBIN', exchange: 'NSE' });
    expect(chart.intervalsError).toBe('Intervals could not be read: Gateway unreachable');
    expect(chart.error).toBeUndefined();
    expect(chart.series.candles).toHaveLength(1);
  });

  it('drops an answer to an earlier question and says why a read failed', async () => {
    const slow = deferred<{ ok: true; value: TickerResponse }>();
    bridge.answer('market.ticker', (input) => (input?.symbol === 'SBIN' ? slow.promise : ok([bar(5)])));
    const chart = new ChartState(bridge, () => NOW);
    const first = chart.show({ symbol: 'SBIN', exchange: 'NSE' });
    await chart.show({ symbol: 'INFY', exchange: 'NSE' });
    slow.resolve(ok([bar(0), bar(1), bar(2)]));
    await first;
    expect(chart.target?.symbol).toBe('INFY');
    expect(chart.series.candles.map((c) => c.open)).toEqual([905]);

    bridge.answer('market.ticker', () => ({
      ok: false,
      error: { kind: 'bad_input', message: 'Invalid interval' },
    }));
    await chart.reload();
    expect(chart.error).toBe('Bars could not be read: Invalid interval');
    expect(chart.series.candles).toEqual([]);
  });
});
