// The chain's IV and greek columns: IV and delta shown by default beside today's OI and change, read
// once per chain read (never per tick), a dash and one quiet note when the gateway cannot give them,
// and a keyboard-reachable column chooser whose choice is saved with the desk's layout.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, OptionGreeksView } from '@contract';
import OptionChain from '../../../src-renderer/src/panes/OptionChain.svelte';
import { LAYOUT } from '../../../src-renderer/src/state/context';
import type { LayoutState } from '../../../src-renderer/src/state/layout.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { answerChain, quoteEvent } from './option-chain-fixture.js';

afterEach(() => document.body.replaceChildren());

/** Made-up greeks that say which contract they are for: delta from the strike, IV 14.2 %. */
function greeksAnswer(input: { symbols: { symbol: string; exchange: string }[] } | undefined) {
  const greeks = (input?.symbols ?? []).map(({ symbol, exchange }) => {
    const m = /(\d{5})(CE|PE)$/.exec(symbol);
    const strike = Number(m?.[1]);
    const call = m?.[2] === 'CE';
    const d = Math.min(0.99, Math.max(0.01, 0.5 - (strike - 25_000) / 2000));
    return {
      symbol,
      exchange,
      iv: 14.2,
      delta: call ? d : d - 1,
      gamma: 0.000352,
      theta: -7.919,
      vega: 28.9489,
    };
  });
  return { ok: true, value: { greeks, failed: 0 } } as IpcResult<OptionGreeksView>;
}

async function mount(greeks: 'ok' | 'fail' = 'ok') {
  const f = deskFixture();
  answerChain(f.bridge, 24_985.35);
  f.bridge.answer('market.optionGreeks', (input) =>
    greeks === 'ok'
      ? greeksAnswer(input)
      : { ok: false, error: { kind: 'network', message: 'cannot reach the gateway' } },
  );
  const updates: unknown[] = [];
  f.bridge.answer('settings.update', (input) => {
    updates.push(input);
    return { ok: false, error: { kind: 'internal', message: 'not kept in this test' } };
  });
  render(OptionChain, { context: f.context });
  await settle(10);
  const grid = screen.getByRole('grid');
  const heads = () =>
    Array.from(grid.querySelectorAll('thead tr:last-child th'), (th) => th.textContent?.trim());
  const atmCells = () => Array.from(grid.querySelectorAll('tbody tr.atm > *'), (c) => c.textContent?.trim());
  return { f, grid, heads, atmCells, updates, layout: f.context.get(LAYOUT) as LayoutState };
}

describe('option chain greeks', () => {
  it('shows IV and delta per leg by default, mirrored for puts', async () => {
    const { heads, atmCells, grid } = await mount();
    expect(heads()).toEqual([
      'OI',
      'Delta',
      'IV',
      'LTP',
      'Bid',
      'Ask',
      'Strike',
      'Bid',
      'Ask',
      'LTP',
      'IV',
      'Delta',
      'OI',
    ]);
    const cells = atmCells();
    // 25000 is the money: call delta 0.50, put -0.50, IV as a percentage.
    expect(cells.slice(1, 3)).toEqual(['0.50', '14.2%']);
    expect(cells.slice(10, 12)).toEqual(['14.2%', '-0.50']);
    // Change % rides under each leg's LTP (its own line), signed.
    const ltps = grid.querySelectorAll('tbody tr.atm td.ltp');
    expect(Array.from(ltps, (td) => td.querySelector('.chg')?.textContent)).toEqual(
      Array.from(ltps, () => expect.stringMatching(/^[+-]?\d+\.\d{2}%$/)),
    );
    // Styled as the chain's other numbers (right-aligned, tabular: seen in the e2e screenshots).
    expect(grid.querySelectorAll('tbody tr.atm td.stat.greek')).toHaveLength(4);
  });

  it('reads the greeks once per chain read, for the shown contracts, never per tick', async () => {
    const { f } = await mount();
    const calls = f.bridge.callsTo('market.optionGreeks');
    expect(calls).toHaveLength(1);
    const asked = (calls[0]?.input as { symbols: { symbol: string }[] }).symbols.map((s) => s.symbol);
    expect(asked).toHaveLength(42);
    expect(asked).toContain('NIFTY24NOV2625000CE');
    expect(asked).toContain('NIFTY24NOV2625000PE');
    for (let seq = 100; seq < 110; seq++) {
      f.bridge.emit('market.quote', {
        ...quoteEvent('NIFTY24NOV2625000CE', { time: seq, ltp: 80 + seq / 100 }),
        seq,
      });
    }
    await settle(5);
    expect(f.bridge.callsTo('market.optionGreeks')).toHaveLength(1);
    // Reading the chain again reads its greeks again.
    await fireEvent.change(screen.getByRole('combobox', { name: 'Expiry' }), {
      target: { value: '01-DEC-26' },
    });
    await settle(10);
    expect(f.bridge.callsTo('market.optionGreeks').length).toBeGreaterThanOrEqual(2);
  });

  it('a failed greeks read leaves dashes and one quiet note, no alert', async () => {
    const { atmCells, f } = await mount('fail');
    const cells = atmCells();
    expect(cells.slice(1, 3)).toEqual(['—', '—']);
    expect(cells.slice(10, 12)).toEqual(['—', '—']);
    // Prices are still there.
    expect(cells[4]).toMatch(/\d/);
    expect(screen.getAllByText('Greeks unavailable: cannot reach the gateway')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(f.bridge.callsTo('market.optionGreeks')).toHaveLength(1);
  });

  it('the column chooser opens from the keyboard, adds gamma, theta and vega, drops OI, and saves it', async () => {
    const { heads, atmCells, layout, updates } = await mount();
    const open = screen.getByRole('button', { name: 'Columns' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    open.focus();
    await fireEvent.click(open);
    await settle();
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('group', { name: 'Columns, calls and puts' });
    const box = (name: RegExp) => within(menu).getByRole('checkbox', { name });
    expect(document.activeElement).toBe(box(/Open interest/));
    expect(box(/Implied volatility/)).toBeChecked();
    expect(box(/Delta/)).toBeChecked();
    expect(box(/Gamma/)).not.toBeChecked();
    expect(
      within(menu)
        .getAllByRole('checkbox')
        .map((b) => b.parentElement?.textContent?.trim()),
    ).toEqual([
      'Open interest',
      'Change %',
      'Implied volatility',
      'Delta',
      'Gamma',
      'Theta (per day)',
      'Vega (per 1% IV)',
    ]);

    for (const name of [/Gamma/, /Theta/, /Vega/, /Open interest/]) await fireEvent.click(box(name));
    await settle();
    expect(heads()).toEqual([
      'Vega',
      'Theta',
      'Gamma',
      'Delta',
      'IV',
      'LTP',
      'Bid',
      'Ask',
      'Strike',
      'Bid',
      'Ask',
      'LTP',
      'IV',
      'Delta',
      'Gamma',
      'Theta',
      'Vega',
    ]);
    expect(atmCells().slice(0, 3)).toEqual(['28.95', '-7.92', '0.0004']);
    expect(layout.chainColumns).toEqual(['chg', 'vega', 'theta', 'gamma', 'delta', 'iv']);
    await layout.flush();
    expect(updates.at(-1)).toEqual({
      layout: { chainColumns: ['chg', 'vega', 'theta', 'gamma', 'delta', 'iv'] },
    });

    // Esc closes the menu and gives the focus back to its button.
    await fireEvent.keyDown(box(/Vega/), { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('group', { name: 'Columns, calls and puts' })).toBeNull();
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(open);
  });

  it('a saved choice is what the chain shows', async () => {
    const f = deskFixture();
    answerChain(f.bridge, 24_985.35);
    f.bridge.answer('market.optionGreeks', greeksAnswer);
    (f.context.get(LAYOUT) as LayoutState).chainColumns = ['oi', 'theta'];
    render(OptionChain, { context: f.context });
    await settle(10);
    const heads = Array.from(screen.getByRole('grid').querySelectorAll('thead tr:last-child th'), (th) =>
      th.textContent?.trim(),
    );
    expect(heads).toEqual(['OI', 'Theta', 'LTP', 'Bid', 'Ask', 'Strike', 'Bid', 'Ask', 'LTP', 'Theta', 'OI']);
  });
});
