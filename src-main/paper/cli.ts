// `npm run paper -- [--port 5000] [--host 127.0.0.1] [--data DIR] [--apikey KEY] [--seed N] [--reset]`:
// the paper gateway as a standalone server. Prints `Listening on http://HOST:PORT` and, when a key
// was created or given, `API key: KEY`, each on its own line (tests and scripts read them).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { resetPaperBooks } from './engine/extension.js';
import { placeAnswerDelay } from './http/fault-place-delay.js';
import { startPaperGateway, DEFAULT_HOST, DEFAULT_SEED, type PaperExtension } from './gateway.js';
import { isMarketHours, type MarketHours } from './market/sessions.js';

export const USAGE = `Usage: npm run paper -- [options]

  --port N      port to listen on (default 5000; 0 picks a free port)
  --host HOST   address to bind (default ${DEFAULT_HOST})
  --data DIR    data directory: key store and books (default ./.paper-data)
  --apikey KEY  add this API key (otherwise a key is created on first start)
  --seed N      market/instrument seed (default ${DEFAULT_SEED})
  --ws-port N   also serve the WebSocket feed on this port of its own, as upstream's 8765
                (it is always served on the HTTP port under /ws)
  --hours clock|exchange
                clock (default): today's market is open around the clock; exchange: today
                follows the exchange's hours too (bars, and orders rest until the session opens;
                past days always follow them: no weekend or holiday bars)
  --reset       start fresh books for every account
  --fault-place-delay-ms N
                TESTS ONLY: hold every placeorder answer N ms after placing the order (off by default)
  --help        show this text`;

export interface CliOptions {
  port: number;
  host: string;
  dataDir: string;
  apiKey: string | undefined;
  seed: number;
  /** A port of the feed's own, besides `/ws` on the HTTP port; undefined: none. */
  wsPort: number | undefined;
  reset: boolean;
  help: boolean;
  /** Today's market hours for bars (past days always follow the exchange calendar). */
  hours: MarketHours;
  /** Test-only fault: placeorder answers held this long after the order is placed; undefined: off. */
  faultPlaceDelayMs: number | undefined;
}

export class UsageError extends Error {}

function intArg(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function parseCli(argv: readonly string[], cwd = process.cwd()): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        apikey: { type: 'string' },
        seed: { type: 'string' },
        'ws-port': { type: 'string' },
        reset: { type: 'boolean' },
        hours: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'fault-place-delay-ms': { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.apikey !== undefined && (values.apikey.trim() === '' || values.apikey.length > 256)) {
    throw new UsageError('--apikey must be 1-256 characters');
  }
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host cannot be empty');
  const hours = values.hours ?? 'clock';
  if (!isMarketHours(hours)) throw new UsageError(`--hours must be clock or exchange, got "${hours}"`);
  return {
    port: intArg('port', values.port, 5000, 0, 65_535),
    host: values.host ?? DEFAULT_HOST,
    dataDir: resolve(cwd, values.data ?? '.paper-data'),
    apiKey: values.apikey,
    seed: intArg('seed', values.seed, DEFAULT_SEED, 0, 2 ** 31 - 1),
    wsPort: values['ws-port'] === undefined ? undefined : intArg('ws-port', values['ws-port'], 0, 0, 65_535),
    reset: values.reset ?? false,
    help: values.help ?? false,
    hours,
    faultPlaceDelayMs:
      values['fault-place-delay-ms'] === undefined
        ? undefined
        : intArg('fault-place-delay-ms', values['fault-place-delay-ms'], 0, 1, 600_000),
  };
}

/** Order-engine hooks (tests may replace them). */
export interface CliHooks {
  /** Replaces the gateway's default extensions (the order engine). */
  extensions?: PaperExtension[];
  /** Clears the books of a data directory (--reset). */
  reset?: (dataDir: string) => void | Promise<void>;
}

/**
 * SIGINT/SIGTERM handlers installed for the whole run: a signal that lands while the gateway is still
 * starting is remembered (the process is not killed half-started, exit 143), and repeats (tsx relays a
 * signal it also forwards) are ignored while stopping.
 */
function watchSignals(): { next: Promise<NodeJS.Signals>; dispose: () => void } {
  let resolve!: (s: NodeJS.Signals) => void;
  const next = new Promise<NodeJS.Signals>((r) => (resolve = r));
  let seen: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (seen) return;
    seen = signal;
    resolve(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    next,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export async function main(
  argv: readonly string[],
  hooks: CliHooks = { reset: (dir) => resetPaperBooks(dir) },
): Promise<number> {
  const signals = watchSignals();
  try {
    return await run(argv, hooks, signals.next);
  } finally {
    signals.dispose();
  }
}

async function run(
  argv: readonly string[],
  hooks: CliHooks,
  signal: Promise<NodeJS.Signals>,
): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCli(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`paper: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (opts.reset) {
    if (hooks.reset) {
      await hooks.reset(opts.dataDir);
      console.log('Books reset');
    } else {
      console.log('--reset is not yet supported by this build; starting with the existing books');
    }
  }
  const gw = await startPaperGateway({
    dataDir: opts.dataDir,
    apiKey: opts.apiKey,
    seed: opts.seed,
    host: opts.host,
    port: opts.port,
    hours: opts.hours,
    extensions: hooks.extensions,
    ...(opts.faultPlaceDelayMs !== undefined ? { plugins: [placeAnswerDelay(opts.faultPlaceDelayMs)] } : {}),
  });
  if (opts.faultPlaceDelayMs !== undefined)
    console.log(`FAULT (tests only): placeorder answers are held ${opts.faultPlaceDelayMs} ms after placing`);
  console.log(`Listening on ${gw.url}`);
  console.log(`Feed on ${gw.feedUrl}`);
  if (opts.wsPort !== undefined) {
    try {
      const port = await gw.feed.listen(opts.host, opts.wsPort);
      console.log(`Feed also on ws://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`);
    } catch (err) {
      await gw.stop();
      throw err;
    }
  }
  if (gw.apiKey !== undefined) {
    console.log(`API key: ${gw.apiKey}`);
    if (gw.keyStatus === 'created') console.log(`(shown once; only its hash is stored in ${gw.keys.file})`);
  } else {
    console.log(`An API key already exists in ${gw.keys.file} (not shown); pass --apikey KEY to add one`);
  }
  console.log(`${await signal}: stopping`);
  try {
    await gw.stop();
  } catch (err) {
    console.error('paper: error while stopping', err);
    return 1;
  }
  return 0;
}

// Run only when executed directly (tsx src-main/paper/cli.ts), not when imported by tests.
const entry = process.argv[1];
if (entry !== undefined && pathToFileURL(resolve(entry)).href === import.meta.url) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error('paper:', err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
