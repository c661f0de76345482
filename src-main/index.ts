// Composition root of the desktop app: the only file that knows both Electron and the core. It builds
// the core with Electron's ports (notifications, tray, safeStorage, keytar, save dialog), serves the
// renderer from app://, binds the core to IPC and wires the tray, window, shortcut and login item.
import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  dialog,
  globalShortcut,
  ipcMain,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { embeddedPaperGateway } from './composition/paper-port.js';
import { errorMessage, type ProfilesList, type Settings, type ShellCommandEvent } from './contract/index.js';
import { createCore, createPageWatches, defaultDataDir, type Core } from './core/index.js';
import { createAppProtocolHandler } from './desktop/app-protocol.js';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES } from './desktop/app-url.js';
import { bindGlobalShortcut } from './desktop/global-shortcut.js';
import { bindIpc, type IpcBinding } from './desktop/ipc-binding.js';
import { electronKeytarLoader } from './desktop/keytar-loader.js';
import { HIDDEN_ARG, applyLaunchAtLogin } from './desktop/login-item.js';
import { attachMainWindow, type MainWindow } from './desktop/main-window.js';
import { createDesktopNotifier } from './desktop/notifications.js';
import { saveDialogPort } from './desktop/save-dialog.js';
import { shellActions } from './desktop/shell-actions.js';
import { shellSettingsApplier } from './desktop/shell-settings.js';
import { createTrayController, feedTray, type TrayController } from './desktop/tray.js';
import { trayIconPath } from './desktop/tray-model.js';
import { placeWindow } from './desktop/window-bounds.js';
import { guardContents, guardSession } from './desktop/web-guards.js';
import { windowOptions } from './desktop/window-options.js';
import { createConsoleLogger } from './web/console-logger.js';
import { acquireDataDirLock, type DataDirLock } from './web/data-dir-lock.js';

const logger = createConsoleLogger();
const dev = !app.isPackaged;
/** electron-vite's dev server; trusted only in an unpackaged run. */
const devUrl = dev ? process.env['ELECTRON_RENDERER_URL'] : undefined;
const resourcesDir = join(app.getAppPath(), 'resources');
const rendererDir = join(import.meta.dirname, '../renderer');
/** The core's data dir, the one browser mode and the CLI open too (ORDERDESK_DATA_DIR overrides it). */
const dataDir = defaultDataDir(process.env);
// Chromium's own files go beside the core's, and the single-instance lock is then per data dir.
app.setPath('userData', join(dataDir, 'electron'));

// Every renderer is sandboxed, whatever a window's own options say; app:// must be registered before ready.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

let quitting = false;
let win: BrowserWindow | undefined;
let mainWindow: MainWindow | undefined;
let core: Core | undefined;
let binding: IpcBinding | undefined;
let tray: Tray | undefined;
let dirLock: DataDirLock | undefined;
/** The window's market subscriptions: a reloaded or crashed page cannot unwatch them itself. */
let pageWatches = createPageWatches();

function releasePageWatches(): void {
  const gone = pageWatches;
  pageWatches = createPageWatches();
  gone.release((id) => {
    void core?.router.invoke('market.unwatch', { id }).then((r) => {
      if (!r.ok) logger.warn('market.unwatch refused', { message: r.error.message });
    });
  });
}

// A second launch focuses the first instead of starting another core on the same data dir.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showTicket());
  app.on('web-contents-created', (_e, contents) =>
    guardContents(contents, logger, (url) => {
      shell
        .openExternal(url)
        .catch((e: unknown) => logger.warn('external link not opened', { error: String(e) }));
    }),
  );
  app.on('before-quit', () => {
    quitting = true;
  });
  // The tray keeps the app running with no window open; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  app.on('will-quit', (event) => {
    globalShortcut.unregisterAll();
    if (!core) {
      dirLock?.release();
      return;
    }
    // Stop the core (watcher, journal, paper gateway) before exiting; once.
    event.preventDefault();
    const stopping = core;
    core = undefined;
    binding?.dispose();
    stopping
      .stop()
      .catch((err: unknown) => logger.error('core did not stop cleanly', { error: errorMessage(err) }))
      .finally(() => app.quit());
  });
  app.whenReady().then(start, (err: unknown) => fail(err));
}

function fail(err: unknown): void {
  logger.error('OrderDesk could not start', { error: errorMessage(err) });
  dialog.showErrorBox('OrderDesk could not start', errorMessage(err));
  app.exit(1);
}

function command(c: ShellCommandEvent): void {
  binding?.publish('shell.command', c);
}

function showTicket(): void {
  actions.showTicket();
}

const actions = shellActions({
  showWindow: () => mainWindow?.show(),
  command,
  invoke: (channel, input) =>
    core
      ? core.router.invoke(channel, input)
      : Promise.resolve({ ok: false, error: { kind: 'internal', message: 'OrderDesk is still starting' } }),
  quit: () => app.quit(),
  logger,
  // A hidden window's page can still ask; a crashed or missing one cannot: the tray asks natively.
  pageReady: () =>
    !!win && !win.isDestroyed() && !win.webContents.isCrashed() && !win.webContents.isLoading(),
  confirm: async (q) => {
    // Not parented: the window may be hidden (a hidden parent can hide its dialog too). "Keep" is the default.
    const answer = await dialog.showMessageBox({
      type: 'warning',
      title: q.title,
      message: q.title,
      detail: q.detail,
      buttons: [q.cancelLabel, q.confirmLabel],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return answer.response === 1;
  },
  report: (title, body) => {
    logger.info(`tray: ${title}`, { body });
    if (Notification.isSupported()) new Notification({ title, body }).show();
  },
});

async function start(): Promise<void> {
  guardSession(session.defaultSession, logger);
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({ root: rendererDir, readFile: (p) => readFile(p), logger }),
  );

  await mkdir(dataDir, { recursive: true });
  // Browser mode on the same data dir would run a second core over the same journal and paper books.
  const locked = acquireDataDirLock(dataDir);
  if (!locked.ok) throw new Error(locked.error.message);
  dirLock = locked.lock;
  const trayController = createTray();
  const c = createCore({
    paths: { dataDir },
    logger,
    notifier: createDesktopNotifier({
      create: (options) => new Notification(options),
      isSupported: () => Notification.isSupported(),
      onClick: (orderid) => (orderid ? actions.showOrder(orderid) : actions.showTicket()),
      logger,
      icon: join(resourcesDir, 'icon.png'),
    }),
    tray: { update: (s) => trayController.update(s) },
    keytar: electronKeytarLoader({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath }),
    safeStorage,
    startPaperGateway: embeddedPaperGateway,
    chooseSavePath: saveDialogPort(dialog, { downloadsDir: app.getPath('downloads'), parent: () => win }),
    visible: false,
    firstWatchlist: true,
  });
  core = c;

  const shortcut = bindGlobalShortcut(globalShortcut, showTicket, logger);
  const applyShell = shellSettingsApplier({
    setAlwaysOnTop: (on) => mainWindow?.setAlwaysOnTop(on),
    setShortcut: (a) => void shortcut.set(a),
    setLaunchAtLogin: (enabled) =>
      applyLaunchAtLogin(enabled, {
        platform: process.platform,
        isPackaged: app.isPackaged,
        execPath: process.env['APPIMAGE'] ?? process.execPath,
        autostartDir: join(process.env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'autostart'),
        setLoginItemSettings: (s) => app.setLoginItemSettings(s),
        writeFile: async (path, text) => {
          await mkdir(join(path, '..'), { recursive: true });
          await writeFile(path, text, { mode: 0o644 });
        },
        removeFile: (path) => rm(path),
        logger,
      }),
    logger,
  });

  const feed = feedTray(trayController, { events: c.events, invoke: (ch) => c.router.invoke(ch) }, logger);
  binding = bindIpc({
    ipcMain,
    core: c,
    trust: { isAppContents: (id) => win?.webContents.id === id, ...(devUrl ? { devOrigin: devUrl } : {}) },
    targets: () => (win && !win.isDestroyed() ? [win.webContents] : []),
    logger,
    onAnswered(channel, result) {
      pageWatches.noted(channel, result);
      if (!result.ok) return;
      if (channel === 'settings.update') applyShell((result.value as Settings).shell);
      if (channel.startsWith('profiles.')) feed.setProfiles(result.value as ProfilesList);
    },
  });

  await c.start();
  const settings = await c.router.invoke('settings.get');
  if (!settings.ok) throw new Error(`settings unreadable: ${settings.error.message}`);
  trayController.setModel({ alertsPaused: settings.value.alerts.paused });
  await feed.refreshProfiles();
  openWindow(settings.value.shell);
  applyShell(settings.value.shell);
}

function createTray(): TrayController {
  tray = new Tray(trayIconPath(resourcesDir, 'offline'));
  tray.setToolTip('OrderDesk');
  return createTrayController({
    tray,
    buildMenu: (template) => Menu.buildFromTemplate(template),
    resourcesDir,
    actions,
    forward: (s) => binding?.publish('tray.state', s),
    logger,
  });
}

function openWindow(shell: Settings['shell']): void {
  const bounds = placeWindow(
    shell.window,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  win = new BrowserWindow(
    windowOptions({
      preload: join(import.meta.dirname, '../preload/preload.cjs'),
      ...(bounds ? { bounds } : {}),
      alwaysOnTop: shell.alwaysOnTop,
      devTools: dev,
      icon: join(resourcesDir, 'icon.png'),
    }),
  );
  mainWindow = attachMainWindow({
    window: win,
    quitting: () => quitting,
    reportVisibility: (visible) => {
      void core?.router.invoke('watcher.setVisibility', { visible }).then((r) => {
        if (!r.ok) logger.warn('visibility not reported', { message: r.error.message });
      });
    },
    saveBounds: (b) => {
      void core?.router.invoke('settings.update', { shell: { window: b } }).then((r) => {
        if (!r.ok) logger.warn('window bounds not saved', { message: r.error.message });
      });
    },
    startHidden: process.argv.includes(HIDDEN_ARG),
    logger,
  });
  // A page that (re)loads missed the tray state sent before it listened.
  win.webContents.on('did-finish-load', () => binding?.replay());
  win.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) releasePageWatches();
  });
  win.webContents.on('render-process-gone', () => releasePageWatches());
  win.on('closed', () => {
    win = undefined;
    mainWindow = undefined;
  });
  void (devUrl ? win.loadURL(devUrl) : win.loadURL(APP_INDEX_URL)).catch((err: unknown) =>
    logger.error('the window could not load OrderDesk', { error: errorMessage(err) }),
  );
}
