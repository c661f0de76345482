// The ticket window's behaviour: closing hides it to the tray (until Quit), its visibility is reported
// to the core (polling slows while hidden), its bounds are remembered, and "show" restores and focuses
// it. Written over the BrowserWindow methods it uses, so a test drives it with a fake window.
import type { BrowserWindow } from 'electron';
import type { Logger } from '../core/index.js';
import { boundsToSave } from './window-bounds.js';
import type { WindowBounds } from '../contract/index.js';

export type ShellWindow = Pick<
  BrowserWindow,
  | 'on'
  | 'once'
  | 'show'
  | 'hide'
  | 'focus'
  | 'restore'
  | 'isMinimized'
  | 'isVisible'
  | 'isDestroyed'
  | 'getNormalBounds'
  | 'setAlwaysOnTop'
>;

/** What the window's close button does: hide to the tray, unless the app is quitting. */
export function closeDecision(quitting: boolean): 'hide' | 'close' {
  return quitting ? 'close' : 'hide';
}

export interface MainWindowOptions {
  window: ShellWindow;
  /** True once Quit was chosen (tray, OS shutdown): the window may really close then. */
  quitting(): boolean;
  /** Reports a visibility change to the core (only changes are reported). */
  reportVisibility(visible: boolean): void;
  saveBounds(bounds: WindowBounds): void;
  /** Start hidden in the tray (launched at login). */
  startHidden: boolean;
  /** Bounds are saved this long after the last move or resize. */
  saveDelayMs?: number;
  logger: Pick<Logger, 'warn'>;
}

export interface MainWindow {
  /** Brings the window forward: restores, shows and focuses it. */
  show(): void;
  setAlwaysOnTop(on: boolean): void;
}

export function attachMainWindow(o: MainWindowOptions): MainWindow {
  const w = o.window;
  let lastVisible: boolean | undefined;
  let saveTimer: NodeJS.Timeout | undefined;

  const visibility = (visible: boolean) => {
    if (visible === lastVisible) return;
    lastVisible = visible;
    o.reportVisibility(visible);
  };
  const saveNow = () => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (w.isDestroyed()) return;
    const b = boundsToSave(w.getNormalBounds());
    if (b) o.saveBounds(b);
    else o.logger.warn('window bounds not saved: out of range');
  };
  const saveSoon = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, o.saveDelayMs ?? 500);
  };

  w.on('close', (event) => {
    saveNow();
    if (closeDecision(o.quitting()) === 'hide') {
      event.preventDefault();
      w.hide();
    }
  });
  w.on('show', () => visibility(true));
  w.on('restore', () => visibility(true));
  w.on('hide', () => visibility(false));
  w.on('minimize', () => visibility(false));
  w.on('moved', saveSoon);
  w.on('resized', saveSoon);
  w.on('closed', () => clearTimeout(saveTimer));
  w.once('ready-to-show', () => {
    if (o.startHidden) visibility(false);
    else w.show();
  });

  return {
    show() {
      if (w.isDestroyed()) return;
      if (w.isMinimized()) w.restore();
      if (!w.isVisible()) w.show();
      w.focus();
    },
    setAlwaysOnTop(on) {
      if (!w.isDestroyed()) w.setAlwaysOnTop(on);
    },
  };
}
