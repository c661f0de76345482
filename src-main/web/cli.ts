// `npm run web`: the same core as the desktop app, under plain Node, behind a loopback web host.
//
//   node --import tsx src-main/web/cli.ts [--port 7740] [--data DIR] [--no-open] [--no-keychain]
//
// One OrderDesk per data dir (a lock file). Prints the one-time link on stdout; logs go to stderr.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorMessage } from '../contract/index.js';
import { createCore, defaultDataDir, type Core } from '../core/index.js';
import { embeddedPaperGateway } from '../composition/paper-port.js';
import { browserPorts } from './browser-ports.js';
import { createConsoleLogger } from './console-logger.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { openInBrowser, removeLaunchFile } from './open-browser.js';
import { startWebHost, WebHostError, type WebHost } from './web-host.js';
import { createWsBridge } from './ws-bridge.js';
import { hostTimingFrom } from './host-timing.js';
import { RendererFilesError } from './renderer-files.js';

export const DEFAULT_WEB_PORT = 7740;
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE = `usage: npm run web -- [--port N] [--data DIR] [--no-open] [--no-keychain]
  --port N        loopback port to serve on (default ${DEFAULT_WEB_PORT}; 0 picks a free one)
  --data DIR      data directory (default: ORDERDESK_DATA_DIR, else ~/.config/OrderDesk)
  --no-open       print the link only; do not open a browser
  --no-keychain   keep API keys in memory only (nothing written to the OS keychain)
  --renderer DIR  the built renderer (default out/renderer)`;

export interface WebArgs {
  port: number;
  dataDir: string;
  open: boolean;
  keychain: boolean;
  rendererDir: string;
}

export type ParsedWebArgs = { ok: true; args: WebArgs } | { ok: false; message: string; help?: boolean };

const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

export function parseWebArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): ParsedWebArgs {
  const args: WebArgs = {
    port: DEFAULT_WEB_PORT,
    dataDir: defaultDataDir(env),
    // CI machines have no one to look at a browser.
    open: env['CI'] === undefined || env['CI'] === '' || env['CI'] === 'false',
    keychain: true,
    rendererDir: DEFAULT_RENDERER_DIR,
  };
  const rest = [...argv];
  while (rest.length > 0) {
    const a = rest.shift() ?? '';
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = () => inline ?? rest.shift();
    switch (flag) {
      case '--help':
      case '-h':
        return { ok: false, message: USAGE, help: true };
      case '--no-open':
        args.open = false;
        break;
      case '--no-keychain':
        args.keychain = false;
        break;
      case '--port': {
        const v = value();
        const port = v !== undefined && /^\d{1,5}$/.test(v) ? Number(v) : NaN;
        if (!(port >= 0 && port <= 65535))
          return { ok: false, message: `--port needs a port number 0-65535\n${USAGE}` };
        args.port = port;
        break;
      }
      case '--data':
      case '--renderer': {
        const v = value();
        if (!v) return { ok: false, message: `${flag} needs a directory\n${USAGE}` };
        if (flag === '--data') args.dataDir = resolve(v);
        else args.rendererDir = resolve(v);
        break;
      }
      default:
        return { ok: false, message: `unknown argument ${JSON.stringify(a)}\n${USAGE}` };
    }
  }
  return { ok: true, args };
}

export interface WebIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface RunningWeb {
  host: WebHost;
  core: Core;
  stop(): Promise<void>;
}

/** Starts everything; a refusal (usage, lock, port, start failure) is an exit code, already explained. */
export async function startWeb(argv: readonly string[], io: WebIo): Promise<RunningWeb | number> {
  const parsed = parseWebArgs(argv, io.env);
  if (!parsed.ok) {
    (parsed.help ? io.stdout : io.stderr)(`${parsed.message}\n`);
    return parsed.help ? EXIT.ok : EXIT.usage;
  }
  const { args } = parsed;
  const logger = createConsoleLogger({
    level: io.env['ORDERDESK_LOG'] === 'debug' ? 'debug' : 'info',
    write: io.stderr,
  });

  const locked = acquireDataDirLock(args.dataDir);
  if (!locked.ok) {
    io.stderr(`${locked.error.message}\n`);
    return EXIT.failed;
  }
  const lock: DataDirLock = locked.lock;
  if (locked.tookOverFrom !== undefined)
    logger.info('took over a stale lock', { pid: locked.tookOverFrom, path: lock.path });

  // The bench's measure of the host's own time per call (host-timing.ts); off unless asked for.
  const timing = hostTimingFrom(io.env);
  const bridge = createWsBridge({ logger, timing });
  let core: Core | undefined;
  let host: WebHost | undefined;
  let launchFile: string | undefined;
  const stop = async () => {
    await host?.stop().catch(() => undefined);
    if (launchFile !== undefined) removeLaunchFile(launchFile);
    await core
      ?.stop()
      .catch((err: unknown) => logger.error('core did not stop cleanly', { error: errorMessage(err) }));
    await timing?.close();
    lock.release();
  };
  try {
    core = createCore(
      browserPorts({
        dataDir: args.dataDir,
        logger,
        bridge,
        keychain: args.keychain,
        startPaperGateway: embeddedPaperGateway,
        fetch: timing?.transport,
      }),
    );
    bridge.bind(core);
    // The port is taken before the core starts, so a busy port costs nothing and says so at once.
    host = await startWebHost({ bridge, rendererDir: args.rendererDir, port: args.port, logger });
    await core.start();
  } catch (err) {
    const known = err instanceof WebHostError || err instanceof RendererFilesError;
    io.stderr(`${known ? err.message : `OrderDesk could not start: ${errorMessage(err)}`}\n`);
    await stop();
    return EXIT.failed;
  }
  io.stdout(`OrderDesk (browser mode) · data in ${args.dataDir}\n`);
  io.stdout(`Open ${host.url}\n`);
  io.stdout(`(the link works once; Ctrl+C stops OrderDesk)\n`);
  if (args.open) {
    // Through a 0600 launch file in the data dir: the token stays off every command line.
    const opened = openInBrowser(host.url, args.dataDir, io.env);
    if (opened.opened) launchFile = opened.launchFile;
    else if (opened.reason === 'io') logger.warn('browser not opened', { reason: opened.message });
  }
  return { host, core, stop };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const io: WebIo = {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  };
  // Installed first: a signal during start-up stops cleanly once the start has settled.
  let running: RunningWeb | undefined;
  let stoppingSince: number | undefined;
  const shutdown = () => {
    if (stoppingSince !== undefined) {
      // Ctrl+C under npm arrives twice at once (from the terminal and forwarded by npm): only a
      // later one means "stop waiting" (the lock file left behind is taken over as stale).
      if (Date.now() - stoppingSince > 1000) process.exit(EXIT.failed);
      return;
    }
    stoppingSince = Date.now();
    if (running) void running.stop().then(() => process.exit(EXIT.ok));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  startWeb(process.argv.slice(2), io).then(
    (started) => {
      if (typeof started === 'number') {
        process.exitCode = started;
        return;
      }
      running = started;
      if (stoppingSince !== undefined) void started.stop().then(() => process.exit(EXIT.ok));
    },
    (err: unknown) => {
      io.stderr(`OrderDesk failed: ${errorMessage(err)}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
