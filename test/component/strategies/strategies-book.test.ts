// The Strategies book by keyboard: a row per strategy with its state in words and its P&L in en-IN
// rupees; → opens it to its legs (side in words, lots), ← closes it; L opens the stop's box (a wrong
// value is answered in words, nothing sent; Enter sets it); E asks before an exit; a closed strategy
// offers Remove and no stop to set.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategyLegView, StrategyView } from '@contract';
import StrategiesBook from '../../../src-renderer/src/components/strategies/StrategiesBook.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { StrategiesState } from '../../../src-renderer/src/state/strategies.svelte';
import { flush } from '../../support/component/books-fixtures';
import { FakeBridge } from '../../support/component/fake-bridge';
import { strategyView, twoLots } from '../../support/component/strategy-views';

afterEach(() => document.body.replaceChildren());

const leg = (over: Partial<StrategyLegView> = {}): StrategyLegView => twoLots(over);
const view = (over: Partial<StrategyView> = {}): StrategyView =>
  strategyView({
    name: 'Bear call',
    legs: [
      leg(),
      leg({ symbol: 'NIFTY25NOV2624200CE', action: 'BUY', open: 150, ltp: 40, averagePrice: '45.00' }),
    ],
    pnl: '1234567.5',
    ...over,
  });

async function mount(list: StrategyView[]) {
  const bridge = new FakeBridge().answer('strategies.list', () => ({
    ok: true,
    value: { profileId: 'paper', strategies: list },
  }));
  const confirm = new ConfirmState();
  const strategies = new StrategiesState(bridge, { confirm });
  strategies.start();
  render(StrategiesBook, { strategies, bridge, hotkeys: new HotkeysState() });
  await flush();
  return { bridge, confirm, strategies };
}

const rowOf = (name: string) =>
  screen.getAllByTestId('strategy-row').find((r) => r.textContent?.includes(name))!;

describe('the Strategies book', () => {
  it('shows each strategy with its state in words and its P&L in en-IN rupees', async () => {
    await mount([view()]);
    const row = rowOf('Bear call');
    expect(row.textContent).toMatch(/NIFTY/);
    expect(within(row).getByText('open')).toBeTruthy();
    expect(within(row).getByTestId('strategy-pnl').textContent).toBe('+₹12,34,567.50');
    expect(within(row).getByTestId('strategy-pnl').className).toMatch(/profit/);
  });

  it('opens to its legs with →, closes with ←', async () => {
    await mount([view()]);
    const row = rowOf('Bear call');
    row.focus();
    await fireEvent.keyDown(row, { key: 'ArrowRight' });
    const legs = screen.getAllByTestId('strategy-leg');
    expect(legs).toHaveLength(2);
    expect(legs[0]?.textContent).toMatch(/SELL\s*NIFTY 25 NOV 24000 CE/);
    expect(legs[0]?.textContent).toMatch(/2 lots \(150\)/);
    expect(legs[0]?.querySelector('.book-side.sell')).toBeTruthy();
    expect(row.getAttribute('aria-expanded')).toBe('true');
    await fireEvent.keyDown(row, { key: 'ArrowLeft' });
    expect(screen.queryAllByTestId('strategy-leg')).toHaveLength(0);
  });

  it('edits the stop in the row: a wrong value in words, nothing sent; Enter sets it', async () => {
    const { bridge } = await mount([view()]);
    bridge.answer('strategies.update', () => ({ ok: true, value: view({ stop: 2500 }) }));
    const row = rowOf('Bear call');
    row.focus();
    await fireEvent.keyDown(row, { key: 'l' });
    const box = screen.getByRole('textbox', { name: /Stop loss of Bear call/ });
    await fireEvent.input(box, { target: { value: 'abc' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/Stop must be rupees/);
    expect(bridge.callsTo('strategies.update')).toHaveLength(0);
    await fireEvent.input(box, { target: { value: '2500' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await flush();
    expect(bridge.callsTo('strategies.update')[0]?.input).toEqual({ id: 's1', stop: 2500 });
    expect(within(rowOf('Bear call')).getByTestId('strategy-stop').textContent).toMatch(/−₹2,500\.00/);
  });

  it('asks before an exit (E) and sends nothing on a no', async () => {
    const { bridge, confirm } = await mount([view()]);
    const row = rowOf('Bear call');
    row.focus();
    await fireEvent.keyDown(row, { key: 'e' });
    expect(confirm.request?.title).toBe('Exit Bear call?');
    expect(confirm.request?.lines).toContain('Buy 150 NIFTY 25 NOV 24000 CE at MARKET');
    confirm.answer(false);
    await flush();
    expect(bridge.callsTo('strategies.exit')).toHaveLength(0);
  });

  it('offers Remove on a closed strategy, with no stop to set and its exit in words', async () => {
    await mount([
      view({
        state: 'closed',
        legs: [leg({ open: 0 })],
        exit: {
          why: 'target',
          at: '2026-11-29T11:05:00+05:30',
          pnl: '3000.00',
          orderids: ['9'],
          refused: [],
        },
      }),
    ]);
    const row = rowOf('Bear call');
    expect(within(row).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Exit' })).toBeNull();
    expect(within(row).getByTestId('strategy-stop').textContent?.trim()).toBe('—');
    expect(row.textContent).toMatch(/target hit at 11:05:00 \(P&L \+₹3,000\.00\)/);
  });

  it('for a partial strategy offers Send remaining and Unwind sent legs', async () => {
    await mount([
      view({ state: 'partial', legs: [leg(), leg({ state: 'refused', reason: 'RMS', open: 0 })] }),
    ]);
    const row = rowOf('Bear call');
    expect(within(row).getByText('partial')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Send remaining' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Unwind sent legs' })).toBeTruthy();
  });
});
