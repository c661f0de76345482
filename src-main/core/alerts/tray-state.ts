// The tray icon's state from the core's state, pure. Most urgent first: a lost gateway or a key problem
// beats the account guard's lock, which beats an undismissed rejection, which beats paused alerts,
// which beat open orders. The tooltip names the profile and, while connected, the day's MTM (stale
// figures are not shown when disconnected).
import type { ConnectionState, SessionMode, TrayStateEvent } from '../../contract/index.js';
import { formatMoney } from '../../shared/format.js';

export interface TrayInputs {
  connection: ConnectionState;
  /** Paper (simulated) or live money: the tray draws them differently. */
  mode: SessionMode;
  paused: boolean;
  stickyAlerts: number;
  openOrders: number;
  profileName: string;
  /** Sum of the open positions' MTM in rupees; null while unknown (no positions read, no price). */
  mtm: number | null;
  /** The account guard's lock in words ("locked until 09:15 IST Mon"), while one holds. */
  locked?: string | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function trayState(s: TrayInputs): TrayStateEvent {
  const name = `OrderDesk · ${s.profileName}`;
  const connected = (state: TrayStateEvent['state'], status?: string): TrayStateEvent => {
    const parts = [
      name,
      ...(s.mtm !== null ? [`MTM ${formatMoney(s.mtm)}`] : []),
      ...(status ? [status] : []),
    ];
    return { state, mode: s.mode, tooltip: parts.join(' · ') };
  };
  const offline = (state: TrayStateEvent['state'], status: string): TrayStateEvent => ({
    state,
    mode: s.mode,
    tooltip: `${name} · ${status}`,
  });
  if (s.connection === 'no_key') return offline('key-problem', 'no API key set');
  if (s.connection === 'unauthorised') return offline('key-problem', 'key invalid or broker session expired');
  if (s.connection === 'disconnected') return offline('disconnected', 'gateway unreachable');
  // A lock is what the trader most needs to know while connected: only exits go out.
  if (s.locked) return connected('locked', s.locked);
  if (s.stickyAlerts > 0) return connected('alert', `${plural(s.stickyAlerts, 'alert')} to read`);
  if (s.paused) return connected('paused', 'alerts paused');
  if (s.openOrders > 0) return connected('open-orders', plural(s.openOrders, 'open order'));
  return connected('idle');
}
