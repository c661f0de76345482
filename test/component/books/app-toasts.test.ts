// Toasts after a burst of fills: compact, at most 3 on screen, newest first, the rest counted with a
// way to the Alerts tab; a fill still leaves on its own, a rejection stays.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertEvent } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { ALERT_SHOWN_MS } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const fill = (n: number, extra: Partial<AlertEvent> = {}): AlertEvent & { seq: number } => ({
  id: `o${n}:fill:1`,
  time: Date.UTC(2025, 10, 20, 4, 0, n),
  kind: 'fill',
  title: `BUY ${n} SBIN @ ₹905.30 filled`,
  body: `NSE · MARKET · MIS · order o${n}`,
  sticky: false,
  orderid: `o${n}`,
  seq: 10 + n,
  ...extra,
});

async function desk() {
  const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot() }));
  Object.assign(window, { bridge: b });
  render(App);
  for (let i = 0; i < 5; i++) await flush();
  return b;
}

const toastTitles = () => screen.queryAllByTestId('alert').map((t) => t.querySelector('strong')?.textContent);

describe('the desk (App): toasts', () => {
  it('a burst of 6 fills shows the newest 3, newest first, and "+3 more in Alerts" that opens the Alerts tab', async () => {
    const b = await desk();
    for (let n = 1; n <= 6; n++) b.emit('alerts.raised', fill(n));
    await flush();
    expect(toastTitles()).toEqual([
      'BUY 6 SBIN @ ₹905.30 filled',
      'BUY 5 SBIN @ ₹905.30 filled',
      'BUY 4 SBIN @ ₹905.30 filled',
    ]);
    const more = screen.getByRole('button', { name: '+3 more in Alerts' });
    await fireEvent.click(more);
    await flush();
    expect(screen.getByRole('tab', { name: /^Alerts/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('fills leave on their own, a rejection stays until dismissed; no count when all fit', async () => {
    const b = await desk();
    // The desk's own timers from here on (the flush below is a timer too).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    b.emit('alerts.raised', fill(1));
    b.emit(
      'alerts.raised',
      fill(2, { id: 'o2:rejection:0', kind: 'rejection', sticky: true, title: 'BUY 2 SBIN rejected' }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(toastTitles()).toEqual(['BUY 2 SBIN rejected', 'BUY 1 SBIN @ ₹905.30 filled']);
    expect(screen.queryByTestId('alerts-more')).not.toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(ALERT_SHOWN_MS + 1);
    expect(toastTitles()).toEqual(['BUY 2 SBIN rejected']);
  });
});
