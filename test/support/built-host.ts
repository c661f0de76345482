// The built browser-mode host (out/web/cli.js, from `npm run build`), which the e2e tests, the stress
// suites and the benches spawn as `npm run web` runs it. A build older than the sources would test old
// code: that is refused with what to run, never used silently.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILT_HOST = join(ROOT, 'out', 'web', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** The built host's path; throws when it is missing or older than a file under src-main. */
export function builtHost(): string {
  if (!existsSync(BUILT_HOST)) throw new Error(`${BUILT_HOST} is missing: run npm run build`);
  if (statSync(BUILT_HOST).mtimeMs < newestSource(join(ROOT, 'src-main')))
    throw new Error(`${BUILT_HOST} is older than src-main: run npm run build`);
  return BUILT_HOST;
}
