// Which order events become notifications, and the alert state (muted orders, sticky rejections).
// The core decides; the Notifier port only displays. Toggles and pause come from settings.
import type { AlertEvent, AlertToggles, AlertsState } from '../../contract/index.js';
import type { Clock, Notifier } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import { alertBody, alertTitle, type AlertableEvent } from './alert-text.js';

export interface AlertsOptions {
  notifier: Notifier;
  clock: Pick<Clock, 'now'>;
  emit: Emit;
  /** Read per event, so a settings change applies at once. */
  toggles: () => AlertToggles;
  /** Persists "pause all" (settings.alerts.paused). */
  setPaused: (paused: boolean) => Promise<void>;
}

export interface Alerts {
  /** Turns an order event into a notification when the toggles allow; returns it (or null). */
  handle(event: AlertableEvent): AlertEvent | null;
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
} as const satisfies Record<AlertableEvent['type'], keyof AlertToggles>;

export function createAlerts(o: AlertsOptions): Alerts {
  const muted = new Set<string>();
  const sticky = new Map<string, AlertEvent>();

  const state = (): AlertsState => ({
    paused: o.toggles().paused,
    muted: [...muted].sort(),
    sticky: [...sticky.values()],
  });
  const changed = (): AlertsState => {
    const s = state();
    o.emit('alerts.state', s);
    return s;
  };

  return {
    handle(event) {
      const toggles = o.toggles();
      const kind = TOGGLE[event.type];
      if (toggles.paused || !toggles[kind] || muted.has(event.order.orderid)) return null;
      const alert: AlertEvent = {
        // Deterministic: the same order state can never make two different alerts.
        id: `${event.order.orderid}:${kind}:${event.order.filledQuantity}`,
        time: o.clock.now(),
        kind,
        title: alertTitle(event),
        body: alertBody(event),
        sticky: kind === 'rejection',
        orderid: event.order.orderid,
      };
      // `id` lets a desktop adapter replace a partial-fill toast; `sticky` keeps a rejection up.
      const shown = {
        kind: alert.kind,
        title: alert.title,
        body: alert.body,
        id: alert.id,
        orderid: event.order.orderid,
        sticky: alert.sticky,
      };
      o.notifier.notify(shown);
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
