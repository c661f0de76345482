// The desk's strategies: read once, then replaced whole by each `strategies.list` event of the active
// profile; a stop typed wrong is answered in words without a send; an exit, a resume and a removal
// go only after a yes that lists what goes; a refusal is said, never silent.
import { describe, expect, it } from 'vitest';
import type { StrategyView } from '@contract';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { StrategiesState } from '../../../src-renderer/src/state/strategies.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/books-fixtures';
import { legView, strategyView } from '../../support/component/strategy-views';

const leg = legView;
const view = strategyView;

function setup(first: StrategyView[] = [view()]) {
  const bridge = new FakeBridge().answer('strategies.list', () => ({
    ok: true,
    value: { profileId: 'paper', strategies: first },
  }));
  const confirm = new ConfirmState();
  const state = new StrategiesState(bridge, { confirm });
  state.start();
  return { bridge, confirm, state };
}

describe('the strategies of the active profile', () => {
  it('are read once and follow the event of the same profile only', async () => {
    const { bridge, state } = setup();
    await flush();
    expect(state.strategies.map((s) => s.id)).toEqual(['s1']);
    bridge.emit('strategies.list', { profileId: 'paper', strategies: [view({ id: 's2' })], seq: 4 });
    expect(state.strategies.map((s) => s.id)).toEqual(['s2']);
    bridge.emit('strategies.list', { profileId: 'live', strategies: [], seq: 5 });
    bridge.emit('strategies.list', { profileId: 'paper', strategies: [], seq: 3 });
    expect(state.strategies.map((s) => s.id)).toEqual(['s2']);
  });

  it('say why they could not be read', async () => {
    const bridge = new FakeBridge().answer('strategies.list', () => ({
      ok: false,
      error: { kind: 'network', message: 'core unreachable' },
    }));
    const state = new StrategiesState(bridge);
    state.start();
    await flush();
    expect(state.problem).toBe('Strategies: core unreachable');
  });
});

describe('the actions', () => {
  it('set a stop in rupees, or answer why not without sending; empty removes it', async () => {
    const { bridge, state } = setup();
    await flush();
    bridge.answer('strategies.update', (input) => ({
      ok: true,
      value: view({ stop: input?.stop ?? undefined }),
    }));
    expect(await state.setLevel(view(), 'stop', '2,000.555')).toEqual({
      ok: false,
      reason: 'Stop must be rupees, at most 2 decimals',
    });
    expect(bridge.callsTo('strategies.update')).toHaveLength(0);
    expect(await state.setLevel(view(), 'stop', '2,000.50')).toEqual({ ok: true });
    expect(bridge.callsTo('strategies.update')[0]?.input).toEqual({ id: 's1', stop: 2000.5 });
    expect(state.strategies[0]?.stop).toBe(2000.5);
    expect(state.notice?.text).toMatch(/exits every leg at a loss of ₹2,000.50/);
    await state.setLevel(view(), 'target', '');
    expect(bridge.callsTo('strategies.update')[1]?.input).toEqual({ id: 's1', target: null });
  });

  it('exit only after a yes that lists the basket; a no sends nothing', async () => {
    const { bridge, confirm, state } = setup();
    await flush();
    bridge.answer('strategies.exit', () => ({ ok: true, value: view({ state: 'exiting' }) }));
    const no = state.exit(view());
    expect(confirm.request?.lines).toEqual([
      'One basket, 1 order:',
      'Buy 75 NIFTY 25 NOV 24000 CE at MARKET',
    ]);
    confirm.answer(false);
    expect(await no).toBe(false);
    expect(bridge.callsTo('strategies.exit')).toHaveLength(0);

    const yes = state.exit(view());
    confirm.answer(true);
    expect(await yes).toBe(true);
    expect(bridge.callsTo('strategies.exit')).toHaveLength(1);
    expect(state.strategies[0]?.state).toBe('exiting');
  });

  it('for a partial strategy, unwind the sent legs and say the waiting ones stay unsent', async () => {
    const partial = view({
      state: 'partial',
      legs: [leg(), leg({ symbol: 'NIFTY25NOV2624200CE', state: 'waiting', open: 0 })],
    });
    const { bridge, confirm, state } = setup([partial]);
    await flush();
    bridge.answer('strategies.exit', () => ({
      ok: false,
      error: { kind: 'server', message: 'gateway down' },
    }));
    const asked = state.exit(partial);
    expect(confirm.request?.title).toBe('Unwind the sent legs of Short call?');
    expect(confirm.request?.warnings).toEqual(['1 leg not sent stay unsent.']);
    confirm.answer(true);
    expect(await asked).toBe(false);
    expect(state.notice).toMatchObject({ tone: 'error', text: 'Unwind of Short call refused: gateway down' });
  });

  it('resume after a yes; an unanswered leg is said not to be sent again', async () => {
    const partial = view({
      state: 'partial',
      legs: [
        leg({ state: 'waiting', open: 0 }),
        leg({ symbol: 'NIFTY25NOV2624200CE', state: 'unknown', open: 0 }),
      ],
    });
    const { bridge, confirm, state } = setup([partial]);
    await flush();
    bridge.answer('strategies.resume', () => ({ ok: true, value: view() }));
    const asked = state.resume(partial);
    expect(confirm.request?.lines).toEqual([
      'One leg at a time, MIS:',
      'Sell 75 NIFTY 25 NOV 24000 CE at MARKET',
    ]);
    expect(confirm.request?.warnings?.[0]).toMatch(
      /NIFTY 25 NOV 24200 CE had no answer: it is not sent again/,
    );
    confirm.answer(true);
    expect(await asked).toBe(true);
    expect(bridge.callsTo('strategies.resume')[0]?.input).toEqual({ id: 's1' });
  });

  it('remove only a closed strategy, after a yes', async () => {
    const { bridge, confirm, state } = setup([view({ state: 'closed' })]);
    await flush();
    expect(await state.remove(view())).toBe(false);
    expect(state.notice?.text).toMatch(/only a closed strategy can be removed/);
    bridge.answer('strategies.remove', () => ({ ok: true, value: { id: 's1' } }));
    const asked = state.remove(view({ state: 'closed' }));
    confirm.answer(true);
    expect(await asked).toBe(true);
    expect(state.strategies).toEqual([]);
  });

  it('roll with the chosen contract and say a refusal', async () => {
    const { bridge, state } = setup();
    await flush();
    bridge.answer('strategies.roll', () => ({
      ok: false,
      error: { kind: 'server', message: 'margin short' },
    }));
    const preview = {
      close: { action: 'BUY' as const, symbol: 'NIFTY25NOV2624000CE', quantity: 75, price: 100 },
      open: { action: 'SELL' as const, symbol: 'NIFTY25NOV2624100CE', quantity: 75, price: 70 },
      net: -2250,
    };
    const r = await state.roll(view(), 0, { symbol: 'NIFTY25NOV2624100CE', exchange: 'NFO' }, preview);
    expect(r).toEqual({ ok: false, reason: 'Roll refused: margin short' });
    expect(bridge.callsTo('strategies.roll')[0]?.input).toEqual({
      id: 's1',
      leg: 0,
      to: { symbol: 'NIFTY25NOV2624100CE', exchange: 'NFO' },
    });
  });
});
