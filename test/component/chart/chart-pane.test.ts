// The Chart pane's wiring, where jsdom can check it (it cannot draw: drawing is e2e in Chromium, and
// here the library is a recording fake): it follows the ticket's instrument, reads the gateway's
// intervals and the bars at one and hands them to the series, marks the instrument's fills and draws
// its working orders as price lines (and says both in text: the canvas says nothing to a screen
// reader), follows the books, and removes the chart when the pane goes.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderSnapshot, TradeRow } from '@contract';
import Chart from '../../../src-renderer/src/panes/Chart.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { BOOKS } from '../../../src-renderer/src/state/context';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

interface FakeSeries {
  type: string;
  data: unknown[];
  lines: Set<{ price: number; title: string }>;
  markers?: { markers: { text?: string }[] };
}
interface FakeChart {
  series: FakeSeries[];
  removed: boolean;
}
const made = vi.hoisted(() => ({ charts: [] as FakeChart[] }));
vi.mock('lightweight-charts', () => {
  const series = (type: string) => {
    const s = {
      type,
      data: [] as unknown[],
      lines: new Set<{ price: number; title: string }>(),
      setData: (d: unknown[]) => void (s.data = d),
      update: () => undefined,
      applyOptions: () => undefined,
      priceScale: () => ({ applyOptions: () => undefined }),
      createPriceLine: (o: { price: number; title: string }) => (s.lines.add(o), o),
      removePriceLine: (l: { price: number; title: string }) => void s.lines.delete(l),
    };
    return s;
  };
  return {
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    LineStyle: { Solid: 0, Dashed: 2 },
    createChart: () => {
      const chart = {
        series: [] as ReturnType<typeof series>[],
        removed: false,
        addSeries: (type: string) => (chart.series.push(series(type)), chart.series.at(-1)!),
        subscribeCrosshairMove: () => undefined,
        unsubscribeCrosshairMove: () => undefined,
        applyOptions: () => undefined,
        timeScale: () => ({ setVisibleLogicalRange: () => undefined }),
        remove: () => void (chart.removed = true),
      };
      made.charts.push(chart as unknown as FakeChart);
      return chart;
    },
    createSeriesMarkers: (s: FakeSeries, markers: unknown[]) => {
      const plugin = { markers, setMarkers: (m: unknown[]) => void (plugin.markers = m) };
      s.markers = plugin as FakeSeries['markers'];
      return plugin;
    },
  };
});

afterEach(() => {
  document.body.replaceChildren();
  made.charts.length = 0;
});

const NOW_S = Math.floor(Date.now() / 60_000) * 60;
const bars = Array.from({ length: 30 }, (_, i) => {
  const o = 900 + i;
  return { timestamp: NOW_S - (29 - i) * 60, open: o, high: o + 1, low: o - 1, close: o + 0.5, volume: 100 };
});

/** `HH:MM:SS` of an epoch second in IST, as a trade book writes it. */
function istClock(sec: number): string {
  const d = new Date((sec + 19_800) * 1000);
  return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

function trade(over: Partial<TradeRow>): TradeRow {
  return {
    orderid: '1',
    tradeid: 't1',
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    product: 'MIS',
    quantity: 5,
    averagePrice: 910.25,
    tradeValue: 4551.25,
    timestamp: istClock(NOW_S - 90),
    ...over,
  };
}

const order: OrderSnapshot = {
  orderid: 'o1',
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'SELL',
  product: 'MIS',
  pricetype: 'LIMIT',
  quantity: 3,
  filledQuantity: 0,
  price: 950,
  triggerPrice: 0,
  averagePrice: 0,
  status: 'open',
  timestamp: istClock(NOW_S - 60),
};

async function mount() {
  const f = deskFixture({ instruments: [SBIN] });
  f.bridge
    .answer('market.intervals', () => ({
      ok: true,
      value: {
        status: 'success',
        data: {
          seconds: ['5s'],
          minutes: ['1m', '5m', '15m'],
          hours: ['1h'],
          days: ['D'],
          weeks: [],
          months: [],
        },
      },
    }))
    .answer('market.ticker', () => ({ ok: true, value: { status: 'success', data: bars } }));
  const books = new BooksState(f.bridge);
  f.context.set(BOOKS, books);
  const view = render(Chart, { context: f.context });
  await settle(10);
  const chart = made.charts.at(-1)!;
  const candles = chart.series.find((s) => s.type === 'Candlestick')!;
  return { ...f, books, view, chart, candles };
}

describe('Chart pane', () => {
  it('says it follows the ticket until the ticket has an instrument, then reads its bars', async () => {
    const f = await mount();
    expect(screen.getByText(/The chart follows the ticket's instrument/)).toBeTruthy();
    expect(f.bridge.callsTo('market.ticker')).toEqual([]);

    await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
    await settle(10);
    const calls = f.bridge.callsTo('market.ticker');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toMatchObject({ symbol: 'SBIN', exchange: 'NSE', interval: '1m' });
    const canvas = document.querySelector('.canvas')!;
    expect(canvas.getAttribute('data-bars')).toBe('30');
    // The bars went to the series at IST-safe times (IST wall clock as UTC seconds).
    expect(f.candles.data).toHaveLength(30);
    expect(f.candles.data[0]).toEqual({
      time: bars[0]!.timestamp + 19_800,
      open: 900,
      high: 901,
      low: 899,
      close: 900.5,
    });
    // The quick intervals the gateway offers, and all of them in the list.
    expect(screen.getByRole('button', { name: '1m bars' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('button', { name: '5s bars' })).toBeNull();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      '5s',
      '1m',
      '5m',
      '15m',
      '1h',
      'D',
    ]);

    await fireEvent.click(screen.getByRole('button', { name: '15m bars' }));
    await settle(10);
    expect(f.bridge.callsTo('market.ticker').at(-1)!.input).toMatchObject({ interval: '15m' });
    expect(canvas.getAttribute('data-interval')).toBe('15m');
  });

  it('describes the instrument’s fills and working orders in text, following the books', async () => {
    const f = await mount();
    await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
    await settle(10);
    const fills = () =>
      [...screen.getByTestId('chart-fills').querySelectorAll('li')].map((li) => li.textContent);
    const lines = () =>
      [...screen.getByTestId('chart-lines').querySelectorAll('li')].map((li) => li.textContent);
    expect(fills()).toEqual([]);

    f.books.trades = { trades: [trade({}), trade({ tradeid: 't2', symbol: 'INFY' })] };
    f.books.orders = {
      orders: [order, { ...order, orderid: 'o2', status: 'complete' }],
      statistics: {
        totalBuyOrders: 0,
        totalSellOrders: 2,
        totalCompletedOrders: 1,
        totalOpenOrders: 1,
        totalRejectedOrders: 0,
      },
    };
    await settle();
    expect(fills()).toEqual([
      expect.stringMatching(/^B 5 @ 910\.25 at \d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2} IST$/),
    ]);
    expect(lines()).toEqual(['SELL 3 LMT at 950.00']);
    // … and drawn: a marker on the series, a price line at the order's price.
    expect(f.candles.markers?.markers.map((m) => m.text)).toEqual(['B 5 @ 910.25']);
    expect([...f.candles.lines].map((l) => [l.price, l.title])).toEqual([[950, 'SELL 3 LMT']]);

    // The order fills: its line goes, its fill appears.
    f.books.orders = { ...f.books.orders, orders: [{ ...order, status: 'complete', filledQuantity: 3 }] };
    f.books.trades = {
      trades: [
        ...f.books.trades.trades,
        trade({ tradeid: 't3', action: 'SELL', quantity: 3, averagePrice: 950 }),
      ],
    };
    await settle();
    expect(lines()).toEqual([]);
    expect(fills()).toHaveLength(2);
    expect(fills()[1]).toMatch(/^S 3 @ 950\.00 at /);
    expect(f.candles.lines.size).toBe(0);
    expect(f.candles.markers?.markers).toHaveLength(2);
  });

  it('credits TradingView with a link the host opens in the system browser (the licence asks for one)', async () => {
    await mount();
    const link = screen.getByRole('link', { name: 'Charts by TradingView' });
    expect(link.getAttribute('href')).toBe('https://www.tradingview.com/');
    // A new window: the desktop host denies it and hands this listed address to the OS browser.
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes the chart when the pane goes', async () => {
    const f = await mount();
    expect(f.chart.removed).toBe(false);
    f.view.unmount();
    expect(f.chart.removed).toBe(true);
  });

  it('shows why the bars could not be read', async () => {
    const f = await mount();
    f.bridge.answer('market.ticker', () => ({
      ok: false,
      error: { kind: 'not_offered', message: 'History is not offered by this broker' },
    }));
    await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
    await settle(10);
    expect(screen.getByText('Bars could not be read: History is not offered by this broker')).toBeTruthy();
  });
});
