// Browser mode's log: one line per entry on stderr (stdout carries only what the user needs: the
// link). The core wraps this in its redacting logger; the host's own entries never carry a key.
import { formatIstTime } from '../shared/format.js';
import type { Logger } from '../core/index.js';
import type { LogFields } from '../core/ports.js';

type Level = keyof Logger;
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createConsoleLogger(
  options: { level?: Level; write?: (line: string) => void; now?: () => number } = {},
): Logger {
  const min = ORDER[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? Date.now;
  const at =
    (level: Level) =>
    (message: string, fields?: LogFields): void => {
      if (ORDER[level] < min) return;
      const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      write(`${formatIstTime(now())} ${level} ${message}${extra}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
