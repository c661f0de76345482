// Alerts as OS notifications: rejections critical and sticky, a fill replaces the same order's
// partial-fill toast, a click opens the window at the order.
import { describe, expect, it, vi } from 'vitest';
import {
  MAX_TRACKED,
  createDesktopNotifier,
  notificationOptions,
  type NotifyInput,
} from '../../../src-main/desktop/notifications.js';

describe('notificationOptions', () => {
  it('makes a rejection critical and keeps it until dismissed', () => {
    expect(
      notificationOptions({ kind: 'rejection', title: 'Rejected', body: 'SBIN: margin', sticky: true }),
    ).toMatchObject({ title: 'Rejected', body: 'SBIN: margin', urgency: 'critical', timeoutType: 'never' });
    // Even if the core forgot to say sticky.
    expect(notificationOptions({ kind: 'rejection', title: 'R', body: 'b' }).timeoutType).toBe('never');
  });

  it('shows fills and partials at normal urgency with the default timeout', () => {
    for (const kind of ['fill', 'partial', 'cancellation'] as const)
      expect(notificationOptions({ kind, title: 't', body: 'b' }), kind).toMatchObject({
        urgency: 'normal',
        timeoutType: 'default',
        silent: false,
      });
  });

  it('keeps info quiet and low, and honours sticky for other kinds', () => {
    expect(notificationOptions({ kind: 'info', title: 't', body: 'b' })).toMatchObject({
      urgency: 'low',
      silent: true,
    });
    expect(notificationOptions({ kind: 'warning', title: 't', body: 'b', sticky: true }).timeoutType).toBe(
      'never',
    );
    expect(notificationOptions({ kind: 'fill', title: 't', body: 'b' }, '/icon.png').icon).toBe('/icon.png');
  });
});

class FakeNotification {
  shown = false;
  closed = false;
  listeners = new Map<string, () => void>();
  constructor(readonly options: { title?: string; body?: string; urgency?: string }) {}
  show() {
    this.shown = true;
  }
  close() {
    this.closed = true;
    this.listeners.get('close')?.();
  }
  on(event: string, l: () => void) {
    this.listeners.set(event, l);
    return this;
  }
}

function setup(supported = true) {
  const created: FakeNotification[] = [];
  const onClick = vi.fn();
  const warn = vi.fn();
  const notifier = createDesktopNotifier({
    create: (o) => {
      const n = new FakeNotification(o);
      created.push(n);
      return n;
    },
    isSupported: () => supported,
    onClick,
    logger: { warn },
  });
  return { notifier, created, onClick, warn };
}

const alert = (
  kind: NotifyInput['kind'],
  orderid?: string,
  extra: Partial<NotifyInput> = {},
): NotifyInput => ({
  kind,
  title: `${kind} ${orderid ?? ''}`,
  body: 'b',
  id: `${orderid}:${kind}`,
  ...(orderid ? { orderid } : {}),
  ...extra,
});

describe('createDesktopNotifier', () => {
  it("replaces an order's partial-fill notification with its fill", () => {
    const { notifier, created } = setup();
    notifier.notify(alert('partial', 'A1'));
    notifier.notify(alert('partial', 'A1'));
    notifier.notify(alert('fill', 'A1'));
    expect(created.map((n) => [n.options.title, n.shown, n.closed])).toEqual([
      ['partial A1', true, true],
      ['partial A1', true, true],
      ['fill A1', true, false],
    ]);
  });

  it("never closes another order's notification, nor a rejection", () => {
    const { notifier, created } = setup();
    notifier.notify(alert('partial', 'A1'));
    notifier.notify(alert('fill', 'B2'));
    notifier.notify(alert('rejection', 'C3', { sticky: true }));
    notifier.notify(alert('cancellation', 'C3'));
    expect(created.map((n) => n.closed)).toEqual([false, false, false, false]);
    expect(created[2]?.options.urgency).toBe('critical');
  });

  it('a click opens the window at the order', () => {
    const { notifier, created, onClick } = setup();
    notifier.notify(alert('fill', 'A1'));
    notifier.notify(alert('info'));
    created[0]?.listeners.get('click')?.();
    created[1]?.listeners.get('click')?.();
    expect(onClick.mock.calls).toEqual([['A1'], [undefined]]);
  });

  it('says once that there is no notification service, and shows nothing', () => {
    const { notifier, created, warn } = setup(false);
    notifier.notify(alert('fill', 'A1'));
    notifier.notify(alert('fill', 'A2'));
    expect(created).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('survives a notification that cannot be shown', () => {
    const warn = vi.fn();
    const notifier = createDesktopNotifier({
      create: () => {
        throw new Error('dbus gone');
      },
      isSupported: () => true,
      onClick: vi.fn(),
      logger: { warn },
    });
    expect(() => notifier.notify(alert('fill', 'A1'))).not.toThrow();
    expect(warn).toHaveBeenCalledWith('OS notification failed', { kind: 'fill', error: 'dbus gone' });
  });

  it('tracks a bounded number of orders, and a closed one is forgotten', () => {
    const { notifier, created } = setup();
    for (let i = 0; i < MAX_TRACKED + 5; i++) notifier.notify(alert('partial', `O${i}`));
    // The first orders are no longer tracked: their fill does not close the old partial.
    notifier.notify(alert('fill', 'O0'));
    expect(created[0]?.closed).toBe(false);
    // A recent one still is.
    notifier.notify(alert('fill', `O${MAX_TRACKED + 4}`));
    expect(created[MAX_TRACKED + 4]?.closed).toBe(true);
    // Dismissed by the user: a later fill has nothing to close.
    const last = created.length;
    notifier.notify(alert('partial', 'Z'));
    created[last]?.listeners.get('close')?.();
    created[last]!.closed = false;
    notifier.notify(alert('fill', 'Z'));
    expect(created[last]?.closed).toBe(false);
  });
});
