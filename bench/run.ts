// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) in turn.
// Each exports `run(): Promise<void>` that prints its own figures.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

for (const file of files) {
  console.log(`\n## ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
