// The tray adapter: the core's TraySink draws the state's icon and tooltip (and forwards the state to
// the window's status bar); the menu is rebuilt from the model when alerts, positions or profiles change.
import type { Menu, MenuItemConstructorOptions, Tray } from 'electron';
import { errorMessage, type IpcResult, type ProfilesList, type TrayStateEvent } from '../contract/index.js';
import type { EventBus, Logger } from '../core/index.js';
import { trayIcon, trayIconPath, trayMenu, type TrayActions, type TrayMenuModel } from './tray-model.js';

export interface TrayControllerOptions {
  tray: Pick<Tray, 'setImage' | 'setToolTip' | 'setContextMenu' | 'on'>;
  buildMenu(template: MenuItemConstructorOptions[]): Menu;
  resourcesDir: string;
  actions: TrayActions;
  /** The state also goes to the window (its status bar shows what the tray shows). */
  forward(s: TrayStateEvent): void;
  logger: Pick<Logger, 'warn'>;
}

export interface TrayController {
  /** The core's TraySink. */
  update(s: TrayStateEvent): void;
  setModel(change: Partial<TrayMenuModel>): void;
}

export function createTrayController(o: TrayControllerOptions): TrayController {
  let model: TrayMenuModel = { profiles: [], activeProfileId: '', alertsPaused: false, positions: null };
  let icon: string | undefined;
  const render = () => o.tray.setContextMenu(o.buildMenu(trayMenu(model, o.actions)));
  // Linux (AppIndicator) shows only the menu; elsewhere a click on the icon brings the ticket forward.
  o.tray.on('click', () => o.actions.showTicket());
  render();
  return {
    update(s) {
      try {
        const next = trayIconPath(o.resourcesDir, trayIcon(s));
        if (next !== icon) o.tray.setImage(next);
        icon = next;
        o.tray.setToolTip(s.tooltip);
      } catch (err) {
        o.logger.warn('tray not updated', { error: errorMessage(err) });
      }
      o.forward(s);
    },
    setModel(change) {
      model = { ...model, ...change };
      render();
    },
  };
}

/** What feeds the menu model: the core's events and the profile list. */
export interface TrayFeedSource {
  events: Pick<EventBus, 'on'>;
  invoke(channel: 'profiles.list', input?: unknown): Promise<IpcResult<unknown>>;
}

export function profilesModel(list: ProfilesList): Pick<TrayMenuModel, 'profiles' | 'activeProfileId'> {
  return {
    profiles: list.profiles.map((p) => ({ id: p.id, name: p.name })),
    activeProfileId: list.activeProfileId,
  };
}

export interface TrayFeed {
  /** Re-reads the profile list (at start, and after a profile is added, renamed or removed). */
  refreshProfiles(): Promise<void>;
  /** A profile list the window's call just answered. */
  setProfiles(list: ProfilesList): void;
  dispose(): void;
}

/** Keeps the tray model in step with the core: pause state, the active profile's positions, profiles. */
export function feedTray(
  tray: Pick<TrayController, 'setModel'>,
  core: TrayFeedSource,
  logger: Pick<Logger, 'warn'>,
): TrayFeed {
  let active: string | undefined;
  const setProfiles = (list: ProfilesList) => {
    if (list.activeProfileId !== active) tray.setModel({ positions: null });
    active = list.activeProfileId;
    tray.setModel(profilesModel(list));
  };
  async function refreshProfiles(): Promise<void> {
    const r = await core.invoke('profiles.list');
    if (r.ok) setProfiles(r.value as ProfilesList);
    else logger.warn('tray: profiles not listed', { kind: r.error.kind, message: r.error.message });
  }
  const offs = [
    core.events.on('alerts.state', (s) => tray.setModel({ alertsPaused: s.paused })),
    // The last poll of a profile switched away from may still report: only the active one shows.
    core.events.on('books.positions', (e) => {
      if (e.profileId === active) tray.setModel({ positions: e.view });
    }),
    core.events.on('profiles.switched', () => void refreshProfiles()),
  ];
  return {
    refreshProfiles,
    setProfiles,
    dispose: () => offs.forEach((off) => off()),
  };
}
