import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { AlertEvent, SessionSnapshot } from '@contract';
import Alerts from '../../../src-renderer/src/panes/Alerts.svelte';
import { ALERT_LOG } from '../../../src-renderer/src/state/context';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot as session } from '../../support/component/session';

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0); // 09:30:00 IST

const REJECTED: AlertEvent = {
  id: 'o3:rejection:0',
  time: T0,
  kind: 'rejection',
  title: 'BUY 1,00,000 SBIN rejected',
  body: 'Insufficient funds (NSE · MARKET · MIS · order o3)',
  sticky: true,
  orderid: 'o3',
};

function snapshot(sticky: AlertEvent[] = []): SessionSnapshot {
  return session({ alerts: { paused: false, muted: [], sticky } });
}

async function setup(active: boolean, sticky: AlertEvent[] = []) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({ ok: true, value: snapshot(sticky) }))
    .answer('alerts.mute', (input) => ({
      ok: true,
      value: { paused: false, muted: input?.muted ? [input.orderid] : [], sticky },
    }))
    .answer('alerts.pause', (input) => ({ ok: true, value: { paused: input!.paused, muted: [], sticky } }))
    .answer('alerts.dismiss', () => ({ ok: true, value: { paused: false, muted: [], sticky: [] } }));
  const log = new AlertLog(b);
  log.start();
  await flush();
  const view = render(Alerts, { props: { active }, context: new Map([[ALERT_LOG, log]]) });
  return { b, log, view };
}

describe('the Alerts pane', () => {
  it('says what will appear when empty', async () => {
    await setup(true);
    expect(screen.getByText(/No alerts yet/)).toBeInTheDocument();
  });

  it('shows a rejection with its reason, its kind in words, the IST time and the order', async () => {
    await setup(true, [REJECTED]);
    const row = screen.getByTestId('alert-row');
    expect(row).toHaveTextContent('Rejected');
    expect(row).toHaveTextContent('Insufficient funds');
    expect(row).toHaveTextContent('09:30:00 IST');
    expect(row).toHaveTextContent('o3');
  });

  it('an unknown outcome reads "Reconciling", then how it settled', async () => {
    const { b } = await setup(true);
    b.emit('orders.unknown', {
      seq: 11,
      profileId: 'paper',
      time: T0,
      journalId: 'j1',
      operation: 'cancelorder',
      orderid: 'o4',
      message: 'No answer within 10 s',
    });
    await flush();
    expect(screen.getByTestId('alert-row')).toHaveTextContent('Reconciling');
    expect(screen.getByTestId('alert-row')).toHaveTextContent(
      'Order cancellation: outcome unknown, reconciling',
    );
    b.emit('orders.reconciled', {
      seq: 12,
      profileId: 'paper',
      time: T0 + 2000,
      journalId: 'j1',
      operation: 'cancelorder',
      found: true,
      orderid: 'o4',
      message: 'Order o4 is cancelled',
    });
    await flush();
    const rows = screen.getAllByTestId('alert-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Took effect');
    expect(rows[0]).toHaveTextContent('Order o4 is cancelled');
  });

  it('while shown, entries count as read; while hidden they stay unread', async () => {
    const hidden = await setup(false, [REJECTED]);
    await flush();
    expect(hidden.log.unread).toBe(1);
    expect(screen.getByTestId('alerts-unread')).toHaveTextContent('1 unread');
    hidden.view.unmount();
    const shown = await setup(true, [REJECTED]);
    await flush();
    expect(shown.log.unread).toBe(0);
  });

  it('mute is per order, by its accessible name, and shows as pressed', async () => {
    const { b } = await setup(true, [REJECTED]);
    const mute = screen.getByRole('button', { name: 'Mute alerts for order o3' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await fireEvent.click(mute);
    await flush();
    expect(b.callsTo('alerts.mute')).toEqual([
      { channel: 'alerts.mute', input: { orderid: 'o3', muted: true } },
    ]);
    expect(screen.getByRole('button', { name: 'Unmute alerts for order o3' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByTestId('alerts-summary')).toHaveTextContent('1 muted');
  });

  it('pause all toggles through the core and says alerts are paused', async () => {
    const { b } = await setup(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Pause all alerts' }));
    await flush();
    expect(b.callsTo('alerts.pause')).toEqual([{ channel: 'alerts.pause', input: { paused: true } }]);
    expect(screen.getByTestId('alerts-paused')).toHaveTextContent('Alerts paused');
    expect(screen.getByRole('button', { name: 'Resume alerts' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('dismiss removes the row (and dismisses the rejection in the core)', async () => {
    const { b } = await setup(true, [REJECTED]);
    const row = screen.getByTestId('alert-row');
    await fireEvent.click(within(row).getByRole('button', { name: /^Dismiss: / }));
    await flush();
    expect(b.callsTo('alerts.dismiss')).toHaveLength(1);
    expect(screen.queryByTestId('alert-row')).toBeNull();
  });
});
