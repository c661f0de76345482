// The tray's icon per state and its menu; the menu never cancels or closes anything itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { TRAY_STATES, type PositionsView } from '../../../src-main/contract/index.js';
import {
  TRAY_ICONS,
  positionsSummary,
  trayIcon,
  trayIconPath,
  trayMenu,
  type TrayActions,
  type TrayMenuModel,
} from '../../../src-main/desktop/tray-model.js';

const RESOURCES = join(import.meta.dirname, '../../../resources');

describe('trayIcon', () => {
  it('draws connected states by mode, and the rest by what is wrong', () => {
    expect(trayIcon({ state: 'idle', mode: 'live' })).toBe('live');
    expect(trayIcon({ state: 'open-orders', mode: 'live' })).toBe('live');
    expect(trayIcon({ state: 'idle', mode: 'paper' })).toBe('paper');
    expect(trayIcon({ state: 'open-orders', mode: 'paper' })).toBe('paper');
    expect(trayIcon({ state: 'disconnected', mode: 'live' })).toBe('offline');
    expect(trayIcon({ state: 'key-problem', mode: 'paper' })).toBe('key-problem');
    expect(trayIcon({ state: 'paused', mode: 'live' })).toBe('paused');
    expect(trayIcon({ state: 'alert', mode: 'paper' })).toBe('alert');
    expect(trayIcon({ state: 'locked', mode: 'live' })).toBe('locked');
    expect(trayIcon({ state: 'locked', mode: 'paper' })).toBe('locked');
  });

  it('has a drawn icon for every state, at 16 and 32 px, each different', () => {
    const seen = new Set<string>();
    for (const state of TRAY_STATES)
      for (const mode of ['paper', 'live'] as const) seen.add(trayIcon({ state, mode }));
    expect([...seen].sort()).toEqual([...TRAY_ICONS].sort());
    const images = new Set<string>();
    for (const icon of TRAY_ICONS) {
      const small = readFileSync(trayIconPath(RESOURCES, icon));
      const large = readFileSync(trayIconPath(RESOURCES, icon).replace(/\.png$/, '@2x.png'));
      // PNG signature, then IHDR width and height.
      expect(small.subarray(1, 4).toString('ascii'), icon).toBe('PNG');
      expect([small.readUInt32BE(16), small.readUInt32BE(20)], icon).toEqual([16, 16]);
      expect([large.readUInt32BE(16), large.readUInt32BE(20)], icon).toEqual([32, 32]);
      images.add(small.toString('base64'));
    }
    expect(images.size).toBe(TRAY_ICONS.length);
  });
});

function actions() {
  return {
    showTicket: vi.fn<() => void>(),
    showPositions: vi.fn<() => void>(),
    setAlertsPaused: vi.fn<(paused: boolean) => void>(),
    switchProfile: vi.fn<(id: string) => void>(),
    requestCancelAll: vi.fn<() => void>(),
    requestCloseAll: vi.fn<() => void>(),
    quit: vi.fn<() => void>(),
  } satisfies TrayActions;
}

const model: TrayMenuModel = {
  profiles: [
    { id: 'paper', name: 'Paper (simulated)' },
    { id: 'zerodha', name: 'Zerodha' },
  ],
  activeProfileId: 'paper',
  alertsPaused: false,
  positions: null,
};

function item(menu: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions {
  for (const m of menu) {
    if (m.id === id) return m;
    if (Array.isArray(m.submenu)) {
      const found = m.submenu.find((s) => s.id === id);
      if (found) return found;
    }
  }
  throw new Error(`no menu item ${id}`);
}
const click = (m: MenuItemConstructorOptions) => (m.click as () => void)();

describe('trayMenu', () => {
  it('has the ticket, positions, pause, profiles, cancel-all, close-all and quit, in that order', () => {
    const menu = trayMenu(model, actions());
    expect(menu.filter((m) => m.type !== 'separator').map((m) => m.id)).toEqual([
      'show-ticket',
      'positions',
      'pause-alerts',
      'switch-profile',
      'cancel-all',
      'close-all',
      'quit',
    ]);
  });

  it('cancel all and close all only ask for confirmation', () => {
    const a = actions();
    const menu = trayMenu(model, a);
    click(item(menu, 'cancel-all'));
    click(item(menu, 'close-all'));
    expect(a.requestCancelAll).toHaveBeenCalledTimes(1);
    expect(a.requestCloseAll).toHaveBeenCalledTimes(1);
    expect(item(menu, 'cancel-all').label).toBe('Cancel all orders…');
    expect(item(menu, 'close-all').label).toBe('Close all positions…');
  });

  it('pause alerts is a checkbox that toggles', () => {
    const a = actions();
    const off = trayMenu(model, a);
    expect(item(off, 'pause-alerts')).toMatchObject({ type: 'checkbox', checked: false });
    click(item(off, 'pause-alerts'));
    const on = trayMenu({ ...model, alertsPaused: true }, a);
    expect(item(on, 'pause-alerts').checked).toBe(true);
    click(item(on, 'pause-alerts'));
    expect(a.setAlertsPaused.mock.calls).toEqual([[true], [false]]);
  });

  it('lists the profiles as radio items and switches only to another one', () => {
    const a = actions();
    const menu = trayMenu(model, a);
    expect(item(menu, 'profile:paper')).toMatchObject({
      type: 'radio',
      checked: true,
      label: 'Paper (simulated)',
    });
    expect(item(menu, 'profile:zerodha')).toMatchObject({ type: 'radio', checked: false, label: 'Zerodha' });
    click(item(menu, 'profile:paper'));
    click(item(menu, 'profile:zerodha'));
    expect(a.switchProfile.mock.calls).toEqual([['zerodha']]);
  });

  it('show ticket, positions and quit call their actions', () => {
    const a = actions();
    const menu = trayMenu(model, a);
    click(item(menu, 'show-ticket'));
    click(item(menu, 'positions'));
    click(item(menu, 'quit'));
    expect([a.showTicket, a.showPositions, a.quit].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
  });
});

const row = (quantity: number, mtm: number | null) => ({
  symbol: 'SBIN',
  exchange: 'NSE',
  product: 'MIS',
  quantity,
  averagePrice: 800,
  ltp: 810,
  mtm,
});

describe('positionsSummary', () => {
  it('counts open positions and shows the MTM in en-IN rupees', () => {
    const p: PositionsView = {
      positions: [row(10, 1200), row(0, 0), row(-5, -123456.5)],
      totalMtm: -122256.5,
    };
    expect(positionsSummary(p)).toBe('Positions: 2 open · MTM -₹1,22,256.50');
    expect(positionsSummary({ positions: [row(1, null)], totalMtm: null })).toBe('Positions: 1 open · MTM —');
    expect(positionsSummary({ positions: [row(0, 0)], totalMtm: 0 })).toBe('Positions: none open');
    expect(positionsSummary(null)).toBe('Positions…');
  });
});
