// What a stress suite is to the runner: a name (its file's: stress/suites/<name>.suite.ts), a run
// that prints nothing itself but records its figures and its invariant checks as it goes. A file there
// exporting `suite` is found by the runner; nothing else needs registering.

/** Per-run context handed to each suite. */
export interface SuiteContext {
  /** The fixed seed every random choice derives from (STRESS_SEED, default 20261123). */
  seed: number;
  /** A planted fault (STRESS_PLANT), for showing that an invariant catches it; undefined normally. */
  plant: string | undefined;
  /** A directory of this suite's own, removed after the run. */
  tmpDir: string;
  /** A progress line (stderr, so figures on stdout stay clean). */
  note(line: string): void;
  /** Records an invariant; a false one fails the suite (and `npm run stress`). */
  check(name: string, ok: boolean, detail?: string): void;
  /** Records a figure to print (and to copy into docs/reliability.md). */
  figure(name: string, value: number | string): void;
}

export interface StressSuite {
  name: string;
  /** One line: what it proves. */
  description: string;
  run(ctx: SuiteContext): Promise<void>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface SuiteResult {
  name: string;
  figures: [string, number | string][];
  checks: CheckResult[];
  /** The suite itself threw: an invariant failed in the strongest sense. */
  crashed?: string;
  ms: number;
}
