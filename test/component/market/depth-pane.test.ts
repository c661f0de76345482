// The depth pane: follows the ticket's instrument with a focused depth watch, shows 5 levels a side
// with totals and the session figures, flashes moved cells, and a click on a price fills the
// ticket's price (LIMIT) without ever sending.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Depth from '../../../src-renderer/src/panes/Depth.svelte';
import { depthEvent } from '../../support/component/depth-event';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

const depth = depthEvent;

async function mountDepth() {
  const f = deskFixture({ instruments: [SBIN, NIFTY_FUT] });
  render(Depth, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
  await settle();
  return f;
}

describe('depth pane', () => {
  it("follows the ticket's instrument with one focused depth watch, and moves it with the ticket", async () => {
    const { bridge, ticket } = await mountDepth();
    const depthWatches = () =>
      bridge.callsTo('market.watch').filter((c) => (c.input as { mode: string }).mode === 'depth');
    expect(depthWatches().map((c) => c.input)).toEqual([
      { symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'depth', focus: true },
    ]);
    await ticket.open('BUY', { symbol: NIFTY_FUT.symbol, exchange: 'NFO' });
    await settle();
    expect(depthWatches().at(-1)?.input).toEqual({
      symbols: [{ symbol: NIFTY_FUT.symbol, exchange: 'NFO' }],
      mode: 'depth',
      focus: true,
    });
    // The old depth watch is dropped once the new one is held.
    expect(bridge.callsTo('market.unwatch').length).toBeGreaterThanOrEqual(1);
  });

  it('shows five levels a side with quantities and totals, and the session figures', async () => {
    const { bridge } = await mountDepth();
    bridge.emit('market.depth', depth());
    await settle();
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    // header + 5 levels + totals
    expect(rows).toHaveLength(7);
    const cells = (row: HTMLElement | undefined) =>
      Array.from(row!.querySelectorAll('td, th'), (c) => c.textContent?.trim());
    expect(cells(rows[1])).toEqual(['100', '905.25', '905.35', '50']);
    expect(cells(rows[5])).toEqual(['500', '905.05', '905.55', '250']);
    expect(cells(rows[6])).toEqual(['1,500', 'Total bid · ask', '750']);
    expect(screen.getByText('Volume').nextElementSibling).toHaveTextContent('12,34,567');
    expect(screen.getByLabelText('Last price')).toHaveTextContent('905.30');
  });

  it("shows open interest for a derivative (a dash when nil), not for a cash share's always-nil OI", async () => {
    const { bridge, ticket } = await mountDepth();
    bridge.emit('market.depth', depth());
    await settle();
    expect(screen.queryByText('OI')).toBeNull();
    expect(screen.getByText('LTQ').nextElementSibling).toHaveTextContent('10');
    await ticket.open('BUY', { symbol: NIFTY_FUT.symbol, exchange: 'NFO' });
    await settle();
    const fut = { symbol: NIFTY_FUT.symbol, exchange: 'NFO' };
    bridge.emit('market.depth', depth({ ...fut, oi: 0 }));
    await settle();
    expect(screen.getByText('OI').nextElementSibling).toHaveTextContent('—');
    bridge.emit('market.depth', depth({ ...fut, oi: 12_345_600 }));
    await settle();
    expect(screen.getByText('OI').nextElementSibling).toHaveTextContent('1,23,45,600');
  });

  it('a click on a price fills the ticket price as LIMIT and sends nothing', async () => {
    const { bridge, ticket } = await mountDepth();
    ticket.priceType = 'MARKET';
    bridge.emit('market.depth', depth());
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: "Ask 905.40: fill the ticket's price" }));
    expect(ticket.priceType).toBe('LIMIT');
    expect(ticket.priceText).toBe('905.40');
    // Keyboard too: Enter on a focused price button is the same click.
    const bid = screen.getByRole('button', { name: "Bid 905.15: fill the ticket's price" });
    await fireEvent.click(bid);
    expect(ticket.priceText).toBe('905.15');
    expect(bridge.calls.filter((c) => c.channel.startsWith('orders.'))).toEqual([]);
  });

  it('a stop-loss order keeps its type; only the price changes', async () => {
    const { bridge, ticket } = await mountDepth();
    ticket.priceType = 'SL';
    bridge.emit('market.depth', depth());
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: "Bid 905.25: fill the ticket's price" }));
    expect(ticket.priceType).toBe('SL');
    expect(ticket.priceText).toBe('905.25');
  });

  it('flashes a moved price up or down, and restarts the flash on a move 300 ms later', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { bridge } = await mountDepth();
    bridge.emit('market.depth', depth());
    await settle();
    const firstAsk = () => screen.getByRole('button', { name: /^Ask 905\.3[05]/ }).closest('td')!;
    expect(firstAsk().className).not.toMatch(/flash/);
    now += 100;
    bridge.emit('market.depth', depth({ asks: [{ price: 905.3, quantity: 50 }] }));
    await settle();
    expect(firstAsk().className).toMatch(/flash-down-b/);
    now += 300;
    bridge.emit('market.depth', depth({ asks: [{ price: 905.35, quantity: 50 }], ltp: 905.35 }));
    await settle();
    expect(firstAsk().className).toMatch(/flash-up-a/);
    expect(screen.getByLabelText('Last price').className).toMatch(/flash-up/);
  });

  it('never flashes a quantity, a total or the volume, and a price at most once per 300 ms', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { bridge } = await mountDepth();
    bridge.emit('market.depth', depth());
    await settle();
    const flashing = () => document.querySelectorAll('[class*="flash-"]').length;
    // A quantity-only tick at the normal rate: every quantity, total and the volume move, no price.
    now += 100;
    bridge.emit(
      'market.depth',
      depth({
        bids: [905.25, 905.2, 905.15, 905.1, 905.05].map((price, i) => ({ price, quantity: 7 * (i + 1) })),
        asks: [905.35, 905.4, 905.45, 905.5, 905.55].map((price, i) => ({ price, quantity: 9 * (i + 1) })),
        totalBuyQty: 1600,
        totalSellQty: 700,
        volume: 1234999,
        high: 911,
      }),
    );
    await settle();
    expect(flashing()).toBe(0);
    // The best bid moves twice within 300 ms: one flash (down), the second move shows without one.
    const bestBid = () => screen.getAllByRole('button', { name: /^Bid / })[0]!.closest('td')!;
    now += 100;
    bridge.emit('market.depth', depth({ bids: [{ price: 905.2, quantity: 100 }] }));
    await settle();
    expect(bestBid().className).toMatch(/flash-down-b/);
    now += 100;
    bridge.emit('market.depth', depth({ bids: [{ price: 905.3, quantity: 100 }] }));
    await settle();
    expect(bestBid()).toHaveTextContent('905.30');
    expect(bestBid().className).toMatch(/flash-down-b/);
  });

  it('ignores an older tick and ticks of other instruments', async () => {
    const { bridge } = await mountDepth();
    const newer = depth({ ltp: 906 });
    const older = { ...depth({ ltp: 800 }), seq: newer.seq - 1 };
    bridge.emit('market.depth', newer);
    bridge.emit('market.depth', older);
    bridge.emit('market.depth', depth({ symbol: 'INFY', ltp: 1500 }));
    await settle();
    expect(screen.getByLabelText('Last price')).toHaveTextContent('906.00');
  });
});
