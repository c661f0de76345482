// A market watch refused because the gateway could not be had (down at start, the paper account
// unavailable until it is reset) is asked again once the gateway can answer: at once when the
// connection turns connected or the profile changes, and on a bounded back-off meanwhile. A refusal
// of the input itself is not asked again. No watch is asked twice at a time, so none leaks or counts
// twice against the core's cap.
import { render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  IpcErrorKind,
  IpcResult,
  MarketQuoteEvent,
  MarketWatchInput,
  MarketWatchResult,
} from '@contract';
import Watchlist from '../../../src-renderer/src/panes/Watchlist.svelte';
import { WatchSlot } from '../../../src-renderer/src/state/watch-slot.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { SBIN } from '../../support/component/instruments';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const PAPER_DOWN =
  'cannot reach the gateway: The paper account is unavailable: its ledger /tmp/paper.db could not be opened (file is not a database).';

const refused = (kind: IpcErrorKind, message: string): IpcResult<MarketWatchResult> => ({
  ok: false,
  error: { kind, message },
});

const accepted = (id: string, input: MarketWatchInput | undefined): IpcResult<MarketWatchResult> => ({
  ok: true,
  value: {
    id,
    mode: input?.mode ?? 'quote',
    focus: input?.focus ?? false,
    symbols: (input?.symbols ?? []) as MarketWatchResult['symbols'],
    rejected: [],
  },
});

let seq = 100;
const connection = (state: 'connected' | 'disconnected') => ({
  profileId: 'paper',
  time: 1,
  state,
  seq: ++seq,
});

function quote(symbol: string, ltp: number): MarketQuoteEvent & { seq: number } {
  return {
    profileId: 'paper',
    time: 1,
    symbol,
    exchange: 'NSE',
    ltp,
    change: 4.55,
    changePercent: 0.51,
    open: ltp,
    high: ltp,
    low: ltp,
    prevClose: ltp - 4.55,
    volume: 1,
    oi: 0,
    bid: ltp,
    ask: ltp,
    seq: ++seq,
  };
}

const INPUT: MarketWatchInput = { symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'quote' };

/** A bare slot whose `market.watch` answers from `answers` in turn (the last one from then on). */
function slotWith(...answers: IpcResult<MarketWatchResult>[]) {
  const bridge = new FakeBridge();
  bridge.answer('market.watch', () => (answers.length > 1 ? answers.shift()! : answers[0]!));
  bridge.answer('market.unwatch', (i) => ({ ok: true, value: { id: i?.id ?? '', stopped: [] } }));
  return { bridge, slot: new WatchSlot(bridge) };
}

describe('the watchlist, when the gateway comes up after a refused watch', () => {
  it('asks again once the connection turns connected, shows prices and no error', async () => {
    const f = deskFixture({ instruments: [SBIN] });
    let n = 0;
    f.bridge.answer('market.watch', (input) =>
      ++n === 1 ? refused('network', PAPER_DOWN) : accepted(`w${n}`, input),
    );
    render(Watchlist, { context: f.context });
    await settle();
    expect(f.bridge.callsTo('market.watch')).toHaveLength(1);
    // The gateway's own refusal is the banner's word (said once there), not the pane's.
    expect(f.market.listSlot.error).toBe(PAPER_DOWN);
    expect(document.querySelector('.note.bad')).toBeNull();

    // The paper account reset: its new session answers.
    f.bridge.emit('session.connection', connection('connected'));
    await settle();
    expect(f.bridge.callsTo('market.watch')).toHaveLength(2);
    expect(f.bridge.callsTo('market.watch')[1]?.input).toEqual(f.bridge.callsTo('market.watch')[0]?.input);
    expect(f.market.listSlot.id).toBe('w2');
    f.bridge.emit('market.quote', quote('SBIN', 905.3));
    await settle();
    const ltp = document.querySelector('tr[data-instrument="NSE:SBIN"] td.ltp');
    expect(ltp?.textContent?.trim()).toBe('905.30');
    expect(document.querySelector('.note.bad')).toBeNull();
    expect(f.market.listSlot.error).toBeUndefined();

    // Held now: a later connect asks nothing more.
    f.bridge.emit('session.connection', connection('disconnected'));
    f.bridge.emit('session.connection', connection('connected'));
    await settle();
    expect(f.bridge.callsTo('market.watch')).toHaveLength(2);
    expect(f.bridge.callsTo('market.unwatch')).toHaveLength(0);
  });

  it('asks again after a profile switch (another gateway may answer)', async () => {
    const { bridge, slot } = slotWith(
      refused('network', 'cannot reach the gateway: ECONNREFUSED'),
      accepted('w2', INPUT),
    );
    await slot.set(INPUT);
    bridge.emit('profiles.switched', { profileId: 'live', seq: ++seq });
    await settle();
    expect(bridge.callsTo('market.watch')).toHaveLength(2);
    expect(slot.id).toBe('w2');
    expect(slot.error).toBeUndefined();
  });

  it('asks again after a gateway refusal, never after a refusal of the input itself', async () => {
    vi.useFakeTimers();
    const bridge = new FakeBridge();
    const BAD: MarketWatchInput = { symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'depth' };
    bridge.answer('market.watch', (input) => {
      const n = bridge.callsTo('market.watch').length;
      if (input?.mode === 'depth')
        return refused('invalid_input', 'focus: only a depth watch can be focused');
      return n <= 2 ? refused('network', PAPER_DOWN) : accepted(`w${n}`, input);
    });
    const good = new WatchSlot(bridge);
    const bad = new WatchSlot(bridge);
    await good.set(INPUT);
    await bad.set(BAD);
    bridge.emit('session.connection', connection('connected'));
    bridge.emit('profiles.switched', { profileId: 'paper', seq: ++seq });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const asked = (mode: string) =>
      bridge.callsTo('market.watch').filter((c) => (c.input as MarketWatchInput).mode === mode);
    expect(asked('quote')).toHaveLength(2);
    expect(good.id).toBe('w3');
    expect(asked('depth')).toHaveLength(1);
    expect(bad.error).toBe('focus: only a depth watch can be focused');
    expect(bridge.listenerCount('session.connection')).toBe(0);
  });

  it('asks again on a bounded back-off while no connect is heard, and stops once held', async () => {
    vi.useFakeTimers();
    const down = refused('network', PAPER_DOWN);
    const { bridge, slot } = slotWith(down, down, down, down, down, down, down, down, accepted('w9', INPUT));
    await slot.set(INPUT);
    expect(bridge.callsTo('market.watch')).toHaveLength(1);
    // The connect came before the refusal's answer: the back-off asks again anyway.
    await vi.advanceTimersByTimeAsync(1000);
    expect(bridge.callsTo('market.watch')).toHaveLength(2);
    // Longer each time, never longer than 30 s: 1+2+4+8+16+30+30+30 s (doubling alone: 255 s).
    await vi.advanceTimersByTimeAsync(150_000);
    expect(bridge.callsTo('market.watch')).toHaveLength(9);
    expect(slot.id).toBe('w9');
    expect(slot.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(bridge.callsTo('market.watch')).toHaveLength(9);
    expect(bridge.listenerCount('session.connection')).toBe(0);
  });

  it('never has two asks of one watch in flight: one connect, one ask, one subscription', async () => {
    const bridge = new FakeBridge();
    const second = deferred<IpcResult<MarketWatchResult>>();
    const answers = [
      Promise.resolve(refused('timeout', 'the gateway did not answer in 10 s')),
      second.promise,
    ];
    bridge.answer('market.watch', () => answers.shift() ?? Promise.resolve(accepted('extra', INPUT)));
    bridge.answer('market.unwatch', (i) => ({ ok: true, value: { id: i?.id ?? '', stopped: [] } }));
    const slot = new WatchSlot(bridge);
    await slot.set(INPUT);
    bridge.emit('session.connection', connection('connected'));
    bridge.emit('profiles.switched', { profileId: 'paper', seq: ++seq });
    bridge.emit('session.connection', connection('connected'));
    await settle();
    expect(bridge.callsTo('market.watch')).toHaveLength(2);
    // The pane asks for the same target meanwhile: already being asked.
    const again = slot.set(INPUT);
    second.resolve(accepted('w2', INPUT));
    await again;
    await settle();
    expect(bridge.callsTo('market.watch')).toHaveLength(2);
    expect(bridge.callsTo('market.unwatch')).toHaveLength(0);
    expect(slot.id).toBe('w2');
  });

  it('drops the retry when the slot is pointed elsewhere or emptied', async () => {
    vi.useFakeTimers();
    const { bridge, slot } = slotWith(refused('network', PAPER_DOWN), refused('network', PAPER_DOWN));
    await slot.set(INPUT);
    await slot.set(undefined);
    expect(slot.error).toBeUndefined();
    bridge.emit('session.connection', connection('connected'));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(bridge.callsTo('market.watch')).toHaveLength(1);
    expect(bridge.listenerCount('session.connection')).toBe(0);
  });
});
