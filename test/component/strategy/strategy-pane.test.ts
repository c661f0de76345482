// The Strategy tab's wiring where jsdom can check it (drawing is e2e in Chromium; the chart library is
// a recording fake here): the legs and figures tables, the payoff handed to two line series, Enter in
// the send form sending nothing, a partial answer's two buttons each asking first and calling its
// channel, and a followed saved strategy shown read-only.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StrategyView } from '@contract';
import Strategy from '../../../src-renderer/src/panes/Strategy.svelte';
import { CONFIRM, STRATEGY_BUILDER } from '../../../src-renderer/src/state/context';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { StrategyBuilderState } from '../../../src-renderer/src/state/strategy-builder.svelte';
import { deskContext } from '../../support/component/desk-context';
import { settle } from '../../support/component/desk-fixture';
import { FakeBridge } from '../../support/component/fake-bridge';

const made = vi.hoisted(() => ({ series: [] as { data: unknown[] }[] }));
vi.mock('lightweight-charts', () => {
  const series = () => {
    const s = {
      data: [] as unknown[],
      setData: (d: unknown[]) => void (s.data = d),
      applyOptions: () => undefined,
      createPriceLine: () => ({}),
    };
    made.series.push(s);
    return s;
  };
  return {
    LineSeries: 'Line',
    LineStyle: { Solid: 0, Dashed: 2 },
    createOptionsChart: () => ({
      addSeries: () => series(),
      applyOptions: () => undefined,
      timeScale: () => ({ setVisibleLogicalRange: () => undefined }),
      remove: () => undefined,
    }),
    createSeriesMarkers: () => ({ setMarkers: () => undefined }),
  };
});

afterEach(() => {
  document.body.replaceChildren();
  made.series.length = 0;
});

const NOW = Date.parse('2026-11-20T05:00:00Z');

function leg(symbol: string, action: 'BUY' | 'SELL', over: Partial<StrategyView['legs'][number]> = {}) {
  return {
    symbol,
    exchange: 'NFO',
    action,
    quantity: 65,
    lotSize: 65,
    pricetype: 'MARKET' as const,
    price: 0,
    state: 'sent' as const,
    orderids: ['7'],
    open: action === 'BUY' ? 65 : -65,
    averagePrice: '50.00',
    ltp: 50,
    ...over,
  };
}

const partial: StrategyView = {
  id: 's9',
  name: 'Spread',
  product: 'NRML',
  underlying: 'NIFTY',
  createdAt: '2026-11-20 10:30:00',
  state: 'partial',
  legs: [
    leg('NIFTY24NOV2625200CE', 'BUY'),
    leg('NIFTY24NOV2625000CE', 'SELL', {
      state: 'refused',
      reason: 'RMS: margin exceeds',
      orderids: [],
      open: 0,
    }),
  ],
  realised: '0.00',
  unrealised: null,
  pnl: null,
};

function mount() {
  const bridge = new FakeBridge();
  bridge.answer('strategies.exit', () => ({ ok: true, value: { ...partial, state: 'exiting' } }));
  const confirm = new ConfirmState();
  const builder = new StrategyBuilderState(bridge, { confirm, mode: () => 'paper', now: () => NOW });
  builder.takeChain({
    underlying: 'NIFTY',
    exchange: 'NFO',
    expiries: ['24-NOV-26'],
    expiry: '24-NOV-26',
    strikes: [],
    atm: 25_000,
    spot: 24_990,
    spotRef: undefined,
  });
  const quote = (ltp: number) => ({
    ltp,
    bid: ltp,
    ask: ltp,
    change: 0,
    changePercent: 0,
    volume: 1,
    seq: 0,
  });
  const base = { exchange: 'NFO', kind: 'CE' as const, expiry: '24NOV26', lotSize: 65, tickSize: 0.05 };
  builder.add({
    ...base,
    symbol: 'NIFTY24NOV2625000CE',
    strike: 25_000,
    strikeText: '25000',
    side: 'SELL',
    quote: quote(90),
  });
  builder.add({
    ...base,
    symbol: 'NIFTY24NOV2625200CE',
    strike: 25_200,
    strikeText: '25200',
    side: 'BUY',
    quote: quote(30),
  });
  render(Strategy, {
    context: deskContext(bridge, [
      [CONFIRM, confirm],
      [STRATEGY_BUILDER, builder],
    ]),
  });
  return { bridge, confirm, builder };
}

describe('Strategy pane', () => {
  it('shows the legs, the figures and both curves; Enter in the form sends nothing', async () => {
    const { confirm } = mount();
    await settle();
    const legs = screen.getByRole('table', { name: 'Strategy legs' });
    expect(legs.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(legs.querySelector('tbody tr td')?.textContent).toMatch(/SELL/);
    expect(legs.querySelector('tfoot')?.textContent).toMatch(/₹3,900\.00\s*Cr/);
    const figures = screen.getByRole('table', { name: 'Strategy figures' });
    expect(figures.textContent).toMatch(/Max profit₹3,900\.00/);
    expect(figures.textContent).toMatch(/Max loss₹9,100\.00/);
    expect(made.series).toHaveLength(2);
    expect(made.series[0]!.data.length).toBeGreaterThan(250);
    const name = screen.getByRole('textbox', { name: 'Name' });
    await fireEvent.input(name, { target: { value: 'Bear call' } });
    await fireEvent.submit(name.closest('form')!);
    expect(confirm.request).toBeUndefined();
  });

  it('a partial answer: the refused words, and Unwind asks first, then calls strategies.exit', async () => {
    const { bridge, builder, confirm } = mount();
    builder.result = partial;
    await settle();
    const sent = screen.getByRole('table', { name: 'Legs sent' });
    expect(sent.textContent).toMatch(/Refused/);
    expect(sent.textContent).toMatch(/RMS: margin exceeds/);
    expect(screen.getByRole('button', { name: 'Send remaining…' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Unwind sent legs…' }));
    expect(confirm.request?.title).toMatch(/Unwind the sent legs of “Spread”/);
    expect(bridge.callsTo('strategies.exit')).toHaveLength(0);
    confirm.answer(true);
    await settle();
    expect(bridge.callsTo('strategies.exit')).toEqual([{ channel: 'strategies.exit', input: { id: 's9' } }]);
    expect(screen.getByText(/Exiting/)).toBeTruthy();
  });

  it('a followed saved strategy is read-only, with a way back to building', async () => {
    const { builder } = mount();
    builder.showSaved({ ...partial, state: 'open', legs: [leg('NIFTY24NOV2625200CE', 'BUY')] });
    await settle();
    expect(screen.getByRole('heading', { name: /Following Spread/ })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Send the strategy' })).toBeNull();
    expect(screen.queryByRole('button', { name: /flip to/ })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Back to building' }));
    expect(screen.getByRole('table', { name: 'Strategy legs' }).querySelectorAll('tbody tr')).toHaveLength(2);
  });

  it('a followed strategy with nothing open says so, not how to build one', async () => {
    const { builder } = mount();
    builder.showSaved({
      ...partial,
      state: 'closed',
      legs: [leg('NIFTY24NOV2625200CE', 'BUY', { open: 0 })],
    });
    await settle();
    expect(screen.getByText(/Spread holds no open legs \(closed\)/)).toBeTruthy();
    expect(screen.queryByText(/No legs yet/)).toBeNull();
  });
});
