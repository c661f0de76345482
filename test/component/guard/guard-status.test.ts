// The status bar's account guard: the day's MTM against the nearest limit in en-IN figures with a
// true minus, calm under 50 %, amber from 50 % and red from 80 % (the levels the guard warns at) and
// while locked; nothing while the guard is off. A lock's end in words, and the tray's 'locked' state
// as "Locked" in the page's status.
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuardView } from '@contract';
import GuardMeter from '../../../src-renderer/src/components/status/GuardMeter.svelte';
import LinkPills from '../../../src-renderer/src/components/status/LinkPills.svelte';
import { guardLevel, guardLine, lockEndText } from '../../../src-renderer/src/lib/guard-view';
import { GUARD } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { GuardState } from '../../../src-renderer/src/state/guard.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';
import { guardView, lock, usage } from './fixtures';

afterEach(() => document.body.replaceChildren());

async function meter(view: GuardView) {
  const bridge = new FakeBridge().answer('guard.state', () => ({ ok: true, value: view }));
  const guard = new GuardState(bridge);
  guard.start();
  render(GuardMeter, { context: new Map([[GUARD, guard]]) });
  await flush();
  return { bridge, guard };
}

const at = (percent: number, over = {}) =>
  guardView({ nearest: usage({ percent, ...over }), usage: [usage({ percent, ...over })] });

describe('the status bar line', () => {
  it.each([
    [0, 'calm'],
    [49, 'calm'],
    [50, 'amber'],
    [79, 'amber'],
    [80, 'red'],
    [100, 'red'],
  ] as const)('%i %% of the nearest limit is %s', async (percent, level) => {
    expect(guardLevel(percent)).toBe(level);
    await meter(at(percent));
    const el = screen.getByTestId('guard-meter');
    expect(el).toHaveAttribute('data-level', level);
    expect(el).toHaveTextContent(`Day MTM −₹2,510.00 · loss lock ${percent} %`);
  });

  it('groups rupees en-IN, signs a profit, names a count rule, and says LOCKED in red', async () => {
    expect(guardLine(guardView({ mtm: '123456.5' }))?.text).toBe('Day MTM +₹1,23,456.50 · loss lock 50 %');
    expect(
      guardLine(
        guardView({
          nearest: usage({ rule: 'maxOrders', used: '3', limit: '4', percent: 75, words: 'Orders 3 of 4' }),
        }),
      ),
    ).toEqual({
      text: 'Day MTM −₹2,510.00 · orders 75 %',
      level: 'amber',
      title: 'Nearest limit: Orders 3 of 4',
    });
    expect(guardLine(guardView({ mtm: null }))?.text).toBe('Day MTM — · loss lock 50 %');
    await meter(guardView({ lock: lock() }));
    const el = screen.getByTestId('guard-meter');
    expect(el).toHaveTextContent('Day MTM −₹2,510.00 · LOCKED');
    expect(el).toHaveAttribute('data-level', 'red');
    expect(el).toHaveAttribute('title', '1 orders today reached the max orders per day 1');
  });

  it('is not shown while the guard is off, and follows the event that turns it on', async () => {
    const off = guardView({ rules: { ...guardView().rules, enabled: false }, usage: [], nearest: null });
    const { bridge } = await meter(off);
    expect(screen.queryByTestId('guard-meter')).toBeNull();
    bridge.emit('guard.state', { ...at(85), seq: 3 });
    await flush();
    expect(screen.getByTestId('guard-meter')).toHaveAttribute('data-level', 'red');
  });

  it('shows nothing in a pane mounted without the guard', () => {
    render(GuardMeter);
    expect(screen.queryByTestId('guard-meter')).toBeNull();
  });
});

describe("a lock's end in words", () => {
  it('next trading day when it ends at the next open, an IST time the same day, else date and time', () => {
    // Friday 11:00 IST → Monday 09:15 IST.
    expect(lockEndText(lock())).toBe('next trading day (23-Nov-2026 09:15:00 IST)');
    // A 60-minute cooling-off: 12:00:00 IST the same day.
    expect(lockEndText(lock({ until: '2026-11-20T06:30:00.000Z' }))).toBe('12:00:00 IST');
    // A day-long cooling-off ends the next day at the same time.
    expect(lockEndText(lock({ until: '2026-11-21T05:30:00.000Z' }))).toBe('21-Nov-2026 11:00:00 IST');
    expect(lockEndText(lock({ until: 'soon' }))).toBe('soon');
  });
});

describe("the tray's state in the page", () => {
  it("shows 'locked' as Locked", async () => {
    const bridge = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot() }));
    const desk = new DeskState(bridge);
    desk.start();
    render(LinkPills, { props: { desk } });
    await flush();
    expect(screen.queryByTestId('tray')).toBeNull();
    bridge.emit('tray.state', {
      state: 'locked',
      mode: 'paper',
      tooltip: 'OrderDesk: locked by the account guard',
    });
    await flush();
    const tray = screen.getByTestId('tray');
    expect(tray).toHaveTextContent('tray: Locked');
    expect(tray).toHaveAttribute('data-state', 'locked');
  });
});
