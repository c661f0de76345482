// The chain pane's Build mode: the toolbar's toggle, a bid click adding a SELL leg and an ask click a
// BUY leg to the desk's builder (the ticket untouched, nothing sent), the strip's count and net, a
// template from the strip, and Open builder asking for the Strategy tab.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import OptionChain from '../../../src-renderer/src/panes/OptionChain.svelte';
import { CONFIRM, STRATEGY_BUILDER } from '../../../src-renderer/src/state/context';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { StrategyBuilderState } from '../../../src-renderer/src/state/strategy-builder.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { answerChain } from '../chain/option-chain-fixture.js';

afterEach(() => document.body.replaceChildren());

async function mount() {
  const f = deskFixture();
  answerChain(f.bridge, 24_985.35);
  const confirm = new ConfirmState();
  const builder = new StrategyBuilderState(f.bridge, {
    confirm,
    now: () => Date.parse('2026-11-20T05:00:00Z'),
  });
  f.context.set(CONFIRM, confirm);
  f.context.set(STRATEGY_BUILDER, builder);
  render(OptionChain, { context: f.context });
  await settle(10);
  return { ...f, builder };
}

describe('OptionChain in Build mode', () => {
  it('a bid adds a SELL leg, an ask a BUY leg; the ticket stays and nothing is sent', async () => {
    const { builder, ticket, bridge } = await mount();
    // The chain pushed its strikes, money and spot to the builder.
    expect(builder.underlying).toBe('NIFTY');
    expect(builder.atm).toBe(25_000);
    expect(builder.strikesOf('24NOV26').length).toBe(31);

    const build = screen.getByRole('button', { name: 'Build' });
    expect(build.getAttribute('aria-pressed')).toBe('false');
    await fireEvent.click(build);
    expect(builder.building).toBe(true);
    expect(build.getAttribute('aria-pressed')).toBe('true');

    await fireEvent.click(
      screen.getByRole('button', { name: /^NIFTY 24 NOV 25000 CE Bid .*: add a SELL leg$/ }),
    );
    await fireEvent.click(
      screen.getByRole('button', { name: /^NIFTY 24 NOV 25000 PE Ask .*: add a BUY leg$/ }),
    );
    await settle();
    expect(builder.legs.map((l) => `${l.side} ${l.strike} ${l.kind}`)).toEqual([
      'SELL 25000 CE',
      'BUY 25000 PE',
    ]);
    expect(ticket.instrument).toBeUndefined();
    expect(
      bridge.calls.filter((c) => c.channel.startsWith('orders.') || c.channel.startsWith('strategies.')),
    ).toEqual([]);
    const strip = screen.getByRole('group', { name: 'Strategy builder' });
    expect(strip.textContent).toMatch(/2 legs · net ₹[\d,]+\.\d{2} (credit|debit)/);
    expect(screen.getByText(/Added BUY 1 lot NIFTY 24 NOV 25000 PE/)).toBeTruthy();

    // A template from the strip replaces the legs; Open builder asks for the Strategy tab.
    const menu = screen.getByRole('combobox', { name: 'Apply a template around the money' });
    await fireEvent.change(menu, { target: { value: 'short-strangle' } });
    await settle();
    expect(builder.legs.map((l) => `${l.side} ${l.strike} ${l.kind}`)).toEqual([
      'SELL 25100 CE',
      'SELL 24900 PE',
    ]);
    const before = builder.revealCount;
    await fireEvent.click(screen.getByRole('button', { name: 'Open builder' }));
    expect(builder.revealCount).toBe(before + 1);

    // Build off: a price loads the ticket again.
    await fireEvent.click(build);
    expect(screen.queryByRole('group', { name: 'Strategy builder' })).toBeNull();
    expect(
      screen.getByRole('button', { name: /^NIFTY 24 NOV 25000 CE Bid .*: load the ticket to sell$/ }),
    ).toBeTruthy();
  });
});
