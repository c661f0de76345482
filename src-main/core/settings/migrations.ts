// Settings migrations: each step turns version n into n+1. A file from a newer app is refused
// (defaults + .bak) rather than silently downgraded.
import { SETTINGS_VERSION } from '../../contract/index.js';

type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Keyed by the version they upgrade from. Version 0 is a file written before `version` existed. */
const MIGRATIONS: Record<number, Migration> = {
  0: (raw) => ({ ...raw, version: 1 }),
  1: (raw) => ({ ...raw, alerts: alertTogglesToRules(raw.alerts), version: 2 }),
};

const TOGGLED_EVENTS = ['fill', 'partial', 'rejection', 'cancellation'] as const;

/**
 * Version 1's on/off toggles become rules: on was a system notification, off was nothing. Anything
 * else is left for the schema to judge (a wrong value falls back to defaults with a warning).
 */
function alertTogglesToRules(alerts: unknown): unknown {
  if (alerts === null || typeof alerts !== 'object' || Array.isArray(alerts)) return alerts;
  const out: Record<string, unknown> = { ...(alerts as Record<string, unknown>) };
  for (const event of TOGGLED_EVENTS) {
    const v = out[event];
    if (typeof v === 'boolean') out[event] = v ? 'os' : 'off';
  }
  return out;
}

export type MigrationResult =
  { ok: true; value: Record<string, unknown>; migrated: boolean } | { ok: false; reason: string };

export function migrateSettings(raw: unknown): MigrationResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, reason: 'not a JSON object' };
  let value = raw as Record<string, unknown>;
  let version = value.version === undefined ? 0 : value.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    return { ok: false, reason: 'version must be a whole number' };
  if (version > SETTINGS_VERSION)
    return { ok: false, reason: `written by a newer OrderDesk (settings version ${version})` };
  const from = version;
  while (version < SETTINGS_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) return { ok: false, reason: `no migration from settings version ${version}` };
    value = step(value);
    version += 1;
  }
  return { ok: true, value, migrated: version !== from };
}
