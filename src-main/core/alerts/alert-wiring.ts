// The active profile's order events raise alerts, and the tray follows the core's state: connection,
// gateway mode, alerts, open orders and positions. Events of a profile switched away from (the old
// watcher's last poll) raise none.
import type { EventBus } from '../router/event-bus.js';
import type { Session } from '../router/session.js';
import type { GatewayMode } from '../gateway-mode.js';
import type { TraySink } from '../ports.js';
import { totalMtm } from '../watcher/position-diff.js';
import type { Alerts } from './alerts.js';
import { trayState } from './tray-state.js';

/** Draws the tray from the active session (none yet: disconnected) and the alerts' state. */
export function trayUpdater(d: {
  tray: TraySink;
  alerts: Alerts;
  gatewayMode: Pick<GatewayMode, 'view'>;
  session: () => Session | undefined;
  /** The active profile's guard lock in words, while one holds (core/guard). */
  locked?: () => string | undefined;
}): () => void {
  return () => {
    const s = d.session();
    const a = d.alerts.state();
    d.tray.update(
      trayState({
        connection: s?.watcher.connection() ?? 'disconnected',
        paused: a.paused,
        stickyAlerts: a.sticky.length,
        openOrders: s?.watcher.openOrders() ?? 0,
        profileName: s?.profile.name ?? 'OrderDesk',
        mode: d.gatewayMode.view()?.mode ?? (s?.profile.kind === 'gateway' ? 'live' : 'paper'),
        mtm: s ? totalMtm(s.watcher.positions().map((p) => p.mtm)) : null,
        locked: d.locked?.(),
      }),
    );
  };
}

/** Subscribes alerts to the active profile's order events; returns the unsubscribers. */
export function wireAlerts(d: {
  bus: Pick<EventBus, 'on'>;
  alerts: Alerts;
  activeProfileId: () => string | undefined;
}): (() => void)[] {
  const { bus, alerts } = d;
  const active = (e: { profileId: string }) => e.profileId === d.activeProfileId();
  return [
    bus.on('orders.filled', (e) => {
      if (active(e))
        alerts.handle({ type: 'order.filled', order: e.order, lastFillQuantity: e.lastFillQuantity });
    }),
    bus.on('orders.partial', (e) => {
      if (active(e))
        alerts.handle({ type: 'order.partial', order: e.order, lastFillQuantity: e.lastFillQuantity });
    }),
    bus.on('orders.rejected', (e) => {
      if (active(e)) alerts.handle({ type: 'order.rejected', order: e.order, reason: e.reason });
    }),
    bus.on('orders.cancelled', (e) => {
      if (active(e)) alerts.handle({ type: 'order.cancelled', order: e.order });
    }),
    bus.on('orders.unknown', (e) => {
      if (active(e)) alerts.unknown(e);
    }),
  ];
}

/** Redraws the tray on every event that changes what it shows; returns the unsubscribers. */
export function wireTray(bus: Pick<EventBus, 'on'>, updateTray: () => void): (() => void)[] {
  return [
    bus.on('session.connection', updateTray),
    bus.on('session.gateway', updateTray),
    bus.on('alerts.state', updateTray),
    bus.on('books.orders', updateTray),
    bus.on('books.positions', updateTray),
    bus.on('guard.state', updateTray),
  ];
}
