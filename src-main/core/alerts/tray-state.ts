// The tray icon's state from the core's state, pure. Most urgent first: a lost gateway beats an
// undismissed rejection, which beats open orders.
import type { TrayState } from '../ports.js';

export interface TrayInputs {
  connection: 'connected' | 'disconnected' | 'no_key' | 'unauthorised';
  paused: boolean;
  stickyAlerts: number;
  openOrders: number;
  profileName: string;
}

export function trayState(s: TrayInputs): { state: TrayState; tooltip: string } {
  const prefix = `OrderDesk · ${s.profileName}`;
  if (s.connection === 'no_key') return { state: 'disconnected', tooltip: `${prefix}: no API key set` };
  if (s.connection === 'unauthorised')
    return { state: 'disconnected', tooltip: `${prefix}: key invalid or broker session expired` };
  if (s.connection === 'disconnected')
    return { state: 'disconnected', tooltip: `${prefix}: gateway unreachable` };
  if (s.stickyAlerts > 0)
    return {
      state: 'alert',
      tooltip: `${prefix}: ${s.stickyAlerts} alert${s.stickyAlerts === 1 ? '' : 's'} to read`,
    };
  if (s.paused) return { state: 'paused', tooltip: `${prefix}: alerts paused` };
  if (s.openOrders > 0)
    return {
      state: 'open-orders',
      tooltip: `${prefix}: ${s.openOrders} open order${s.openOrders === 1 ? '' : 's'}`,
    };
  return { state: 'idle', tooltip: prefix };
}
