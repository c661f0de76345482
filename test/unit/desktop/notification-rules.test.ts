// Notification rules end to end in main: the core's alert routing decides, the desktop notifier shows
// an OS notification only for events whose rule is `os` (sound and in-app only stay in the window).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type AlertRules, type OrderSnapshot } from '../../../src-main/contract/index.js';
import { createAlerts } from '../../../src-main/core/alerts/index.js';
import { createDesktopNotifier, type ShownNotification } from '../../../src-main/desktop/notifications.js';

const order: OrderSnapshot = {
  orderid: '24112000000007',
  symbol: 'INFY',
  exchange: 'NSE',
  action: 'SELL',
  product: 'MIS',
  pricetype: 'LIMIT',
  quantity: 10,
  filledQuantity: 10,
  price: 1500.05,
  triggerPrice: 0,
  averagePrice: 1500.05,
  status: 'complete',
  timestamp: '20-Nov-2026 10:00:00',
};

function desk(rules: Partial<AlertRules>) {
  const created: { title?: string; timeoutType?: string; urgency?: string }[] = [];
  const notifier = createDesktopNotifier({
    create: (options): ShownNotification => {
      created.push(options);
      return { show: () => undefined, close: () => undefined, on: () => undefined };
    },
    isSupported: () => true,
    onClick: () => undefined,
    logger: { warn: () => undefined },
  });
  const raised: string[] = [];
  const alerts = createAlerts({
    notifier,
    clock: { now: () => 0, setTimer: () => () => undefined },
    emit: (name) => raised.push(name),
    rules: () => ({ ...DEFAULT_SETTINGS.alerts, ...rules }),
    setPaused: async () => undefined,
  });
  return { alerts, created, raised };
}

describe('notification rules → OS notifications', () => {
  it('shows a fill as an OS notification under os, and not under sound, in_app or off', () => {
    for (const [rule, shown] of [
      ['os', 1],
      ['sound', 0],
      ['in_app', 0],
      ['off', 0],
    ] as const) {
      const d = desk({ fill: rule });
      d.alerts.handle({ type: 'order.filled', order, lastFillQuantity: 10 });
      expect(d.created, rule).toHaveLength(shown);
      // The window hears of it unless the rule is off.
      expect(
        d.raised.filter((n) => n === 'alerts.raised'),
        rule,
      ).toHaveLength(rule === 'off' ? 0 : 1);
    }
  });

  it('an unknown outcome under os is an OS notification that stays until dismissed', () => {
    const d = desk({ unknown: 'os' });
    d.alerts.unknown({
      operation: 'cancelorder',
      journalId: 'j9',
      orderid: order.orderid,
      message: 'timed out',
    });
    expect(d.created).toEqual([
      expect.objectContaining({ title: 'Order cancellation: outcome unknown', timeoutType: 'never' }),
    ]);
    const quiet = desk({ unknown: 'in_app' });
    quiet.alerts.unknown({ operation: 'placeorder', journalId: 'j10', message: 'timed out' });
    expect(quiet.created).toEqual([]);
  });
});
