import { describe, expect, it } from 'vitest';
import type { AlertEvent, AlertsState, SessionSnapshot } from '@contract';
import { ALERT_LOG_LIMIT, AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot as session } from '../../support/component/session';

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0); // 09:30:00 IST

function alert(n: number, extra: Partial<AlertEvent> = {}): AlertEvent {
  return {
    id: `o${n}:fill:1`,
    time: T0 + n * 1000,
    kind: 'fill',
    title: `BUY 1 SBIN @ ₹905.30 filled`,
    body: `NSE · MARKET · MIS · order o${n}`,
    sticky: false,
    orderid: `o${n}`,
    ...extra,
  };
}

const rejection = (n: number): AlertEvent =>
  alert(n, {
    id: `o${n}:rejection:0`,
    kind: 'rejection',
    title: 'BUY 100000 SBIN rejected',
    body: 'Insufficient funds (NSE · MARKET · MIS · order o' + n + ')',
    sticky: true,
  });

function snapshot(alerts: Partial<AlertsState> = {}, seq = 10): SessionSnapshot {
  return session({ alerts: { paused: false, muted: [], sticky: [], ...alerts }, seq });
}

async function started(snap = snapshot(), b = new FakeBridge()) {
  b.answer('session.snapshot', () => ({ ok: true, value: snap }));
  const log = new AlertLog(b);
  const stop = log.start();
  await flush();
  return { log, b, stop };
}

describe('the alert log', () => {
  it('starts from the snapshot: undismissed rejections listed and unread, paused and muted as the core has them', async () => {
    const { log } = await started(snapshot({ paused: true, muted: ['o7'], sticky: [rejection(3)] }));
    expect(log.entries.map((e) => e.id)).toEqual(['o3:rejection:0']);
    expect(log.entries[0]).toMatchObject({
      kind: 'rejection',
      sticky: true,
      body: expect.stringContaining('Insufficient funds'),
    });
    expect(log.unread).toBe(1);
    expect(log.paused).toBe(true);
    expect(log.isMuted('o7')).toBe(true);
    expect(log.isMuted('o3')).toBe(false);
  });

  it('lists raised alerts newest first, counts them unread until read, and skips events the snapshot already reflects', async () => {
    const { log, b } = await started();
    b.emit('alerts.raised', { ...alert(1), seq: 9 }); // before the snapshot's seq 10: already reflected
    b.emit('alerts.raised', { ...alert(2), seq: 11 });
    b.emit('alerts.raised', { ...alert(3, { kind: 'partial', id: 'o3:partial:5' }), seq: 12 });
    b.emit('alerts.raised', { ...alert(2), seq: 12 }); // a replay
    expect(log.entries.map((e) => e.id)).toEqual(['o3:partial:5', 'o2:fill:1']);
    expect(log.unread).toBe(2);
    log.markRead();
    expect(log.unread).toBe(0);
    b.emit('alerts.raised', { ...alert(4), seq: 13 });
    expect(log.unread).toBe(1);
    expect(log.unreadIds).toEqual(['o4:fill:1']);
  });

  it('the same alert id replaces its entry instead of listing it twice', async () => {
    const { log, b } = await started();
    b.emit('alerts.raised', { ...alert(1), seq: 11 });
    b.emit('alerts.raised', { ...alert(1, { title: 'again', time: T0 + 9000 }), seq: 12 });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]?.title).toBe('again');
    expect(log.unread).toBe(1);
  });

  it('an unknown outcome shows as reconciling, then as settled on the same row, unread again', async () => {
    const { log, b } = await started();
    b.emit('orders.unknown', {
      seq: 11,
      profileId: 'paper',
      time: T0,
      journalId: 'j1',
      operation: 'placeorder',
      message: 'The gateway did not answer within 10 s',
    });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      id: 'unknown:j1',
      kind: 'unknown',
      title: 'Order placement: outcome unknown, reconciling',
      body: 'The gateway did not answer within 10 s',
    });
    expect(log.entries[0]?.resolution).toBeUndefined();
    log.markRead();
    b.emit('orders.reconciled', {
      seq: 12,
      profileId: 'paper',
      time: T0 + 4000,
      journalId: 'j1',
      operation: 'placeorder',
      found: true,
      orderid: 'o9',
      message: 'The order book shows order o9',
    });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      id: 'unknown:j1',
      title: 'Order placement: took effect',
      orderid: 'o9',
      resolution: { found: true, message: 'The order book shows order o9' },
    });
    expect(log.unread).toBe(1);
  });

  it('a settlement without its unknown (the page loaded after it) is listed on its own, as not taking effect', async () => {
    const { log, b } = await started();
    b.emit('orders.reconciled', {
      seq: 11,
      profileId: 'paper',
      time: T0,
      journalId: 'j2',
      operation: 'cancelorder',
      found: false,
      orderid: 'o5',
      message: 'Order o5 is still open',
    });
    expect(log.entries[0]).toMatchObject({ title: 'Order cancellation: did not take effect', orderid: 'o5' });
  });

  it('mute and pause go to the core and take its answer; a refusal is shown, not swallowed', async () => {
    const { log, b } = await started();
    b.answer('alerts.mute', (input) => ({
      ok: true,
      value: { paused: false, muted: input?.muted ? [input.orderid] : [], sticky: [] },
    }));
    b.answer('alerts.pause', () => ({
      ok: false,
      error: { kind: 'io', message: 'settings.json is read-only' },
    }));
    expect(await log.mute('o1', true)).toBe(true);
    expect(b.callsTo('alerts.mute')).toEqual([
      { channel: 'alerts.mute', input: { orderid: 'o1', muted: true } },
    ]);
    expect(log.isMuted('o1')).toBe(true);
    expect(await log.mute('o1', false)).toBe(true);
    expect(log.isMuted('o1')).toBe(false);
    expect(await log.pause(true)).toBe(false);
    expect(log.paused).toBe(false);
    expect(log.problem).toBe('Pause: settings.json is read-only');
  });

  it('dismissing a rejection dismisses it in the core and removes the row; a plain alert leaves without a call', async () => {
    const { log, b } = await started(snapshot({ sticky: [rejection(3)] }));
    b.answer('alerts.dismiss', () => ({ ok: true, value: { paused: false, muted: [], sticky: [] } }));
    b.emit('alerts.raised', { ...alert(4), seq: 11 });
    expect(await log.dismiss('o4:fill:1')).toBe(true);
    expect(b.callsTo('alerts.dismiss')).toHaveLength(0);
    expect(await log.dismiss('o3:rejection:0')).toBe(true);
    expect(b.callsTo('alerts.dismiss')).toEqual([
      { channel: 'alerts.dismiss', input: { id: 'o3:rejection:0' } },
    ]);
    expect(log.entries).toEqual([]);
    expect(log.unread).toBe(0);
  });

  it('a failed dismiss keeps the rejection listed and says why', async () => {
    const { log, b } = await started(snapshot({ sticky: [rejection(3)] }));
    b.answer('alerts.dismiss', () => ({ ok: false, error: { kind: 'internal', message: 'boom' } }));
    expect(await log.dismiss('o3:rejection:0')).toBe(false);
    expect(log.entries).toHaveLength(1);
    expect(log.problem).toBe('Dismiss: boom');
  });

  it('a rejection dismissed elsewhere (its toast, the tray) stays in the history, no longer sticky', async () => {
    const { log, b } = await started(snapshot({ sticky: [rejection(3)] }));
    b.emit('alerts.state', { seq: 11, paused: true, muted: [], sticky: [] });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]?.sticky).toBe(false);
    expect(log.paused).toBe(true);
  });

  it('keeps at most ALERT_LOG_LIMIT entries, dropping the oldest (and their unread mark)', async () => {
    const { log, b } = await started();
    for (let i = 1; i <= ALERT_LOG_LIMIT + 20; i++) b.emit('alerts.raised', { ...alert(i), seq: 10 + i });
    expect(log.entries).toHaveLength(ALERT_LOG_LIMIT);
    expect(log.entries[0]?.id).toBe(`o${ALERT_LOG_LIMIT + 20}:fill:1`);
    expect(log.entries.at(-1)?.id).toBe('o21:fill:1');
    expect(log.unread).toBe(ALERT_LOG_LIMIT);
  });

  it('a snapshot that fails says so; stop() unsubscribes every listener', async () => {
    const b = new FakeBridge().answer('session.snapshot', () => ({
      ok: false,
      error: { kind: 'network', message: 'host link lost' },
    }));
    const log = new AlertLog(b);
    const stop = log.start();
    await flush();
    expect(log.problem).toBe('Alerts: host link lost');
    expect(b.listenerCount('alerts.raised')).toBe(1);
    stop();
    for (const e of ['alerts.raised', 'alerts.state', 'orders.unknown', 'orders.reconciled'] as const)
      expect(b.listenerCount(e)).toBe(0);
  });
});
