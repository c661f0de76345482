// The tray, pure: which icon a tray state shows and the context menu built from a small model. The
// menu never acts on orders itself: "Cancel all" and "Close all" ask the window to confirm.
import type { MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { PositionsView, TrayStateEvent } from '../contract/index.js';
import { formatMoney } from '../shared/format.js';

/** One icon per look the tray can have (resources/tray/<icon>.png and <icon>@2x.png). */
export const TRAY_ICONS = ['live', 'paper', 'offline', 'key-problem', 'paused', 'alert', 'locked'] as const;
export type TrayIcon = (typeof TRAY_ICONS)[number];

export function trayIcon(s: Pick<TrayStateEvent, 'state' | 'mode'>): TrayIcon {
  switch (s.state) {
    case 'disconnected':
      return 'offline';
    case 'key-problem':
      return 'key-problem';
    case 'paused':
      return 'paused';
    case 'alert':
      return 'alert';
    // The account guard holds a lock: only exits go out (core/guard).
    case 'locked':
      return 'locked';
    case 'idle':
    case 'open-orders':
      // A sandbox (a gateway in analyze mode) is simulated money: drawn as paper, never as live.
      return s.mode === 'sandbox' ? 'paper' : s.mode;
  }
}

/** The 16 px file; Electron loads the @2x sibling itself on HiDPI displays. */
export function trayIconPath(resourcesDir: string, icon: TrayIcon): string {
  return join(resourcesDir, 'tray', `${icon}.png`);
}

export interface TrayMenuModel {
  profiles: readonly { id: string; name: string }[];
  activeProfileId: string;
  alertsPaused: boolean;
  /** The active profile's positions as last read, or null before the first read. */
  positions: PositionsView | null;
}

export interface TrayActions {
  showTicket(): void;
  showPositions(): void;
  setAlertsPaused(paused: boolean): void;
  switchProfile(id: string): void;
  /** Asks the window to confirm; never cancels by itself. */
  requestCancelAll(): void;
  /** Asks for a yes first (the window's dialog, or a native one with no page); never closes without it. */
  requestCloseAll(): void;
  quit(): void;
}

/** "Positions: 2 open · MTM ₹1,200.00", in en-IN rupees. */
export function positionsSummary(p: PositionsView | null): string {
  if (!p) return 'Positions…';
  const open = p.positions.filter((row) => row.quantity !== 0).length;
  if (open === 0) return 'Positions: none open';
  const mtm = p.totalMtm === null ? 'MTM —' : `MTM ${formatMoney(p.totalMtm)}`;
  return `Positions: ${open} open · ${mtm}`;
}

export function trayMenu(m: TrayMenuModel, a: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'show-ticket', label: 'Show ticket', click: () => a.showTicket() },
    { id: 'positions', label: positionsSummary(m.positions), click: () => a.showPositions() },
    { type: 'separator' },
    {
      id: 'pause-alerts',
      label: 'Pause alerts',
      type: 'checkbox',
      checked: m.alertsPaused,
      click: () => a.setAlertsPaused(!m.alertsPaused),
    },
    {
      id: 'switch-profile',
      label: 'Switch profile',
      submenu: m.profiles.map((p) => ({
        id: `profile:${p.id}`,
        label: p.name,
        type: 'radio' as const,
        checked: p.id === m.activeProfileId,
        // Choosing the active profile again is not a switch.
        click: () => {
          if (p.id !== m.activeProfileId) a.switchProfile(p.id);
        },
      })),
    },
    { type: 'separator' },
    { id: 'cancel-all', label: 'Cancel all orders…', click: () => a.requestCancelAll() },
    { id: 'close-all', label: 'Close all positions…', click: () => a.requestCloseAll() },
    { type: 'separator' },
    { id: 'quit', label: 'Quit OrderDesk', click: () => a.quit() },
  ];
}
