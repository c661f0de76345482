// The desk's brackets: read once, then replaced whole by each `protection.brackets` event of the
// active profile (another profile's ignored, an older one ignored, a read overtaken by an event
// dropped), read again on a profile switch; a new hazard chimes once; the actions check before they
// send and say why in words; a flatten is sent only after a yes.
import { describe, expect, it, vi } from 'vitest';
import type { BracketView } from '@contract';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { ProtectionState, flattenOrder } from '../../../src-renderer/src/state/protection.svelte';
import { deferred, FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/books-fixtures';
import { bracket, unprotected } from './fixtures';

function setup(first: BracketView[] = [bracket()], profileId = 'paper') {
  const bridge = new FakeBridge().answer('protection.brackets', () => ({
    ok: true,
    value: { profileId, brackets: first },
  }));
  const chime = vi.fn();
  const confirm = new ConfirmState();
  const state = new ProtectionState(bridge, { chime, confirm, asks: () => false });
  const stop = state.start();
  return { bridge, state, chime, confirm, stop };
}

describe('the brackets of the active profile', () => {
  it('are read once and follow the event of the same profile', async () => {
    const { bridge, state } = setup();
    await flush();
    expect(bridge.callsTo('protection.brackets')).toHaveLength(1);
    expect(state.brackets.map((b) => b.entry)).toEqual(['E1']);
    expect(state.of({ exchange: 'NSE', symbol: 'SBIN', product: 'MIS' })?.stop?.price).toBe(890);

    bridge.emit('protection.brackets', { profileId: 'paper', brackets: [bracket({ entry: 'E2' })], seq: 12 });
    expect(state.brackets.map((b) => b.entry)).toEqual(['E2']);
    // Another profile's, and an older one, change nothing.
    bridge.emit('protection.brackets', { profileId: 'live', brackets: [], seq: 13 });
    bridge.emit('protection.brackets', { profileId: 'paper', brackets: [], seq: 11 });
    expect(state.brackets.map((b) => b.entry)).toEqual(['E2']);
  });

  it('drops a read that an event overtook', async () => {
    const bridge = new FakeBridge();
    const answer = deferred<{ ok: true; value: { profileId: string; brackets: BracketView[] } }>();
    bridge.answer('protection.brackets', () => answer.promise);
    const state = new ProtectionState(bridge);
    state.start();
    bridge.emit('protection.brackets', { profileId: 'paper', brackets: [bracket({ entry: 'NEW' })], seq: 5 });
    answer.resolve({ ok: true, value: { profileId: 'paper', brackets: [bracket({ entry: 'OLD' })] } });
    await flush();
    expect(state.brackets.map((b) => b.entry)).toEqual(['NEW']);
    expect(state.loaded).toBe(true);
  });

  it('are read again on a profile switch, the old ones gone at once', async () => {
    const { bridge, state } = setup();
    await flush();
    bridge.answer('protection.brackets', () => ({ ok: true, value: { profileId: 'live', brackets: [] } }));
    bridge.emit('profiles.switched', { profileId: 'live', seq: 20 });
    expect(state.brackets).toEqual([]);
    await flush();
    expect(bridge.callsTo('protection.brackets')).toHaveLength(2);
    expect(state.profileId).toBe('live');
    bridge.emit('protection.brackets', { profileId: 'paper', brackets: [bracket()], seq: 21 });
    expect(state.brackets).toEqual([]);
  });

  it('say why they could not be read', async () => {
    const bridge = new FakeBridge().answer('protection.brackets', () => ({
      ok: false,
      error: { kind: 'network', message: 'core unreachable' },
    }));
    const state = new ProtectionState(bridge);
    state.start();
    await flush();
    expect(state.problem).toBe('Protection: core unreachable');
  });

  it('chime once for each new hazard, not again for the same one', async () => {
    const { bridge, state, chime } = setup([unprotected()]);
    await flush();
    expect(chime).toHaveBeenCalledTimes(1);
    expect(state.hazards.map((b) => b.entry)).toEqual(['E1']);
    bridge.emit('protection.brackets', { profileId: 'paper', brackets: [unprotected()], seq: 30 });
    expect(chime).toHaveBeenCalledTimes(1);
    bridge.emit('protection.brackets', {
      profileId: 'paper',
      brackets: [unprotected(), bracket({ entry: 'E9', state: 'overshoot', open: -2 })],
      seq: 31,
    });
    expect(chime).toHaveBeenCalledTimes(2);
  });
});

describe('the actions on a bracket', () => {
  it('a stop off the tick is refused with words and nothing is sent', async () => {
    const { bridge, state } = setup();
    await flush();
    const r = await state.modify(state.brackets, 'stop', '893.33', 905);
    expect(r).toEqual({ ok: false, reason: 'Stop 893.33 is off the tick 0.05: 893.30 or 893.35' });
    expect(bridge.callsTo('protection.modify')).toEqual([]);
    // The refusal is the caller's to show, next to the box it is about: no second notice.
    expect(state.notice).toBeUndefined();
  });

  it('a stop on the tick goes to every bracket of the position; a refusal says the core’s words', async () => {
    const { bridge, state } = setup([bracket({ entry: 'A' }), bracket({ entry: 'B' })]);
    await flush();
    bridge.answer('protection.modify', (input) => ({
      ok: true,
      value: bracket({
        entry: input!.entry,
        stop: { state: 'working', quantity: 10, filled: 0, price: input!.stop },
      }),
    }));
    const r = await state.modify(state.brackets, 'stop', '893.35', 905);
    expect(r.ok).toBe(true);
    expect(bridge.callsTo('protection.modify').map((c) => c.input)).toEqual([
      { entry: 'A', stop: 893.35 },
      { entry: 'B', stop: 893.35 },
    ]);
    expect(state.notice?.text).toBe('Stop of SBIN MIS moved to 893.35 (2 brackets)');
    expect(state.brackets.map((b) => b.stop?.price)).toEqual([893.35, 893.35]);

    bridge.answer('protection.modify', () => ({
      ok: false,
      error: { kind: 'invalid_input', message: 'the stop is at or past the last price' },
    }));
    const refused = await state.modify([state.brackets[0]!], 'target', '950', 905);
    expect(refused).toEqual({ ok: false, reason: 'Target not moved: the stop is at or past the last price' });
  });

  it('a flatten says what goes and sends nothing on a no; a yes sends protection.flatten', async () => {
    const { bridge, state, confirm } = setup();
    await flush();
    bridge.answer('protection.flatten', () => ({
      ok: true,
      value: { orderid: 'F1', action: 'SELL', quantity: 10 },
    }));
    const no = state.flatten(state.brackets);
    await flush();
    expect(confirm.request?.title).toBe('Flatten the position?');
    expect(confirm.request?.lines).toContain('Sell 10 SBIN MIS at MARKET');
    confirm.answer(false);
    expect(await no).toBe(false);
    expect(bridge.callsTo('protection.flatten')).toEqual([]);

    const yes = state.flatten(state.brackets);
    await flush();
    confirm.answer(true);
    expect(await yes).toBe(true);
    expect(bridge.callsTo('protection.flatten').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
    expect(state.notice?.text).toBe('Flatten sent for SBIN MIS: SELL 10 (order F1)');
  });

  it('an overshoot is closed by buying back the excess on the entry’s side', () => {
    expect(flattenOrder(bracket({ open: -3, state: 'overshoot' }))).toEqual({ action: 'BUY', quantity: 3 });
    expect(flattenOrder(bracket({ action: 'SELL', open: 4 }))).toEqual({ action: 'BUY', quantity: 4 });
    expect(flattenOrder(bracket({ open: 0 }))).toBeUndefined();
  });

  it('remove and retry go to the core by the entry', async () => {
    const { bridge, state } = setup([unprotected()]);
    await flush();
    bridge
      .answer('protection.retry', () => ({ ok: true, value: bracket() }))
      .answer('protection.remove', () => ({ ok: true, value: bracket({ state: 'closed' }) }));
    expect(await state.retry(state.brackets[0]!)).toBe(true);
    expect(state.brackets[0]!.state).toBe('protected');
    expect(await state.remove(state.brackets)).toBe(true);
    expect(bridge.callsTo('protection.retry').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
    expect(bridge.callsTo('protection.remove').map((c) => c.input)).toEqual([{ entry: 'E1' }]);
    expect(state.of({ exchange: 'NSE', symbol: 'SBIN', product: 'MIS' })).toBeUndefined();
  });
});
