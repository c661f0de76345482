// The desk's account guard: read once, then replaced whole by each `guard.state` event of the active
// profile (another profile's ignored, an older one ignored, a read overtaken by an event dropped),
// read again on a profile switch; an early unlock only with UNLOCK typed exactly, and a flatten's
// re-squaring stopped through the core, each answering in words.
import { describe, expect, it } from 'vitest';
import type { GuardView } from '@contract';
import { GuardState } from '../../../src-renderer/src/state/guard.svelte';
import { deferred, FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';
import { guardView, lock } from './fixtures';

function setup(first: GuardView = guardView()) {
  const bridge = new FakeBridge().answer('guard.state', () => ({ ok: true, value: first }));
  const state = new GuardState(bridge);
  const stop = state.start();
  return { bridge, state, stop };
}

describe('the guard of the active profile', () => {
  it('is read once and follows the event of the same profile', async () => {
    const { bridge, state } = setup();
    await flush();
    expect(bridge.callsTo('guard.state')).toHaveLength(1);
    expect(state.view?.mtm).toBe('-2510.00');
    expect(state.line).toEqual({
      text: 'Day MTM −₹2,510.00 · loss lock 50 %',
      level: 'amber',
      title: 'Nearest limit: Day loss ₹2,510.00 of ₹5,000.00',
    });

    bridge.emit('guard.state', { ...guardView({ mtm: '-100.00', lock: lock() }), seq: 12 });
    expect(state.view?.mtm).toBe('-100.00');
    expect(state.lock?.rule).toBe('maxOrders');
    // The event's seq is the envelope's, not the view's.
    expect(state.view).not.toHaveProperty('seq');
    // Another profile's, and an older one, change nothing.
    bridge.emit('guard.state', { ...guardView({ profileId: 'live', mtm: '1.00' }), seq: 13 });
    bridge.emit('guard.state', { ...guardView({ mtm: '2.00' }), seq: 11 });
    expect(state.view?.mtm).toBe('-100.00');
    expect(state.line?.text).toBe('Day MTM −₹100.00 · LOCKED');
  });

  it('drops a read that an event overtook', async () => {
    const bridge = new FakeBridge();
    const answer = deferred<{ ok: true; value: GuardView }>();
    bridge.answer('guard.state', () => answer.promise);
    const state = new GuardState(bridge);
    state.start();
    bridge.emit('guard.state', { ...guardView({ mtm: '-9.00' }), seq: 5 });
    answer.resolve({ ok: true, value: guardView({ mtm: '-1.00' }) });
    await flush();
    expect(state.view?.mtm).toBe('-9.00');
  });

  it('is read again on a profile switch, the old one gone at once', async () => {
    const { bridge, state } = setup();
    await flush();
    bridge.answer('guard.state', () => ({ ok: true, value: guardView({ profileId: 'live', mtm: '5.00' }) }));
    bridge.emit('profiles.switched', { profileId: 'live', seq: 20 });
    expect(state.view).toBeUndefined();
    expect(state.line).toBeUndefined();
    await flush();
    expect(bridge.callsTo('guard.state')).toHaveLength(2);
    expect(state.profileId).toBe('live');
    expect(state.view?.mtm).toBe('5.00');
    bridge.emit('guard.state', { ...guardView({ mtm: '-7.00' }), seq: 21 });
    expect(state.view?.mtm).toBe('5.00');
  });

  it('says why it could not be read', async () => {
    const bridge = new FakeBridge().answer('guard.state', () => ({
      ok: false,
      error: { kind: 'internal', message: 'the guard is not running' },
    }));
    const state = new GuardState(bridge);
    state.start();
    await flush();
    expect(state.problem).toBe('Account guard: the guard is not running');
    expect(state.line).toBeUndefined();
  });

  it('stops listening when stopped', async () => {
    const { bridge, stop } = setup();
    await flush();
    expect(bridge.listenerCount('guard.state')).toBe(1);
    stop();
    expect(bridge.listenerCount('guard.state')).toBe(0);
  });
});

describe('ending a lock early', () => {
  it('sends nothing unless UNLOCK is typed exactly', async () => {
    const { bridge, state } = setup(guardView({ lock: lock() }));
    await flush();
    for (const typed of ['', 'unlock', 'Unlock', 'UNLOCK ', ' UNLOCK', 'UNLOCKED']) {
      expect(await state.unlock(typed)).toEqual({ ok: false, reason: 'Type UNLOCK to end the lock early' });
    }
    expect(bridge.callsTo('guard.unlock')).toEqual([]);
  });

  it('with UNLOCK, asks the core and takes its view; a refusal is said in words', async () => {
    const { bridge, state } = setup(guardView({ lock: lock() }));
    await flush();
    bridge.answer('guard.unlock', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'nothing is locked' },
    }));
    expect(await state.unlock('UNLOCK')).toEqual({ ok: false, reason: 'Not unlocked: nothing is locked' });
    expect(state.lock).not.toBeNull();
    bridge.answer('guard.unlock', () => ({ ok: true, value: guardView() }));
    expect(await state.unlock('UNLOCK')).toEqual({ ok: true });
    expect(bridge.callsTo('guard.unlock').map((c) => c.input)).toEqual([
      { confirm: 'UNLOCK' },
      { confirm: 'UNLOCK' },
    ]);
    expect(state.lock).toBeNull();
    expect(state.busy).toBeUndefined();
  });
});

describe("stopping a flatten's re-squaring", () => {
  it('asks the core, keeps the lock, and says so', async () => {
    const running = guardView({
      lock: lock({ action: 'flatten' }),
      flatten: { state: 'running', rounds: 2, text: 'Re-squaring: 1 position left, round 2' },
    });
    const { bridge, state } = setup(running);
    await flush();
    bridge.answer('guard.stopFlatten', () => ({
      ok: true,
      value: { ...running, flatten: { state: 'stopped', rounds: 2, text: 'Stopped by the trader' } },
    }));
    expect(await state.stopFlatten()).toEqual({ ok: true });
    expect(bridge.callsTo('guard.stopFlatten')).toHaveLength(1);
    expect(state.view?.flatten.state).toBe('stopped');
    expect(state.lock?.action).toBe('flatten');
    expect(state.notice).toBe('Re-squaring stopped: the lock stays until it ends');

    bridge.answer('guard.stopFlatten', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'no flatten is running' },
    }));
    expect(await state.stopFlatten()).toEqual({
      ok: false,
      reason: 'Re-squaring not stopped: no flatten is running',
    });
  });
});
