import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '@contract';
import { describeRequest, tapRefusals, type Refusal } from '../../../src-renderer/src/lib/refusal-tap';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0);
const FUNDS = 'Insufficient funds. Required: ₹45255000.00, Available: ₹10000000.00';

function bridge(): FakeBridge {
  return new FakeBridge()
    .answer('orders.place', () => ({
      ok: false,
      error: { kind: 'bad_input', message: FUNDS, httpStatus: 400 },
    }))
    .answer('orders.cancel', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: 'no answer within 15 s', journalId: 'j1' },
    }))
    .answer('orders.cancelAll', () => ({
      ok: false,
      error: { kind: 'queued', message: 'Order queued for approval in the Action Center' },
    }))
    .answer('books.funds', () => ({ ok: false, error: { kind: 'network', message: 'offline' } }));
}

describe('the refusal tap', () => {
  it('reports a refused order action with the request in words, and hands the answer back unchanged', async () => {
    const seen: Refusal[] = [];
    const b = tapRefusals(
      bridge(),
      (r) => seen.push(r),
      () => T0,
    );
    const r = await b.invoke('orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 50_000,
      pricetype: 'MARKET',
      product: 'CNC',
    });
    expect(r).toEqual({ ok: false, error: { kind: 'bad_input', message: FUNDS, httpStatus: 400 } });
    expect(seen).toEqual([
      {
        channel: 'orders.place',
        what: 'BUY 50,000 SBIN NSE',
        error: { kind: 'bad_input', message: FUNDS, httpStatus: 400 },
        order: { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 50_000 },
        time: T0,
      },
    ]);
  });

  it('an unknown outcome is not a refusal (the core announces it), nor is a failed read', async () => {
    const seen: Refusal[] = [];
    const b = tapRefusals(bridge(), (r) => seen.push(r));
    await b.invoke('orders.cancel', { orderid: 'o1' });
    await b.invoke('books.funds');
    expect(seen).toEqual([]);
  });

  it('names the order a modify or cancel was about', () => {
    expect(describeRequest('orders.modify', { orderid: 'o7', quantity: 2 })).toEqual({
      what: 'modify order o7',
      orderid: 'o7',
    });
    expect(describeRequest('orders.closePosition', undefined)).toEqual({ what: 'close all positions' });
    expect(describeRequest('orders.closeAll', undefined)).toEqual({
      what: 'close all (cancel working orders, close, verify)',
    });
    expect(describeRequest('strategies.send', { name: 'Condor', legs: [] })).toEqual({
      what: 'send strategy Condor',
    });
    expect(describeRequest('strategies.exit', { id: 's1' })).toEqual({ what: 'exit strategy s1' });
  });

  it('events pass straight through', () => {
    const fake = bridge();
    const b = tapRefusals(fake, () => undefined);
    const off = b.on('alerts.raised', () => undefined);
    expect(fake.listenerCount('alerts.raised')).toBe(1);
    off();
    expect(fake.listenerCount('alerts.raised')).toBe(0);
  });
});

describe('refusals in the alert log', () => {
  it('a refusal is listed unread as Refused with the gateway words; queued for approval as information', async () => {
    const fake = bridge().answer('session.snapshot', () => ({
      ok: true,
      value: { seq: 0, alerts: { paused: false, muted: [], sticky: [] } } as unknown as SessionSnapshot,
    }));
    const log = new AlertLog(fake);
    log.start();
    const b = tapRefusals(
      fake,
      (r) => log.noteRefusal(r),
      () => T0,
    );
    await b.invoke('orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 50_000,
      pricetype: 'MARKET',
      product: 'CNC',
    });
    await b.invoke('orders.cancelAll');
    expect(log.entries.map((e) => [e.kind, e.title, e.body])).toEqual([
      ['info', 'Cancel all orders: queued for approval', 'Order queued for approval in the Action Center'],
      ['refusal', 'BUY 50,000 SBIN NSE refused', FUNDS],
    ]);
    expect(log.unread).toBe(2);
  });
});
