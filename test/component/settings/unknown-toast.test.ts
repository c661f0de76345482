// An unknown outcome under an in-app, sound or OS rule is a toast in the window while the Alerts list
// keeps its one entry from orders.unknown (the toast is that entry, never listed a second time).
import { describe, expect, it } from 'vitest';
import type { AlertEvent } from '@contract';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0);

const toast: AlertEvent = {
  id: 'unknown:j7',
  time: T0 + 1000,
  kind: 'warning',
  title: 'Order placement: outcome unknown',
  body: 'timed out · OrderDesk is checking the order book',
  sticky: false,
  delivery: 'sound',
  about: 'unknown_outcome',
};

describe('an unknown outcome in the window', () => {
  it('toasts once and is listed once in Alerts, as the unknown outcome it is', async () => {
    const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot({ seq: 10 }) }));
    const delivered: AlertEvent[] = [];
    const log = new AlertLog(b, { systemNotify: (a) => delivered.push(a) });
    const stops = [log.start()];
    await flush();
    b.emit('orders.unknown', {
      seq: 11,
      profileId: 'paper',
      time: T0,
      journalId: 'j7',
      operation: 'placeorder',
      message: 'timed out',
    });
    b.emit('alerts.raised', { ...toast, seq: 12 });
    await flush();
    expect(log.toasts.map((a) => a.id)).toEqual(['unknown:j7']);
    // The rule travels with it: the window's delivery (here a chime) reads it.
    expect(delivered.map((a) => a.delivery)).toEqual(['sound']);
    expect(log.entries.map((e) => [e.id, e.kind])).toEqual([['unknown:j7', 'unknown']]);
    for (const stop of stops) stop();
  });
});
