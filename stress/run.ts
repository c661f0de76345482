// `npm run stress [-- <suite>...]`: runs the stress suites (stress/suites/*.suite.ts, or those named),
// prints each one's figures and invariants, and exits 1 when any invariant failed or a suite threw.
// Everything a suite writes goes under one temp dir (TMPDIR is pointed there too), removed at the end.
// STRESS_SEED fixes the random choices (default below); STRESS_PLANT plants a fault to show a check fail.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CheckResult, StressSuite, SuiteContext, SuiteResult } from './lib/suite.js';

const DEFAULT_SEED = 20261123;
const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const seed = Number(process.env.STRESS_SEED ?? DEFAULT_SEED);
const plant = process.env.STRESS_PLANT || undefined;

const runDir = mkdtempSync(join(tmpdir(), 'orderdesk-stress-'));
// Anything that asks the OS for a temp dir (the paper gateway, the core harness) lands in ours.
process.env.TMPDIR = runDir;
// However the run ends (done, a suite file that does not load, an interrupt), nothing is left behind.
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** The suites named on the command line (all when none), by file: `<name>.suite.ts`. */
async function loadSuites(): Promise<{ suites: StressSuite[]; broken: SuiteResult[] }> {
  const dir = join(here, 'suites');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.suite.ts'))
    .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.suite\.ts$/, '')))
    .sort();
  const suites: StressSuite[] = [];
  const broken: SuiteResult[] = [];
  for (const f of files) {
    const name = f.replace(/\.suite\.ts$/, '');
    try {
      const mod = (await import(pathToFileURL(join(dir, f)).href)) as { suite?: StressSuite };
      if (mod.suite) suites.push(mod.suite);
      else broken.push({ name, figures: [], checks: [], ms: 0, crashed: `${f} exports no suite` });
    } catch (err) {
      // A suite that does not load fails the run as a failed suite, and the others still run.
      broken.push({ name, figures: [], checks: [], ms: 0, crashed: `${f} did not load: ${String(err)}` });
    }
  }
  return { suites, broken };
}

async function runSuite(suite: StressSuite): Promise<SuiteResult> {
  const figures: SuiteResult['figures'] = [];
  const checks: CheckResult[] = [];
  const tmpDir = join(runDir, suite.name);
  mkdirSync(tmpDir, { recursive: true });
  const ctx: SuiteContext = {
    seed,
    plant,
    tmpDir,
    note: (line) => process.stderr.write(`  [${suite.name}] ${line}\n`),
    check: (name, ok, detail) => checks.push({ name, ok, ...(detail !== undefined ? { detail } : {}) }),
    figure: (name, value) => figures.push([name, value]),
  };
  const started = performance.now();
  let crashed: string | undefined;
  try {
    await suite.run(ctx);
  } catch (err) {
    crashed = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  return {
    name: suite.name,
    figures,
    checks,
    ms: performance.now() - started,
    ...(crashed ? { crashed } : {}),
  };
}

function print(r: SuiteResult): void {
  console.log(`\n## ${r.name} (${(r.ms / 1000).toFixed(1)} s)`);
  const width = Math.max(0, ...r.figures.map(([k]) => k.length));
  for (const [k, v] of r.figures) console.log(`  ${k.padEnd(width)}  ${v}`);
  for (const c of r.checks)
    console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}${c.detail && !c.ok ? `: ${c.detail}` : ''}`);
  if (r.crashed) console.log(`  FAIL  the suite threw: ${r.crashed}`);
}

const { suites: chosen, broken } = await loadSuites();
const unknown = wanted.filter((w) => !chosen.some((s) => s.name === w) && !broken.some((b) => b.name === w));
if (unknown.length) {
  const known = readdirSync(join(here, 'suites'))
    .filter((f) => f.endsWith('.suite.ts'))
    .map((f) => f.replace(/\.suite\.ts$/, ''));
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
console.log(
  `stress: seed ${seed}${plant ? `, PLANTED FAULT ${plant}` : ''}; suites: ${chosen.map((s) => s.name).join(', ')}`,
);

const results: SuiteResult[] = [...broken];
for (const b of broken) print(b);
for (const suite of chosen) {
  process.stderr.write(`${suite.name}: ${suite.description}\n`);
  const r = await runSuite(suite);
  results.push(r);
  print(r);
}

const failed = results.flatMap((r) => [
  ...r.checks.filter((c) => !c.ok).map((c) => `${r.name}: ${c.name}${c.detail ? ` (${c.detail})` : ''}`),
  ...(r.crashed ? [`${r.name}: the suite threw`] : []),
]);
console.log(
  failed.length
    ? `\nstress: FAILED ${failed.length} invariant(s):\n${failed.map((f) => `  - ${f}`).join('\n')}`
    : `\nstress: all ${results.reduce((s, r) => s + r.checks.length, 0)} invariants held`,
);
// Servers and sockets a suite left open must not keep a failed run alive, nor a passed one.
process.exit(failed.length ? 1 : 0);
