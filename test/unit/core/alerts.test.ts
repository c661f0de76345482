// Alerts: which events notify, their en-IN text, mute/pause/sticky, and the tray state.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type AlertRules, type OrderSnapshot } from '../../../src-main/contract/index.js';
import { alertBody, alertTitle, createAlerts, trayState } from '../../../src-main/core/alerts/index.js';

const order: OrderSnapshot = {
  orderid: '24112000000001',
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  product: 'MIS',
  pricetype: 'LIMIT',
  quantity: 1500,
  filledQuantity: 1500,
  price: 812.35,
  triggerPrice: 0,
  averagePrice: 812.35,
  status: 'complete',
  timestamp: '20-Nov-2026 10:00:00',
};

describe('alert text', () => {
  it('says side, quantity, symbol and price in en-IN format', () => {
    expect(alertTitle({ type: 'order.filled', order, lastFillQuantity: 1500 })).toBe(
      'BUY 1,500 SBIN @ ₹812.35 filled',
    );
    expect(
      alertTitle({
        type: 'order.partial',
        order: { ...order, filledQuantity: 500, status: 'open' },
        lastFillQuantity: 500,
      }),
    ).toBe('BUY 500 of 1,500 SBIN @ ₹812.35 partially filled');
    expect(
      alertTitle({
        type: 'order.filled',
        order: { ...order, quantity: 125000, averagePrice: 1234567.5 },
        lastFillQuantity: 1,
      }),
    ).toBe('BUY 1,25,000 SBIN @ ₹12,34,567.50 filled');
    expect(
      alertTitle({
        type: 'order.filled',
        order: { ...order, symbol: 'USDINR', exchange: 'CDS', averagePrice: 83.1225 },
        lastFillQuantity: 1,
      }),
    ).toBe('BUY 1,500 USDINR @ ₹83.1225 filled');
    // An average of fills is off the tick: shown at the segment's decimals (₹0.05 ticks: two).
    expect(
      alertTitle({
        type: 'order.partial',
        order: {
          ...order,
          pricetype: 'MARKET',
          price: 0,
          quantity: 50001,
          filledQuantity: 2331,
          averagePrice: 905.4501,
        },
        lastFillQuantity: 2331,
      }),
    ).toBe('BUY 2,331 of 50,001 SBIN @ ₹905.45 partially filled');
    const rejected = { ...order, pricetype: 'MARKET', price: 0, averagePrice: 0, status: 'rejected' };
    expect(alertTitle({ type: 'order.rejected', order: rejected, reason: 'RMS: margin' })).toBe(
      'BUY 1,500 SBIN rejected',
    );
    expect(alertBody({ type: 'order.rejected', order: rejected, reason: 'RMS: margin' })).toMatch(
      /^RMS: margin \(NSE · MARKET/,
    );
    expect(
      alertBody({ type: 'order.cancelled', order: { ...order, filledQuantity: 200, action: 'SELL' } }),
    ).toMatch(/^200 filled before the cancel/);
  });
});

function setup(over: Partial<AlertRules> = {}) {
  let toggles: AlertRules = { ...DEFAULT_SETTINGS.alerts, ...over };
  const shown: { kind: string; title: string; sticky?: boolean; orderid?: string }[] = [];
  const events: string[] = [];
  const raised: unknown[] = [];
  const alerts = createAlerts({
    notifier: { notify: (n) => shown.push(n) },
    clock: { now: () => 0, setTimer: () => () => undefined },
    emit: (name, payload) => {
      events.push(name);
      if (name === 'alerts.raised') raised.push(payload);
    },
    rules: () => toggles,
    setPaused: async (paused) => {
      toggles = { ...toggles, paused };
    },
  });
  return { alerts, shown, events, raised };
}

describe('createAlerts', () => {
  it('notifies per the rules, marks rejections sticky until dismissed', () => {
    const { alerts, shown } = setup({ cancellation: 'off' });
    alerts.handle({ type: 'order.filled', order, lastFillQuantity: 1500 });
    alerts.handle({ type: 'order.cancelled', order });
    const rejection = alerts.handle({
      type: 'order.rejected',
      order: { ...order, status: 'rejected' },
      reason: 'funds',
    });
    expect(shown.map((s) => s.kind)).toEqual(['fill', 'rejection']);
    expect(rejection?.sticky).toBe(true);
    expect(alerts.state().sticky).toHaveLength(1);
    expect(alerts.dismiss(rejection?.id ?? '').sticky).toEqual([]);
  });

  it('names the order in the notification (the shell replaces its partial toast, opens it on a click)', () => {
    const { alerts, shown } = setup();
    alerts.handle({ type: 'order.partial', order: { ...order, filledQuantity: 500 }, lastFillQuantity: 500 });
    alerts.handle({ type: 'order.filled', order, lastFillQuantity: 1000 });
    expect(shown.map((s) => [s.kind, s.orderid])).toEqual([
      ['partial', order.orderid],
      ['fill', order.orderid],
    ]);
  });

  it('mutes one order and pauses all', async () => {
    const { alerts, shown } = setup();
    alerts.mute(order.orderid, true);
    expect(alerts.handle({ type: 'order.filled', order, lastFillQuantity: 1 })).toBeNull();
    alerts.mute(order.orderid, false);
    expect(alerts.handle({ type: 'order.filled', order, lastFillQuantity: 1 })).not.toBeNull();
    expect((await alerts.pause(true)).paused).toBe(true);
    expect(alerts.handle({ type: 'order.rejected', order, reason: 'x' })).toBeNull();
    expect(shown).toHaveLength(1);
  });
});

describe('notification rules', () => {
  it('os goes to the system notifier and the desk; sound and in_app only to the desk, tagged; off nowhere', () => {
    const { alerts, shown, raised } = setup({
      fill: 'os',
      partial: 'sound',
      rejection: 'in_app',
      cancellation: 'off',
    });
    const partial = { ...order, filledQuantity: 500 };
    expect(alerts.handle({ type: 'order.partial', order: partial, lastFillQuantity: 500 })?.delivery).toBe(
      'sound',
    );
    expect(alerts.handle({ type: 'order.filled', order, lastFillQuantity: 1000 })?.delivery).toBe('os');
    expect(alerts.handle({ type: 'order.rejected', order, reason: 'funds' })?.delivery).toBe('in_app');
    expect(alerts.handle({ type: 'order.cancelled', order })).toBeNull();
    expect(shown.map((s) => s.kind)).toEqual(['fill']);
    expect(raised.map((a) => (a as { kind: string; delivery: string }).delivery)).toEqual([
      'sound',
      'os',
      'in_app',
    ]);
  });

  it('an unknown outcome: a toast by its rule, the system notification only under os, nothing while paused', async () => {
    const unknown = { operation: 'placeorder' as const, journalId: 'j1', message: 'timed out' };
    const os = setup();
    expect(os.alerts.unknown(unknown)).toBe('os');
    expect(os.shown).toEqual([
      expect.objectContaining({ kind: 'warning', title: 'Order placement: outcome unknown', sticky: true }),
    ]);
    await os.alerts.pause(true);
    expect(os.alerts.unknown(unknown)).toBeNull();
    expect(os.shown).toHaveLength(1);
    expect(os.raised).toHaveLength(1);
    for (const rule of ['sound', 'in_app', 'off'] as const) {
      const s = setup({ unknown: rule });
      expect(s.alerts.unknown(unknown)).toBe(rule === 'off' ? null : rule);
      expect(s.shown).toEqual([]);
      // The window's toast, marked so the Alerts list (which has its own entry) does not list it twice.
      expect(s.raised).toEqual(
        rule === 'off'
          ? []
          : [
              expect.objectContaining({
                id: 'unknown:j1',
                kind: 'warning',
                delivery: rule,
                about: 'unknown_outcome',
                sticky: false,
              }),
            ],
      );
    }
  });
});

describe('unsettled outcomes', () => {
  it('asks the trader to check the book: sticky, listed (not left to a reconciliation), under the unknown rule', async () => {
    const unsettled = {
      operation: 'placeorder' as const,
      journalId: 'j2',
      message: 'two orders could be it',
    };
    const os = setup();
    expect(os.alerts.unsettled(unsettled)).toBe('os');
    expect(os.shown).toEqual([
      expect.objectContaining({ title: 'Order placement: check the order book', sticky: true }),
    ]);
    expect(os.raised).toEqual([
      expect.objectContaining({
        id: 'unsettled:j2',
        kind: 'warning',
        sticky: true,
        body: 'two orders could be it',
      }),
    ]);
    expect(os.raised[0]).not.toHaveProperty('about');
    expect(os.alerts.state().sticky.map((a) => a.id)).toEqual(['unsettled:j2']);
    const quiet = setup({ unknown: 'in_app' });
    expect(quiet.alerts.unsettled(unsettled)).toBe('in_app');
    expect(quiet.shown).toEqual([]);
    await quiet.alerts.pause(true);
    expect(quiet.alerts.unsettled({ ...unsettled, journalId: 'j3' })).toBeNull();
    expect(setup({ unknown: 'off' }).alerts.unsettled(unsettled)).toBeNull();
  });
});

describe('trayState', () => {
  const base = {
    connection: 'connected' as const,
    mode: 'paper' as const,
    paused: false,
    stickyAlerts: 0,
    openOrders: 0,
    profileName: 'Paper',
    mtm: null,
  };
  it('shows the most urgent state', () => {
    expect(trayState(base)).toEqual({ state: 'idle', mode: 'paper', tooltip: 'OrderDesk · Paper' });
    expect(trayState({ ...base, openOrders: 2 }).tooltip).toBe('OrderDesk · Paper · 2 open orders');
    expect(trayState({ ...base, openOrders: 2, paused: true }).state).toBe('paused');
    expect(trayState({ ...base, openOrders: 2, stickyAlerts: 1 }).state).toBe('alert');
    expect(trayState({ ...base, stickyAlerts: 1, connection: 'disconnected' }).state).toBe('disconnected');
    expect(trayState({ ...base, stickyAlerts: 1, paused: true }).state).toBe('alert');
  });
  it('tells a key problem from a lost gateway', () => {
    expect(trayState({ ...base, connection: 'no_key' })).toEqual({
      state: 'key-problem',
      mode: 'paper',
      tooltip: 'OrderDesk · Paper · no API key set',
    });
    expect(trayState({ ...base, connection: 'unauthorised', stickyAlerts: 2 }).state).toBe('key-problem');
    expect(trayState({ ...base, connection: 'disconnected' }).state).toBe('disconnected');
  });
  it('carries the mode, so the tray draws live and paper apart', () => {
    expect(trayState({ ...base, mode: 'live' }).mode).toBe('live');
    expect(trayState({ ...base, mode: 'live', connection: 'no_key' }).mode).toBe('live');
  });
  it("names the profile and the day's MTM in en-IN rupees while connected", () => {
    expect(trayState({ ...base, mtm: -123456.5 }).tooltip).toBe('OrderDesk · Paper · MTM -₹1,23,456.50');
    expect(trayState({ ...base, profileName: 'Zerodha', mtm: 1200, openOrders: 1 }).tooltip).toBe(
      'OrderDesk · Zerodha · MTM ₹1,200.00 · 1 open order',
    );
    // A figure from before the gateway was lost is not shown as if current.
    expect(trayState({ ...base, mtm: 1200, connection: 'disconnected' }).tooltip).toBe(
      'OrderDesk · Paper · gateway unreachable',
    );
  });
});
