// The command-line front end, a composition root like the app's: one gateway operation per run.
// Order operations go through the core's router, so the data dir's risk limits, the duplicate guard
// and the journal apply as in the app; reads go through the gateway client (cli/operations.ts).
//
//   npm run cli -- [--url URL] [--profile NAME] [--data DIR] <operation> [field=value ...]
//
// Prints the result (the contract's normalised types) as JSON on stdout, or the typed error as JSON
// on stderr with a non-zero exit code. The API key comes from ORDERDESK_API_KEY or the profile's
// keychain entry, never from an argument.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  errorMessage,
  type Channel,
  type IpcError,
  type IpcResult,
  type Profile,
} from '../contract/index.js';
import { embeddedPaperGateway } from '../composition/paper-port.js';
import { createCore, defaultDataDir, type Logger } from '../core/index.js';
import {
  bindLegacyKeys,
  gatewayKeySource,
  type KeytarLoader,
  type SecretStore,
} from '../core/secrets/index.js';
import { createSettingsStore } from '../core/settings/index.js';
import { createGatewayClient, redact, type FetchFn, type GatewayResult } from '../gateway/index.js';
import { parseCliArgs, USAGE } from './args.js';
import { openKeyStore } from './key-store.js';
import { routeOf, type Route } from './operations.js';
import { chooseProfile } from './profile.js';

export { API_KEY_ENV } from './args.js';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: FetchFn;
  /** keytar loader; `null` skips the keychain. */
  keytar?: KeytarLoader | null;
}

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The router's, the client's or the CLI's own refusal (its kind may be one IPC never carries). */
type Failure = { kind: string; message: string } & Partial<Omit<IpcError, 'kind' | 'message'>>;

function fail(io: CliIo, e: Failure): number {
  const { kind, message, httpStatus, retryAfter, journalId } = e;
  const line = { kind, message, httpStatus, retryAfter, journalId };
  io.stderr(`${JSON.stringify(line)}\n`);
  return kind === 'invalid_input' ? EXIT.usage : EXIT.failed;
}

/** An order operation through a core on the data dir, started for this one call and stopped after it. */
async function viaCore(
  channel: Channel,
  fields: Record<string, unknown>,
  o: { dataDir: string; profile: Profile; store: SecretStore; fetch?: FetchFn },
): Promise<IpcResult<unknown>> {
  const core = createCore({
    paths: { dataDir: o.dataDir },
    logger: quiet,
    // A one-shot run raises no alerts: the app's own watcher reports the fill.
    notifier: { notify: () => undefined },
    tray: { update: () => undefined },
    secretStore: o.store,
    startPaperGateway: embeddedPaperGateway,
    profile: o.profile,
    // One call and out: the gateway's WebSocket feed would only be opened to be closed.
    feeds: false,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  try {
    await core.start();
    // The channel comes from cli/operations.ts; the router validates the fields against its schema.
    const invoke = core.router.invoke as (c: Channel, input: unknown) => Promise<IpcResult<unknown>>;
    return await invoke(channel, fields);
  } finally {
    await core.stop();
  }
}

/** A read straight from the gateway client, as the gateway answered it. */
async function viaClient(
  route: Extract<Route, { via: 'client' }>,
  fields: Record<string, unknown>,
  o: { profile: Profile; store: SecretStore; fetch?: FetchFn },
): Promise<GatewayResult<unknown>> {
  const client = createGatewayClient({
    baseUrl: o.profile.baseUrl,
    // As in the app: only to the origin the key was stored for, never over plain http:// elsewhere unasked.
    getApiKey: gatewayKeySource(o.store, () => o.profile, o.profile.baseUrl),
    rateLimit: o.profile.rateLimitPerSecond,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  if (route.operation === 'ticker') {
    const f = fields;
    return client.ticker({
      exchange: String(f.exchange ?? ''),
      symbol: String(f.symbol ?? ''),
      ...(f.interval !== undefined ? { interval: String(f.interval) } : {}),
      ...(f.from !== undefined ? { from: String(f.from) } : {}),
      ...(f.to !== undefined ? { to: String(f.to) } : {}),
      ...(f.adjusted !== undefined ? { adjusted: f.adjusted === true || f.adjusted === 'true' } : {}),
      ...(f.sort === 'asc' || f.sort === 'desc' ? { sort: f.sort } : {}),
      ...(f.format === 'json' || f.format === 'txt' ? { format: f.format } : {}),
    });
  }
  // The operation name was checked against the contract's table; the client validates the fields.
  const call = client.call as (
    name: string,
    input: Record<string, unknown>,
  ) => Promise<GatewayResult<unknown>>;
  return call(route.operation, fields);
}

/** Runs one operation; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${USAGE}\n`);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) return fail(io, { kind: 'invalid_input', message: parsed.message });
  const { args } = parsed;
  const route = routeOf(args.operation);
  if (!route) return fail(io, { kind: 'invalid_input', message: `unknown operation ${args.operation}` });
  const dataDir = args.dataDir ?? defaultDataDir(io.env);

  // The same file the core reads (and migrates) at start; nothing is saved to it here.
  const settings = await createSettingsStore({ path: join(dataDir, 'settings.json'), logger: quiet }).load();
  const chosen = chooseProfile(settings, { ...args, dataDir });
  if (!chosen.ok) return fail(io, { kind: 'invalid_input', message: chosen.message });
  const { profile } = chosen;

  const opened = await openKeyStore({
    env: io.env,
    profile,
    dataDir,
    logger: quiet,
    ...(io.keytar !== undefined ? { keytar: io.keytar } : {}),
  });
  if (!opened.ok) return fail(io, opened);
  const { store } = opened;
  // As the app does at start: a key saved unbound is tied to its profile's saved address, not --url's.
  await bindLegacyKeys(store, settings.profiles, quiet);
  const common = { profile, store, ...(io.fetch ? { fetch: io.fetch } : {}) };

  const result =
    route.via === 'router'
      ? await viaCore(route.channel, args.fields, { ...common, dataDir })
      : await viaClient(route, args.fields, common);
  const secrets = store.valuesForRedaction();
  if (!result.ok) return fail(io, redact(result.error, secrets));
  io.stdout(`${JSON.stringify(redact(result.value, secrets), null, 2)}\n`);
  return EXIT.ok;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  runCli(process.argv.slice(2), {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${JSON.stringify({ kind: 'internal', message: errorMessage(err) })}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
