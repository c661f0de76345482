// Which order events become notifications, and the alert state (muted orders, sticky rejections).
// The core decides; the Notifier port only displays. The rule per event (OS notification, sound,
// in-app only, off) and pause come from settings.
import type {
  AlertEvent,
  AlertRules,
  AlertsState,
  EventPayload,
  NotifyChoice,
} from '../../contract/index.js';
import { UNKNOWN_OPERATION_TITLES } from '../../shared/operation-titles.js';
import type { Clock, Notifier } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import { alertBody, alertTitle, type AlertableEvent } from './alert-text.js';
import { createNotifyGroups, type SendGroup } from './notify-groups.js';

export interface AlertsOptions {
  notifier: Notifier;
  /** Timers hold a split's or basket's OS notification for its group (notify-groups.ts). */
  clock: Pick<Clock, 'now' | 'setTimer'>;
  emit: Emit;
  /** Read per event, so a settings change applies at once. */
  rules: () => AlertRules;
  /** Persists "pause all" (settings.alerts.paused). */
  setPaused: (paused: boolean) => Promise<void>;
}

export interface Alerts {
  /** Turns an order event into an alert when its rule allows; returns it (or null). */
  handle(event: AlertableEvent): AlertEvent | null;
  /** A split or basket is about to be sent: its orders' OS notifications become one. */
  sendGroup(title: string): SendGroup;
  /**
   * An order action whose outcome is not known: a toast in the window (with a chime under `sound`) and
   * a system notification under `os`; the Alerts list holds every unknown outcome anyway until it is
   * settled. Returns the rule applied, or null when paused, off or muted.
   */
  unknown(event: UnknownOutcome): AlertRules['unknown'] | null;
  /**
   * An unknown outcome OrderDesk cannot settle from the book (it stays unresolved in the journal):
   * sticky, under the unknown-outcome rule, until the trader has looked and dismissed it.
   */
  unsettled(event: UnknownOutcome): AlertRules['unknown'] | null;
  /**
   * An alert of the core's own (the account guard's warnings and locks) under the rule given; an
   * `urgent` one goes out even when alerts are paused or the rule is off (as a system notification).
   * Returns it, or null when nothing was raised.
   */
  notice(n: Notice, rule: NotifyChoice, urgent?: boolean): AlertEvent | null;
  mute(orderid: string, muted: boolean): AlertsState;
  pause(paused: boolean): Promise<AlertsState>;
  dismiss(id: string): AlertsState;
  state(): AlertsState;
}

const TOGGLE = {
  'order.filled': 'fill',
  'order.partial': 'partial',
  'order.rejected': 'rejection',
  'order.cancelled': 'cancellation',
} as const satisfies Record<AlertableEvent['type'], keyof AlertRules>;

export interface Notice {
  id: string;
  kind: 'info' | 'warning';
  title: string;
  body: string;
  sticky: boolean;
}

export type UnknownOutcome = Pick<
  EventPayload<'orders.unknown'>,
  'operation' | 'journalId' | 'orderid' | 'message'
>;

const UNKNOWN_TITLE: Readonly<Record<UnknownOutcome['operation'], string>> = UNKNOWN_OPERATION_TITLES;

export function createAlerts(o: AlertsOptions): Alerts {
  const muted = new Set<string>();
  const sticky = new Map<string, AlertEvent>();
  const groups = createNotifyGroups(o);

  const state = (): AlertsState => ({
    paused: o.rules().paused,
    muted: [...muted].sort(),
    sticky: [...sticky.values()],
  });
  const changed = (): AlertsState => {
    const s = state();
    o.emit('alerts.state', s);
    return s;
  };
  /**
   * An order action's outcome in doubt, as a system notification: outside the window nothing else
   * will say it, so it stays until dismissed.
   */
  const notifyOutcome = (alert: AlertEvent): void =>
    o.notifier.notify({
      kind: 'warning',
      title: alert.title,
      body: alert.body,
      id: alert.id,
      ...(alert.orderid !== undefined ? { orderid: alert.orderid } : {}),
      sticky: true,
    });

  return {
    handle(event) {
      const rules = o.rules();
      const kind = TOGGLE[event.type];
      const rule = rules[kind];
      if (rules.paused || rule === 'off' || muted.has(event.order.orderid)) return null;
      const alert: AlertEvent = {
        // Deterministic: the same order state can never make two different alerts.
        id: `${event.order.orderid}:${kind}:${event.order.filledQuantity}`,
        time: o.clock.now(),
        kind,
        title: alertTitle(event),
        body: alertBody(event),
        sticky: kind === 'rejection',
        orderid: event.order.orderid,
        delivery: rule,
      };
      const shown = {
        kind: alert.kind,
        title: alert.title,
        body: alert.body,
        id: alert.id,
        orderid: event.order.orderid,
        sticky: alert.sticky,
      };
      // Only `os` leaves the window; `sound` and `in_app` are the desk's toast (with or without a chime).
      if (rule === 'os') groups.notify({ orderid: event.order.orderid, order: event.order, kind, shown });
      o.emit('alerts.raised', alert);
      if (alert.sticky) {
        sticky.set(alert.id, alert);
        changed();
      }
      return alert;
    },
    sendGroup: (title) => groups.begin(title),
    unknown(event) {
      const rules = o.rules();
      const rule = rules.unknown;
      if (rules.paused || rule === 'off') return null;
      if (event.orderid !== undefined && muted.has(event.orderid)) return null;
      const alert: AlertEvent = {
        id: `unknown:${event.journalId}`,
        time: o.clock.now(),
        kind: 'warning',
        title: `${UNKNOWN_TITLE[event.operation]}: outcome unknown`,
        body: `${event.message} · OrderDesk is checking the order book`,
        // The Alerts list keeps it until the core settles it; the toast need not stay.
        sticky: false,
        ...(event.orderid !== undefined ? { orderid: event.orderid } : {}),
        delivery: rule,
        about: 'unknown_outcome',
      };
      if (rule === 'os') notifyOutcome(alert);
      o.emit('alerts.raised', alert);
      return rule;
    },
    unsettled(event) {
      const rules = o.rules();
      const rule = rules.unknown;
      if (rules.paused || rule === 'off') return null;
      const alert: AlertEvent = {
        id: `unsettled:${event.journalId}`,
        time: o.clock.now(),
        kind: 'warning',
        title: `${UNKNOWN_TITLE[event.operation]}: check the order book`,
        body: event.message,
        sticky: true,
        ...(event.orderid !== undefined ? { orderid: event.orderid } : {}),
        // Not `about: unknown_outcome`: no orders.reconciled will settle it, so the Alerts list keeps this one.
        delivery: rule,
      };
      if (rule === 'os') notifyOutcome(alert);
      o.emit('alerts.raised', alert);
      sticky.set(alert.id, alert);
      changed();
      return rule;
    },
    notice(n, asked, urgent) {
      const rule = urgent ? 'os' : asked;
      if (!urgent && (o.rules().paused || rule === 'off')) return null;
      if (rule === 'off') return null;
      const alert: AlertEvent = { ...n, time: o.clock.now(), delivery: rule };
      if (rule === 'os')
        o.notifier.notify({ kind: n.kind, title: n.title, body: n.body, id: n.id, sticky: n.sticky });
      o.emit('alerts.raised', alert);
      if (alert.sticky) {
        sticky.set(alert.id, alert);
        changed();
      }
      return alert;
    },
    mute(orderid, on) {
      if (on) muted.add(orderid);
      else muted.delete(orderid);
      return changed();
    },
    async pause(paused) {
      await o.setPaused(paused);
      return changed();
    },
    dismiss(id) {
      sticky.delete(id);
      return changed();
    },
    state,
  };
}
