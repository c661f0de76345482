// settings.json: zod-validated on read (an invalid file falls back to defaults and is kept as .bak),
// written atomically with mode 0600, never holding secrets.
import { chmod, copyFile, readFile } from 'node:fs/promises';
import type { z } from 'zod';
import {
  DEFAULT_SETTINGS,
  Settings,
  SettingsPatch,
  errorCode,
  errorMessage,
  type SettingsInput,
} from '../../contract/index.js';
import type { Logger } from '../ports.js';
import { removeStaleTemps, writeFileAtomic, type AtomicWriteOptions } from './atomic-file.js';
import { migrateSettings } from './migrations.js';
import { findSecretKeys, withoutSecretKeys } from './secret-keys.js';

export class SettingsError extends Error {
  override name = 'SettingsError';
  /** The refused fields by dotted path (`risk.maxValuePerOrder`), for the form to show beside each. */
  readonly fields: { path: string; message: string }[];
  constructor(message: string, fields: { path: string; message: string }[] = []) {
    super(message);
    this.fields = fields;
  }
}

const issueFields = (error: z.ZodError) =>
  error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

export interface SettingsStoreOptions {
  path: string;
  logger?: Logger;
  /** Test seam for the atomic write. */
  beforeRename?: AtomicWriteOptions['beforeRename'];
}

export interface SettingsStore {
  /** Reads the file (once; later calls return the cached value). */
  load(): Promise<Settings>;
  /** The current settings; defaults until `load` has run. */
  get(): Settings;
  /** Problems met while loading, for the UI to show once. */
  warnings(): readonly string[];
  /** No settings.json existed at load: this is the first start (a fresh profile gets its defaults). */
  firstStart(): boolean;
  save(next: SettingsInput): Promise<Settings>;
  update(change: (current: Settings) => SettingsInput): Promise<Settings>;
  /** A partial change from the UI (risk, alerts, polling, shell, watchlists, confirmations). */
  patch(patch: unknown): Promise<Settings>;
  onChange(listener: (s: Settings) => void): () => void;
}

type ReadResult =
  | { kind: 'missing' }
  | { kind: 'ok'; settings: Settings; rewrite: boolean; warning?: string }
  | { kind: 'invalid'; reason: string };

export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const { path, logger } = options;
  let current: Settings = DEFAULT_SETTINGS;
  let loading: Promise<Settings> | undefined;
  const warnings: string[] = [];
  let missing = false;
  const listeners = new Set<(s: Settings) => void>();
  // Writes are serialised so two quick changes can never interleave their renames.
  let queue: Promise<unknown> = Promise.resolve();

  function warn(message: string): void {
    warnings.push(message);
    logger?.warn(message, { path });
  }

  async function write(settings: Settings): Promise<void> {
    await writeFileAtomic(path, `${JSON.stringify(settings, null, 2)}\n`, {
      mode: 0o600,
      beforeRename: options.beforeRename,
    });
  }

  async function readAndValidate(): Promise<ReadResult> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return { kind: 'missing' };
      return { kind: 'invalid', reason: errorMessage(err) };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { kind: 'invalid', reason: 'not valid JSON' };
    }
    const secretKeys = findSecretKeys(raw);
    const migrated = migrateSettings(secretKeys.length ? withoutSecretKeys(raw) : raw);
    if (!migrated.ok) return { kind: 'invalid', reason: migrated.reason };
    const parsed = Settings.safeParse(migrated.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        kind: 'invalid',
        reason: `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`,
      };
    }
    if (secretKeys.length)
      return {
        kind: 'ok',
        settings: parsed.data,
        rewrite: true,
        warning: `settings.json held secret-looking fields (${secretKeys.join(', ')}); they were removed`,
      };
    return { kind: 'ok', settings: parsed.data, rewrite: migrated.migrated };
  }

  async function doLoad(): Promise<Settings> {
    await removeStaleTemps(path);
    const result = await readAndValidate();
    missing = result.kind === 'missing';
    if (result.kind === 'ok') {
      current = result.settings;
      if (result.warning) warn(result.warning);
      // Secrets must leave the disk now, not at the next save; migrations are persisted too.
      if (result.rewrite) await write(current);
    } else if (result.kind === 'invalid') {
      current = DEFAULT_SETTINGS;
      const bak = `${path}.bak`;
      let kept = '';
      try {
        await copyFile(path, bak);
        await chmod(bak, 0o600);
        kept = `; the old file was kept as ${bak}`;
      } catch {
        // Unreadable file: nothing to keep.
      }
      warn(`settings.json is invalid (${result.reason}); using defaults${kept}`);
    }
    return current;
  }

  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = queue.then(task, task);
    queue = result.catch(() => undefined);
    return result;
  }

  async function apply(next: SettingsInput): Promise<Settings> {
    const secretKeys = findSecretKeys(next);
    if (secretKeys.length)
      throw new SettingsError(`settings never hold secrets; refused field(s): ${secretKeys.join(', ')}`);
    const parsed = Settings.safeParse(next);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SettingsError(
        `invalid settings: ${issue?.path.join('.') || ''}${issue?.path.length ? ': ' : ''}${issue?.message ?? ''}`,
        issueFields(parsed.error),
      );
    }
    await write(parsed.data);
    current = parsed.data;
    for (const l of listeners) l(current);
    return current;
  }

  return {
    load() {
      loading ??= doLoad();
      return loading;
    },
    get: () => current,
    warnings: () => [...warnings],
    firstStart: () => missing,
    save: (next) => enqueue(() => apply(next)),
    // The change runs inside the queue so it sees the result of any pending write.
    update: (change) => enqueue(() => apply(change(current))),
    patch(input) {
      const secretKeys = findSecretKeys(input);
      if (secretKeys.length)
        return Promise.reject(
          new SettingsError(`settings never hold secrets; refused field(s): ${secretKeys.join(', ')}`),
        );
      const parsed = SettingsPatch.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return Promise.reject(
          new SettingsError(
            `invalid settings: ${issue?.path.join('.')}: ${issue?.message ?? ''}`,
            issueFields(parsed.error),
          ),
        );
      }
      const p = parsed.data;
      return this.update((s) => ({
        ...s,
        risk: { ...s.risk, ...p.risk },
        alerts: { ...s.alerts, ...p.alerts },
        polling: { ...s.polling, ...p.polling },
        shell: { ...s.shell, ...p.shell },
        watchlists: p.watchlists ?? s.watchlists,
        confirmations: { ...s.confirmations, ...p.confirmations },
        hotkeys: { ...s.hotkeys, ...p.hotkeys },
        oneClick: { ...s.oneClick, ...p.oneClick },
        baskets: p.baskets ?? s.baskets,
        layout: { ...s.layout, ...p.layout },
        ticketDefaults: { ...s.ticketDefaults, ...p.ticketDefaults },
        protection: p.protection ?? s.protection,
        guard: { ...s.guard, ...p.guard },
      }));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
