// The ticket window's constructor options, pure: the security baseline (sandbox, context isolation,
// no Node, no insecure content) is fixed here and asserted by a unit test, never decided at a call site.
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';

export const DEFAULT_WINDOW_SIZE = { width: 420, height: 640 } as const;
export const MIN_WINDOW_SIZE = { width: 320, height: 240 } as const;

export interface WindowOptionsInput {
  /** Absolute path of the built CommonJS preload. */
  preload: string;
  /** Where the window goes (already clamped to a visible display), or undefined for centred default size. */
  bounds?: Rectangle;
  alwaysOnTop: boolean;
  /** Dev tools only in unpackaged builds. */
  devTools: boolean;
  icon?: string;
}

export function windowOptions(o: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...(o.bounds ?? DEFAULT_WINDOW_SIZE),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    // Shown on ready-to-show, so the user never sees an empty frame.
    show: false,
    title: 'OrderDesk',
    alwaysOnTop: o.alwaysOnTop,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    ...(o.icon ? { icon: o.icon } : {}),
    webPreferences: {
      preload: o.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      devTools: o.devTools,
    },
  };
}
