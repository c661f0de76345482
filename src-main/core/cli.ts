// The command-line front end: one gateway operation per run, through the same gateway client the
// app uses (validation, tolerant parsing, typed errors, redaction).
//
//   npx tsx src-main/core/cli.ts [--url URL] [--profile NAME] [--data DIR] <operation> [field=value ...]
//
// Prints the parsed result (the contract's normalised types) as JSON on stdout, or the typed error
// as JSON on stderr with a non-zero exit code. The API key comes from ORDERDESK_API_KEY or the
// profile's keychain entry, never from an argument: arguments end up in shell history and `ps`.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OPERATIONS, Settings, errorMessage, type Profile } from '../contract/index.js';
import { createGatewayClient, redact, type FetchFn, type GatewayResult } from '../gateway/index.js';
import { KEYCHAIN_SERVICE } from './create-core.js';
import type { Logger } from './ports.js';
import { createSecretStore, type KeytarLoader } from './secrets/index.js';

export const API_KEY_ENV = 'ORDERDESK_API_KEY';
export const DATA_DIR_ENV = 'ORDERDESK_DATA_DIR';

/** The data dir when none is passed: ORDERDESK_DATA_DIR, else the desktop app's (~/.config/OrderDesk). */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  return env[DATA_DIR_ENV] ?? join(homedir(), '.config', 'OrderDesk');
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE = `usage: cli.ts [--url URL] [--profile NAME] [--data DIR] <operation> [field=value ...]
operations: ${Object.keys(OPERATIONS)
  .filter((n) => n !== 'closepositionHosted')
  .join(', ')}
The API key is read from ${API_KEY_ENV} or from the profile's keychain entry, never from an argument.
Values that look like JSON ([...], {...}, true, false, null) are parsed: orders=[{"symbol":"SBIN",...}].`;

export interface CliArgs {
  url?: string;
  profile?: string;
  dataDir?: string;
  operation: string;
  fields: Record<string, unknown>;
}

export type ParsedArgs = { ok: true; args: CliArgs } | { ok: false; message: string };

const KEY_FIELD = /^(api[-_]?key|x-api-key|authorization)$/i;

/** A value that looks like JSON is parsed; anything else stays a string (the contract takes numeric strings). */
function fieldValue(text: string): unknown {
  const t = text.trim();
  if (/^[[{]/.test(t) || t === 'true' || t === 'false' || t === 'null') {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const out: Partial<CliArgs> & { fields: Record<string, unknown> } = { fields: {} };
  const rest = [...argv];
  while (rest.length > 0) {
    const a = rest.shift() ?? '';
    const [flag, inline] = a.startsWith('--')
      ? a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined]
      : [a, undefined];
    if (flag.startsWith('--')) {
      const name = flag.slice(2);
      if (KEY_FIELD.test(name))
        return {
          ok: false,
          message: `the API key is never taken from an argument; set ${API_KEY_ENV} or store it in the keychain`,
        };
      if (name === 'help' || name === 'h') return { ok: false, message: USAGE };
      const value = inline ?? rest.shift();
      if (value === undefined || value === '') return { ok: false, message: `${flag} needs a value` };
      if (name === 'url') out.url = value;
      else if (name === 'profile') out.profile = value;
      else if (name === 'data') out.dataDir = value;
      else return { ok: false, message: `unknown option ${flag}\n${USAGE}` };
      continue;
    }
    if (out.operation === undefined) {
      out.operation = a;
      continue;
    }
    const eq = a.indexOf('=');
    if (eq <= 0)
      return {
        ok: false,
        message: `expected field=value, got ${JSON.stringify(a.includes('=') ? '=…' : a)}`,
      };
    const key = a.slice(0, eq);
    // Refused before anything else happens, and the value is never echoed.
    if (KEY_FIELD.test(key))
      return {
        ok: false,
        message: `the API key is never taken from an argument (${key}=…); set ${API_KEY_ENV} or store it in the keychain`,
      };
    out.fields[key] = fieldValue(a.slice(eq + 1));
  }
  if (out.operation === undefined) return { ok: false, message: USAGE };
  if (!(out.operation in OPERATIONS) || out.operation === 'closepositionHosted')
    return { ok: false, message: `unknown operation ${JSON.stringify(out.operation)}\n${USAGE}` };
  return { ok: true, args: { ...out, operation: out.operation } };
}

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

async function readSettings(dataDir: string): Promise<Settings> {
  const { readFile } = await import('node:fs/promises');
  try {
    return Settings.parse(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')));
  } catch {
    return Settings.parse({});
  }
}

function pickProfile(settings: Settings, wanted: string | undefined): Profile | undefined {
  if (wanted === undefined) return settings.profiles.find((p) => p.id === settings.activeProfileId);
  const w = wanted.toLowerCase();
  return (
    settings.profiles.find((p) => p.id === wanted) ??
    settings.profiles.find((p) => p.name.toLowerCase() === w)
  );
}

function fail(io: CliIo, kind: string, message: string, httpStatus?: number): number {
  io.stderr(`${JSON.stringify({ kind, message, ...(httpStatus !== undefined ? { httpStatus } : {}) })}\n`);
  return kind === 'invalid_input' ? EXIT.usage : EXIT.failed;
}

/** Runs one operation; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${USAGE}\n`);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) return fail(io, 'invalid_input', parsed.message);
  const { args } = parsed;
  const dataDir = args.dataDir ?? defaultDataDir(io.env);
  const settings = await readSettings(dataDir);
  const profile = pickProfile(settings, args.profile);
  if (!profile) return fail(io, 'invalid_input', `no profile ${JSON.stringify(args.profile)} in ${dataDir}`);
  const baseUrl = args.url ?? (profile.kind === 'paper' ? '' : profile.baseUrl);
  if (!baseUrl)
    return fail(
      io,
      'invalid_input',
      `profile ${profile.id} has no fixed URL; pass --url (npm run paper prints it)`,
    );
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    return fail(io, 'invalid_input', `--url must be an http(s) URL`);
  }

  const envKey = io.env[API_KEY_ENV]?.trim();
  let keyUsed: string | undefined;
  const getApiKey = async (): Promise<string | undefined> => {
    if (envKey) return (keyUsed = envKey);
    const store = createSecretStore({
      service: KEYCHAIN_SERVICE,
      paths: { dataDir },
      logger: quiet,
      ...(io.keytar !== undefined ? { keytar: io.keytar } : {}),
    });
    return (keyUsed = await store.revealForGatewayClient(profile.id));
  };
  const client = createGatewayClient({
    baseUrl,
    getApiKey,
    rateLimit: profile.rateLimitPerSecond,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });

  let result: GatewayResult<unknown>;
  if (args.operation === 'ticker') {
    const f = args.fields;
    result = await client.ticker({
      exchange: String(f.exchange ?? ''),
      symbol: String(f.symbol ?? ''),
      ...(f.interval !== undefined ? { interval: String(f.interval) } : {}),
      ...(f.from !== undefined ? { from: String(f.from) } : {}),
      ...(f.to !== undefined ? { to: String(f.to) } : {}),
      ...(f.adjusted !== undefined ? { adjusted: f.adjusted === true || f.adjusted === 'true' } : {}),
      ...(f.sort === 'asc' || f.sort === 'desc' ? { sort: f.sort } : {}),
      ...(f.format === 'json' || f.format === 'txt' ? { format: f.format } : {}),
    });
  } else {
    // The operation name was checked against the table; the client validates the fields.
    const call = client.call as (
      name: string,
      input: Record<string, unknown>,
    ) => Promise<GatewayResult<unknown>>;
    result = await call(args.operation, args.fields);
  }
  const secrets = keyUsed ? [keyUsed] : [];
  if (!result.ok) {
    const e = redact(result.error, secrets);
    if (e.kind === 'unauthorised' && !keyUsed)
      e.message = `${e.message} (set ${API_KEY_ENV} or store the key for profile ${profile.id} in the keychain)`;
    return fail(io, e.kind, e.message, e.httpStatus);
  }
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
