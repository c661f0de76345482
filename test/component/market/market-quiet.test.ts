// Quiet and true when the gateway goes: the watchlist's rows and the depth ladder grey out and say
// since when they are stale, the gateway's own refusals (down, no key) are said once by the banner and
// never on every row, an instrument's own refusal stays on its row in one line, a profile switch
// shows no row red for a transient no-key answer, and the depth tints only the cell whose price is new.
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange, IpcError, MarketDepthEvent, MarketQuoteEvent } from '@contract';
import Depth from '../../../src-renderer/src/panes/Depth.svelte';
import Watchlist from '../../../src-renderer/src/panes/Watchlist.svelte';
import { depthEvent } from '../../support/component/depth-event';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

const T0 = Date.UTC(2026, 10, 27, 4, 1, 2); // 09:31:02 IST
let seq = 10;
function quote(symbol: string, exchange: string, ltp: number, time = T0): MarketQuoteEvent & { seq: number } {
  return {
    profileId: 'paper',
    time,
    symbol,
    exchange,
    ltp,
    change: 4.5,
    changePercent: 0.5,
    open: ltp,
    high: ltp,
    low: ltp,
    prevClose: ltp - 4.5,
    volume: 1,
    oi: 0,
    bid: ltp,
    ask: ltp,
    seq: ++seq,
  };
}
function marketError(symbols: [string, Exchange][], error: IpcError) {
  return {
    profileId: 'paper',
    time: T0,
    mode: 'quote' as const,
    symbols: symbols.map(([symbol, exchange]) => ({ symbol, exchange })),
    error,
    seq: ++seq,
  };
}
const REFUSED: IpcError = {
  kind: 'network',
  message: 'connect ECONNREFUSED 127.0.0.1:7815\n    at TCPConnectWrap.afterConnect\n    at process',
};

const row = (key: string) => document.querySelector(`tr[data-instrument="${key}"]`) as HTMLElement;
const errRows = () => document.querySelectorAll('tr.err');
const listText = () => document.querySelector('.watchlist')?.textContent ?? '';

async function mountList() {
  const f = deskFixture({ instruments: [SBIN] });
  f.desk.connection = 'connected';
  render(Watchlist, { context: f.context });
  await settle();
  return f;
}

describe('the watchlist offline', () => {
  it('greys the rows and says since when, with no raw socket error on any row; live again when back', async () => {
    const f = await mountList();
    f.bridge.emit('market.quote', quote('SBIN', 'NSE', 905.3));
    f.bridge.emit('market.quote', quote('NIFTY', 'NSE_INDEX', 24100));
    await settle();
    expect(row('NSE:SBIN').hasAttribute('data-stale')).toBe(false);

    f.desk.connection = 'disconnected';
    f.bridge.emit(
      'market.error',
      marketError(
        [
          ['SBIN', 'NSE'],
          ['NIFTY', 'NSE_INDEX'],
          ['INFY', 'NSE'],
        ],
        REFUSED,
      ),
    );
    await settle();
    expect(listText()).not.toContain('ECONNREFUSED');
    expect(errRows()).toHaveLength(0);
    expect(row('NSE:SBIN').hasAttribute('data-stale')).toBe(true);
    expect(row('NSE:SBIN').querySelector('td.ltp')?.textContent?.trim()).toBe('905.30');
    expect(row('NSE:SBIN').getAttribute('aria-label')).toContain('stale since 09:31:02 IST');
    // A row with no price yet has nothing stale to grey; it waits with a dash.
    expect(row('NSE:INFY').hasAttribute('data-stale')).toBe(false);
    expect(screen.getByTestId('watchlist-stale')).toHaveTextContent('Stale · prices as of 09:31:02 IST');
    // The full names stay.
    expect(row('NSE_INDEX:NIFTY').querySelector('.name')?.textContent).toBe('NIFTY');

    // Back a minute later: the catch-up price is not a tick, so it is not tinted; the next move is.
    f.desk.connection = 'connected';
    f.bridge.emit('market.quote', quote('SBIN', 'NSE', 906, T0 + 60_000));
    await settle();
    expect(row('NSE:SBIN').hasAttribute('data-stale')).toBe(false);
    expect(screen.queryByTestId('watchlist-stale')).toBeNull();
    expect(row('NSE:SBIN').querySelector('td.ltp')?.className).not.toMatch(/flash-/);
    f.bridge.emit('market.quote', quote('SBIN', 'NSE', 906.5, T0 + 61_000));
    await settle();
    expect(row('NSE:SBIN').querySelector('td.ltp')?.className).toMatch(/flash-up/);
  });

  it("keeps an instrument's own refusal on its row, on one line", async () => {
    const f = await mountList();
    f.bridge.emit(
      'market.error',
      marketError([['INFY', 'NSE']], {
        kind: 'not_found',
        message: 'Symbol INFY not found in exchange NSE\nsecond line of detail',
      }),
    );
    await settle();
    expect(errRows()).toHaveLength(1);
    expect(errRows()[0]?.textContent?.trim()).toBe('Symbol INFY not found in exchange NSE');
  });

  it('a refused list watch that is the gateway being down is not said under the list', async () => {
    const f = deskFixture({ instruments: [SBIN] });
    f.bridge.answer('market.watch', () => ({ ok: false, error: REFUSED }));
    render(Watchlist, { context: f.context });
    await settle();
    expect(f.market.listSlot.errorKind).toBe('network');
    expect(listText()).not.toContain('ECONNREFUSED');
  });
});

describe('a profile switch', () => {
  it('shows no row red for the new profile\'s transient "no API key" answer, only a neutral wait', async () => {
    const f = await mountList();
    f.bridge.emit('market.quote', quote('SBIN', 'NSE', 905.3));
    await settle();
    f.bridge.emit('profiles.switched', { seq: ++seq, profileId: 'paper-2' });
    f.bridge.emit(
      'market.error',
      marketError(
        [
          ['SBIN', 'NSE'],
          ['NIFTY', 'NSE_INDEX'],
        ],
        { kind: 'no_key', message: 'no API key is set for this gateway' },
      ),
    );
    await settle();
    expect(errRows()).toHaveLength(0);
    expect(listText()).not.toContain('no API key');
    // The old gateway's price is gone; the row waits with a dash, not a red "?".
    expect(row('NSE:SBIN').querySelector('td.ltp')?.textContent?.trim()).toBe('—');
    f.bridge.emit('market.quote', quote('SBIN', 'NSE', 910));
    await settle();
    expect(row('NSE:SBIN').querySelector('td.ltp')?.textContent?.trim()).toBe('910.00');
  });
});

/** Depth with the same size at every level, so only a price moving can tint a cell. */
const depth = (over: Partial<MarketDepthEvent> = {}) =>
  depthEvent({
    time: T0,
    bids: [905.25, 905.2, 905.15, 905.1, 905.05].map((price) => ({ price, quantity: 100 })),
    asks: [905.35, 905.4, 905.45, 905.5, 905.55].map((price) => ({ price, quantity: 50 })),
    totalBuyQty: 500,
    totalSellQty: 250,
    ...over,
  });

async function mountDepth() {
  const f = deskFixture({ instruments: [SBIN] });
  f.desk.connection = 'connected';
  render(Depth, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' });
  await settle();
  return f;
}
const flashing = () =>
  Array.from(document.querySelectorAll('td[class*="flash-"]'), (td) => td.textContent?.trim());

describe('the depth ladder', () => {
  it('tints the best bid and ask when the book steps, and a level new inside the book; never a column', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const f = await mountDepth();
    f.bridge.emit('market.depth', depth());
    await settle();
    now += 400;
    // The market steps up a tick: every level's price moves one row; one bid and one ask are new.
    f.bridge.emit(
      'market.depth',
      depth({
        ltp: 905.35,
        bids: [905.3, 905.25, 905.2, 905.15, 905.1].map((price) => ({ price, quantity: 100 })),
        asks: [905.4, 905.45, 905.5, 905.55, 905.6].map((price) => ({ price, quantity: 50 })),
      }),
    );
    await settle();
    // The best bid and the best ask say the book moved; the rows under them do not repeat it.
    expect(flashing().sort()).toEqual(['905.30', '905.40']);
    const bestAsk = Array.from(document.querySelectorAll('td.price.sell'))[0]!.className;
    // With the best still, a price new to the book is news: only it tints, not the rows that moved.
    now += 400;
    f.bridge.emit(
      'market.depth',
      depth({
        ltp: 905.35,
        bids: [905.3, 905.25, 905.2, 905.15, 905.1].map((price) => ({ price, quantity: 100 })),
        // 905.45 taken out: the rows under it move up, and 905.65 is new at the foot.
        asks: [905.4, 905.5, 905.55, 905.6, 905.65].map((price) => ({ price, quantity: 50 })),
      }),
    );
    await settle();
    const cell = (price: string) =>
      Array.from(document.querySelectorAll('td.price.sell')).find((td) => td.textContent?.trim() === price)!;
    expect(cell('905.40').className).toBe(bestAsk);
    for (const p of ['905.50', '905.55', '905.60']) expect(cell(p).className).not.toMatch(/flash-/);
    expect(cell('905.65').className).toMatch(/flash-up/);
  });

  it('greys out and says stale while the gateway is unreachable, with no error line of its own', async () => {
    const f = await mountDepth();
    f.bridge.emit('market.depth', depth());
    await settle();
    expect(screen.queryByTestId('depth-stale')).toBeNull();
    f.desk.connection = 'disconnected';
    f.bridge.emit('market.error', { ...marketError([['SBIN', 'NSE']], REFUSED), mode: 'depth' as const });
    await settle();
    const region = screen.getByRole('region', { name: 'Market depth' });
    expect(region.hasAttribute('data-stale')).toBe(true);
    expect(screen.getByTestId('depth-stale')).toHaveTextContent('stale · as of 09:31:02 IST');
    expect(region.textContent).not.toContain('ECONNREFUSED');
    expect(region.querySelectorAll('[class*="flash-"]')).toHaveLength(0);
    f.desk.connection = 'connected';
    f.bridge.emit('market.depth', depth({ ltp: 906 }));
    await settle();
    expect(region.hasAttribute('data-stale')).toBe(false);
  });
});
