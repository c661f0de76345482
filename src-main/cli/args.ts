// The command line's arguments: flags, the operation and its field=value pairs. The API key is never
// an argument (arguments end up in shell history and `ps`): a key-like flag or field is refused
// before anything else happens, and its value is never echoed.
import { OPERATIONS } from '../contract/index.js';
import { GTT_VERBS, OFFERED, routeOf } from './operations.js';

export const API_KEY_ENV = 'ORDERDESK_API_KEY';

export const USAGE = `usage: npm run cli -- [--url URL] [--profile NAME] [--data DIR] <operation> [field=value ...]
operations: ${OFFERED.join(', ')}
GTT orders also as gtt place|modify|cancel|book (trigger_type=SINGLE|OCO, triggerprice_sl/_tg, stoploss, target).
Order operations go through the core: the risk limits of the data dir's settings, the duplicate guard
and the journal apply as in the app (confirmDuplicate=true sends an order the guard holds back).
The API key is read from ${API_KEY_ENV} or from the profile's keychain entry, never from an argument.
--url without --profile uses a transient profile (nothing saved) and the key from ${API_KEY_ENV}.
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
      // `gtt place …` is `placegttorder …`.
      const verb = a === 'gtt' ? rest[0] : undefined;
      if (verb !== undefined && Object.hasOwn(GTT_VERBS, verb)) {
        rest.shift();
        out.operation = GTT_VERBS[verb];
      } else if (a === 'gtt')
        return { ok: false, message: `gtt needs one of: ${Object.keys(GTT_VERBS).join(', ')}` };
      continue;
    }
    const eq = a.indexOf('=');
    if (eq <= 0)
      return {
        ok: false,
        message: `expected field=value, got ${JSON.stringify(a.includes('=') ? '=…' : a)}`,
      };
    const key = a.slice(0, eq);
    if (KEY_FIELD.test(key))
      return {
        ok: false,
        message: `the API key is never taken from an argument (${key}=…); set ${API_KEY_ENV} or store it in the keychain`,
      };
    out.fields[key] = fieldValue(a.slice(eq + 1));
  }
  if (out.operation === undefined) return { ok: false, message: USAGE };
  if (routeOf(out.operation) === undefined)
    return {
      ok: false,
      message: Object.hasOwn(OPERATIONS, out.operation)
        ? `${out.operation} is not offered: the core has no checked, journalled channel for it, and the CLI sends no order around the core`
        : `unknown operation ${JSON.stringify(out.operation)}\n${USAGE}`,
    };
  return { ok: true, args: { ...out, operation: out.operation } };
}
