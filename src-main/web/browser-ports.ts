// The core's ports in browser mode: the page is the tray (its status bar shows the tray state) and
// the notification surface (the core's `alert` events reach it over the bridge); the paper gateway
// runs in this process on loopback (the root hands in the composition's adapter).
import type { CorePorts, Logger, StartPaperGateway } from '../core/index.js';
import type { FetchFn } from '../gateway/index.js';
import { exportsSavePath } from './export-path.js';
import type { WsBridge } from './ws-bridge.js';

export function browserPorts(o: {
  dataDir: string;
  logger: Logger;
  bridge: Pick<WsBridge, 'publish'>;
  startPaperGateway: StartPaperGateway;
  /** false: skip the OS keychain (keys in memory only, e.g. tests with a throw-away data dir). */
  keychain: boolean;
  /** The gateway clients' transport (the bench's timed one); default: the client's own. */
  fetch?: FetchFn | undefined;
}): CorePorts {
  return {
    paths: { dataDir: o.dataDir },
    logger: o.logger,
    // The page shows alerts itself from the `alert` event; the terminal gets a line per alert.
    notifier: { notify: (n) => o.logger.info(`alert: ${n.title}`, { kind: n.kind, body: n.body }) },
    tray: { update: (s) => o.bridge.publish('tray.state', s) },
    startPaperGateway: o.startPaperGateway,
    // No save dialog from a page: exports go to <data dir>/exports/ and the answer names the file.
    chooseSavePath: exportsSavePath(o.dataDir),
    ...(o.keychain ? {} : { keytar: null }),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    // Hidden until a page opens (the bridge tells the core): with no page, it is a window in the tray.
    visible: false,
    firstWatchlist: true,
  };
}
