// Wraps any Logger so that nothing it writes can carry a key: known key values are replaced
// wherever they appear and key-named fields (apikey, Authorization, X-API-KEY) are blanked.
import { redact } from '../../gateway/redact.js';
import type { LogFields, Logger } from '../ports.js';

export function createRedactingLogger(inner: Logger, secrets: () => readonly string[]): Logger {
  const wrap =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      const s = secrets();
      inner[level](redact(message, s), fields === undefined ? undefined : redact(fields, s));
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}

/** A logger that keeps entries in memory (tests, and the browser-mode host before a sink exists). */
export function createMemoryLogger(): Logger & {
  entries: { level: keyof Logger; message: string; fields?: LogFields }[];
} {
  const entries: { level: keyof Logger; message: string; fields?: LogFields }[] = [];
  const at =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      entries.push({ level, message, ...(fields ? { fields } : {}) });
    };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
