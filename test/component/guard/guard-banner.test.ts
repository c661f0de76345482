// The lock banner: red while a lock holds, "LOCKED: <reason> · until <end>"; "Unlock early…" opens a
// dialog whose Unlock button stays disabled until UNLOCK is typed exactly, then asks the core; Esc
// or "Keep the lock" closes it with focus back on the opener; during a flatten, its progress and
// "Stop re-squaring"; gone when the lock ends.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuardView } from '@contract';
import GuardBanner from '../../../src-renderer/src/components/GuardBanner.svelte';
import { GUARD } from '../../../src-renderer/src/state/context';
import { GuardState } from '../../../src-renderer/src/state/guard.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';
import { guardView, lock } from './fixtures';

afterEach(() => document.body.replaceChildren());

async function banner(view: GuardView) {
  const bridge = new FakeBridge()
    .answer('guard.state', () => ({ ok: true, value: view }))
    .answer('guard.unlock', () => ({ ok: true, value: { ...view, lock: null } }));
  const guard = new GuardState(bridge);
  guard.start();
  render(GuardBanner, { context: new Map([[GUARD, guard]]) });
  await flush();
  return { bridge, guard };
}

const LOCKED = guardView({ lock: lock() });

describe('the lock banner', () => {
  it('is not there without a lock', async () => {
    await banner(guardView());
    expect(screen.queryByTestId('guard-lock')).toBeNull();
  });

  it('says LOCKED, why and until when, as an alert', async () => {
    await banner(LOCKED);
    const el = screen.getByRole('alert');
    expect(el).toHaveAttribute('data-testid', 'guard-lock');
    expect(el).toHaveTextContent(
      'LOCKED: 1 orders today reached the max orders per day 1 · until next trading day (23-Nov-2026 09:15:00 IST)',
    );
    expect(el).toHaveTextContent('New entries are refused; orders that reduce a position still go out.');
    expect(screen.queryByTestId('guard-stop-flatten')).toBeNull();
  });

  it('unlocks only once UNLOCK is typed exactly, then asks the core', async () => {
    const { bridge } = await banner(LOCKED);
    const opener = screen.getByRole('button', { name: 'Unlock early…' });
    opener.focus();
    await fireEvent.click(opener);
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'End the lock early?' });
    const word = screen.getByLabelText('Type UNLOCK to end the lock');
    expect(document.activeElement).toBe(word);
    const unlock = screen.getByRole('button', { name: 'Unlock now' });
    for (const typed of ['', 'unlock', 'UNLOC', 'UNLOCK ', 'Unlock']) {
      await fireEvent.input(word, { target: { value: typed } });
      expect(unlock).toBeDisabled();
    }
    // Enter on a wrong word sends nothing either.
    await fireEvent.submit(dialog.querySelector('form')!);
    expect(bridge.callsTo('guard.unlock')).toEqual([]);

    await fireEvent.input(word, { target: { value: 'UNLOCK' } });
    expect(unlock).toBeEnabled();
    await fireEvent.click(unlock);
    await flush();
    expect(bridge.callsTo('guard.unlock').map((c) => c.input)).toEqual([{ confirm: 'UNLOCK' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('guard-lock')).toBeNull();
  });

  it("shows the core's refusal in the dialog, which stays open", async () => {
    const { bridge } = await banner(LOCKED);
    bridge.answer('guard.unlock', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'nothing is locked' },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Unlock early…' }));
    await flush();
    await fireEvent.input(screen.getByLabelText('Type UNLOCK to end the lock'), {
      target: { value: 'UNLOCK' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Unlock now' }));
    await flush();
    expect(screen.getByRole('dialog')).toHaveTextContent('Not unlocked: nothing is locked');
    expect(screen.getByLabelText('Type UNLOCK to end the lock')).toHaveAttribute('aria-invalid', 'true');
  });

  it('closes on Esc or Keep the lock, focus back on the opener, nothing sent', async () => {
    const { bridge } = await banner(LOCKED);
    const opener = screen.getByRole('button', { name: 'Unlock early…' });
    opener.focus();
    await fireEvent.click(opener);
    await flush();
    await fireEvent.keyDown(screen.getByLabelText('Type UNLOCK to end the lock'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    await fireEvent.click(opener);
    await flush();
    await fireEvent.click(screen.getByRole('button', { name: 'Keep the lock' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(bridge.callsTo('guard.unlock')).toEqual([]);
  });

  it('during a flatten, shows its progress and stops its re-squaring through the core', async () => {
    const running = guardView({
      lock: lock({
        action: 'flatten',
        rule: 'dailyLoss',
        reason: 'Day MTM -₹5,020.00 is past the daily loss lock ₹5,000.00',
      }),
      flatten: { state: 'running', rounds: 2, text: 'Re-squaring round 2: 1 position, 0 orders left' },
    });
    const { bridge } = await banner(running);
    expect(screen.getByTestId('guard-flatten')).toHaveTextContent(
      'Re-squaring round 2: 1 position, 0 orders left',
    );
    expect(screen.getByTestId('guard-lock')).toHaveTextContent(
      'New entries are refused; working orders are cancelled and positions closed',
    );
    bridge.answer('guard.stopFlatten', () => ({
      ok: true,
      value: {
        ...running,
        flatten: { state: 'stopped', rounds: 2, text: 'Re-squaring stopped after round 2' },
      },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Stop re-squaring' }));
    await flush();
    expect(bridge.callsTo('guard.stopFlatten')).toHaveLength(1);
    // Stopped: no button to stop again; the lock and its words stay.
    expect(screen.queryByRole('button', { name: 'Stop re-squaring' })).toBeNull();
    expect(screen.getByTestId('guard-flatten')).toHaveTextContent('Re-squaring stopped after round 2');
    expect(screen.getByTestId('guard-lock')).toHaveTextContent(
      'Re-squaring stopped: the lock stays until it ends',
    );
  });

  it('goes when an event ends the lock, closing an open dialog', async () => {
    const { bridge } = await banner(LOCKED);
    await fireEvent.click(screen.getByRole('button', { name: 'Unlock early…' }));
    await flush();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    bridge.emit('guard.state', { ...guardView(), seq: 40 });
    await flush();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('guard-lock')).toBeNull();
  });
});
