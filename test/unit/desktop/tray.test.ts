// The tray adapter: icon and tooltip from the core's state, the menu from the core's events.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { PositionsView, ProfilesList } from '../../../src-main/contract/index.js';
import { createEventBus } from '../../../src-main/core/router/index.js';
import { createTrayController, feedTray } from '../../../src-main/desktop/tray.js';
import type { TrayMenuModel } from '../../../src-main/desktop/tray-model.js';

function fakeTray() {
  const calls: string[] = [];
  const listeners = new Map<string, () => void>();
  let menu: unknown;
  return {
    calls,
    listeners,
    menu: () => menu as { id?: string; label?: string }[],
    tray: {
      setImage: (p: string) => calls.push(`image ${p}`),
      setToolTip: (t: string) => calls.push(`tooltip ${t}`),
      setContextMenu: (m: unknown) => (menu = m),
      on: (e: string, l: () => void) => listeners.set(e, l),
    },
  };
}

const actions = {
  showTicket: vi.fn(),
  showPositions: vi.fn(),
  setAlertsPaused: vi.fn(),
  switchProfile: vi.fn(),
  requestCancelAll: vi.fn(),
  requestCloseAll: vi.fn(),
  quit: vi.fn(),
};

function controller() {
  const f = fakeTray();
  const forwarded: unknown[] = [];
  const c = createTrayController({
    tray: f.tray as never,
    buildMenu: (template) => template as never,
    resourcesDir: '/res',
    actions,
    forward: (s) => forwarded.push(s),
    logger: { warn: vi.fn() },
  });
  return { c, f, forwarded };
}

describe('createTrayController', () => {
  it("draws the state's icon (only when it changes) and tooltip, and forwards the state to the window", () => {
    const { c, f, forwarded } = controller();
    c.update({ state: 'idle', mode: 'live', tooltip: 'OrderDesk · Zerodha · MTM ₹1,200.00' });
    c.update({ state: 'open-orders', mode: 'live', tooltip: 'OrderDesk · Zerodha · 1 open order' });
    c.update({ state: 'key-problem', mode: 'live', tooltip: 'OrderDesk · Zerodha · no API key set' });
    c.update({ state: 'locked', mode: 'live', tooltip: 'OrderDesk · Zerodha · locked until 09:15' });
    expect(f.calls).toEqual([
      `image ${join('/res', 'tray', 'live.png')}`,
      'tooltip OrderDesk · Zerodha · MTM ₹1,200.00',
      'tooltip OrderDesk · Zerodha · 1 open order',
      `image ${join('/res', 'tray', 'key-problem.png')}`,
      'tooltip OrderDesk · Zerodha · no API key set',
      `image ${join('/res', 'tray', 'locked.png')}`,
      'tooltip OrderDesk · Zerodha · locked until 09:15',
    ]);
    expect(forwarded).toHaveLength(4);
  });

  it('a click on the icon brings the ticket forward; the menu follows the model', () => {
    const { c, f } = controller();
    f.listeners.get('click')?.();
    expect(actions.showTicket).toHaveBeenCalled();
    c.setModel({ positions: { positions: [], totalMtm: 0 } });
    expect(f.menu().find((m) => m.id === 'positions')?.label).toBe('Positions: none open');
  });
});

const list = (active: string): ProfilesList =>
  ({
    activeProfileId: active,
    profiles: [
      { id: 'paper', name: 'Paper (simulated)' },
      { id: 'z', name: 'Zerodha' },
    ],
  }) as ProfilesList;

const positions = (mtm: number): PositionsView => ({
  positions: [{ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 1, averagePrice: 1, ltp: 2, mtm }],
  totalMtm: mtm,
});

describe('feedTray', () => {
  it("shows the active profile's positions only, and pause state, from the core's events", async () => {
    const bus = createEventBus();
    let model: Partial<TrayMenuModel> = {};
    const tray = { setModel: (c: Partial<TrayMenuModel>) => (model = { ...model, ...c }) };
    let active = 'paper';
    const feed = feedTray(
      tray,
      { events: bus, invoke: async () => ({ ok: true, value: list(active) }) },
      { warn: vi.fn() },
    );
    await feed.refreshProfiles();
    expect(model.activeProfileId).toBe('paper');
    bus.emit('books.positions', { profileId: 'paper', view: positions(5) });
    expect(model.positions?.totalMtm).toBe(5);
    // A late poll of another profile does not show under this one.
    bus.emit('books.positions', { profileId: 'z', view: positions(9) });
    expect(model.positions?.totalMtm).toBe(5);
    bus.emit('alerts.state', { paused: true, muted: [], sticky: [] });
    expect(model.alertsPaused).toBe(true);
    // A switch clears the old profile's positions and re-reads the list.
    active = 'z';
    bus.emit('profiles.switched', { profileId: 'z' });
    await vi.waitFor(() => expect(model.activeProfileId).toBe('z'));
    expect(model.positions).toBeNull();
    feed.dispose();
    bus.emit('alerts.state', { paused: false, muted: [], sticky: [] });
    expect(model.alertsPaused).toBe(true);
  });

  it('a refused profile list is logged', async () => {
    const warn = vi.fn();
    const feed = feedTray(
      { setModel: vi.fn() },
      {
        events: createEventBus(),
        invoke: async () => ({ ok: false, error: { kind: 'internal', message: 'x' } }),
      },
      { warn },
    );
    await feed.refreshProfiles();
    expect(warn).toHaveBeenCalledWith('tray: profiles not listed', { kind: 'internal', message: 'x' });
  });
});
