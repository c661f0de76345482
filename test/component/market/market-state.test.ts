// MarketState and its subscriptions: a retarget takes the new watch before dropping the old, an
// answer that arrives after a later retarget is unwatched (no leak), ticks apply newest-seq-first,
// a profile switch clears another gateway's prices, and the last detach stops every watch.
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  type IpcResult,
  type MarketQuoteEvent,
  type MarketWatchResult,
  type Settings,
} from '@contract';
import { MarketState } from '../../../src-renderer/src/state/market.svelte';
import { WatchSlot } from '../../../src-renderer/src/state/watch-slot.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';

afterEach(() => document.body.replaceChildren());

const watched = (id: string): IpcResult<MarketWatchResult> => ({
  ok: true,
  value: { id, mode: 'quote', focus: false, symbols: [], rejected: [] },
});

let seq = 10;
function quote(
  symbol: string,
  ltp: number,
  over: Partial<{ seq: number }> = {},
): MarketQuoteEvent & { seq: number } {
  return {
    profileId: 'paper',
    time: 1,
    symbol,
    exchange: 'NSE',
    ltp,
    change: 1,
    changePercent: 0.1,
    open: ltp,
    high: ltp,
    low: ltp,
    prevClose: ltp - 1,
    volume: 1,
    oi: 0,
    bid: ltp,
    ask: ltp,
    seq: over.seq ?? ++seq,
  };
}

describe('a watch slot', () => {
  it('takes the new watch before dropping the old one', async () => {
    const bridge = new FakeBridge();
    let n = 0;
    bridge.answer('market.watch', () => watched(`w${++n}`));
    bridge.answer('market.unwatch', (i) => ({ ok: true, value: { id: i?.id ?? '', stopped: [] } }));
    const slot = new WatchSlot(bridge);
    await slot.set({ symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'quote' });
    await slot.set({ symbols: [{ symbol: 'INFY', exchange: 'NSE' }], mode: 'quote' });
    expect(bridge.calls.map((c) => c.channel)).toEqual(['market.watch', 'market.watch', 'market.unwatch']);
    expect(bridge.callsTo('market.unwatch')[0]?.input).toEqual({ id: 'w1' });
    expect(slot.id).toBe('w2');
    // The same target again asks nothing.
    await slot.set({ symbols: [{ symbol: 'INFY', exchange: 'NSE' }], mode: 'quote' });
    expect(bridge.calls).toHaveLength(3);
  });

  it('unwatches an answer that arrives after a later retarget', async () => {
    const bridge = new FakeBridge();
    const first = deferred<IpcResult<MarketWatchResult>>();
    const answers = [first.promise, Promise.resolve(watched('w2'))];
    bridge.answer('market.watch', () => answers.shift()!);
    bridge.answer('market.unwatch', (i) => ({ ok: true, value: { id: i?.id ?? '', stopped: [] } }));
    const slot = new WatchSlot(bridge);
    const a = slot.set({ symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'depth', focus: true });
    await slot.set({ symbols: [{ symbol: 'INFY', exchange: 'NSE' }], mode: 'depth', focus: true });
    first.resolve(watched('w1'));
    await a;
    await settle();
    expect(slot.id).toBe('w2');
    expect(bridge.callsTo('market.unwatch').map((c) => c.input)).toEqual([{ id: 'w1' }]);
  });

  it('says why a watch was refused, and the same target can be asked again', async () => {
    const bridge = new FakeBridge();
    bridge.answer('market.watch', () => ({
      ok: false,
      error: { kind: 'invalid_input', message: 'at most 256 market subscriptions; unwatch some first' },
    }));
    const slot = new WatchSlot(bridge);
    const input = { symbols: [{ symbol: 'SBIN', exchange: 'NSE' as const }], mode: 'quote' as const };
    await slot.set(input);
    expect(slot.error).toBe('at most 256 market subscriptions; unwatch some first');
    bridge.answer('market.watch', () => watched('w9'));
    await slot.set(input);
    expect(slot.id).toBe('w9');
    expect(slot.error).toBeUndefined();
  });
});

describe('market state', () => {
  it('applies the newest tick per instrument and flashes the LTP the way it moved', async () => {
    const { bridge, market } = deskFixture();
    const detach = market.attach();
    const newer = quote('SBIN', 905.3);
    bridge.emit('market.quote', newer);
    bridge.emit('market.quote', quote('SBIN', 800, { seq: newer.seq - 1 }));
    expect(market.quoteOf({ symbol: 'SBIN', exchange: 'NSE' })?.ltp).toBe(905.3);
    bridge.emit('market.ltp', {
      profileId: 'paper',
      time: 2,
      symbol: 'SBIN',
      exchange: 'NSE',
      ltp: 905.1,
      seq: ++seq,
    });
    const q = market.quoteOf({ symbol: 'SBIN', exchange: 'NSE' });
    // An ltp-only tick keeps the change it had, and marks the move.
    expect(q).toMatchObject({ ltp: 905.1, change: 1, flash: { dir: 'down' } });
    detach();
  });

  it('a profile switch clears the old gateway prices and ignores its late ticks', async () => {
    const { bridge, market } = deskFixture();
    const detach = market.attach();
    bridge.emit('market.quote', quote('SBIN', 905.3));
    const late = quote('SBIN', 1);
    bridge.emit('profiles.switched', { profileId: 'broker', seq: ++seq });
    expect(market.quotes.size).toBe(0);
    bridge.emit('market.quote', late);
    expect(market.quotes.size).toBe(0);
    detach();
  });

  it('shows market.error against the instrument until a tick for it arrives', async () => {
    const { bridge, market } = deskFixture();
    const detach = market.attach();
    bridge.emit('market.error', {
      profileId: 'paper',
      time: 1,
      mode: 'quote',
      symbols: [{ symbol: 'SBIN', exchange: 'NSE' }],
      error: { kind: 'network', message: 'gateway unreachable' },
      seq: ++seq,
    });
    expect(market.errorOf({ symbol: 'SBIN', exchange: 'NSE' })).toBe('gateway unreachable');
    bridge.emit('market.quote', quote('SBIN', 905));
    expect(market.errorOf({ symbol: 'SBIN', exchange: 'NSE' })).toBeUndefined();
    detach();
  });

  it('the last detach stops every watch and every listener', async () => {
    const { bridge, market } = deskFixture();
    const a = market.attach();
    const b = market.attach();
    await settle();
    await market.followTicket({ symbol: 'SBIN', exchange: 'NSE' });
    await market.focusDepth({ symbol: 'SBIN', exchange: 'NSE' });
    const held = bridge.callsTo('market.watch').length;
    expect(held).toBe(3); // watchlist tab, ticket quote, depth
    a();
    a(); // twice is once
    expect(bridge.listenerCount('market.quote')).toBe(1);
    b();
    await settle();
    expect(bridge.listenerCount('market.quote')).toBe(0);
    expect(bridge.callsTo('market.unwatch')).toHaveLength(3);
  });

  it('a watchlist that loads after every pane detached takes no watch', async () => {
    const bridge = new FakeBridge();
    const settings = deferred<IpcResult<Settings>>();
    bridge.answer('settings.get', () => settings.promise);
    const market = new MarketState(bridge);
    const detach = market.attach();
    detach();
    settings.resolve({ ok: true, value: DEFAULT_SETTINGS });
    await settle();
    expect(market.watchlists.items).toHaveLength(DEFAULT_SETTINGS.watchlists[0]?.items.length ?? -1);
    expect(bridge.callsTo('market.watch')).toHaveLength(0);
  });
});
