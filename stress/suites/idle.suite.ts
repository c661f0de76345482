// Idle: the always-on cost. The whole app in browser mode (web host + core + embedded paper
// gateway, as `npm run web` starts it, no browser attached) is left alone; its CPU (% of one core)
// and RSS are sampled from /proc, after the start-up has settled. Also the start-to-interactive
// time: from spawn until the host has printed its link and serves the page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCoreProcess } from '../lib/core-process.js';
import { sampleProcess } from '../lib/proc-sample.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

export interface IdleOptions {
  /** How long to sample, after the warm-up (CI: 60 s; the figure: 10 minutes). */
  durationMs: number;
  /** Left out of the sample: module loading and the first polls. */
  warmupMs?: number;
  maxCpuPercent?: number;
  maxRssMb?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * After the fixed warm-up, waits for a quiet spell before sampling. V8's memory reducer runs up to
 * three heap-shrinking mark-compacts once start-up allocation stops, ~8 s apart and later on a loaded
 * machine. The heap is ~86 MB (67 MB of it the paper gateway's instrument master), so each costs
 * 100–300 ms of CPU: two inside a 60 s sample read as a 0.6 % idle where the steady state is ~0.05 %
 * (a CPU profile: 1–3 ms of work per 5 s). That is the start-up's cost, not the always-on one, so the
 * sample starts after six quiet 5 s windows in a row (30 s, longer than the reducer's spacing; each
 * within twice the CPU bar), at most 120 s more; an app that never settles is then sampled as it is,
 * and fails.
 */
/** Quiet 5 s windows in a row before the sample starts. */
const QUIET_WINDOWS = 6;

async function settle(pid: number, warmupMs: number, maxCpu: number): Promise<number> {
  let waited = warmupMs;
  let quiet = 0;
  let last = sampleProcess(pid);
  for (let extra = 0; last && quiet < QUIET_WINDOWS && extra < 120_000; extra += 5_000) {
    await sleep(5_000);
    waited += 5_000;
    const s = sampleProcess(pid);
    if (!s) break;
    const percent = ((s.cpuSeconds - last.cpuSeconds) / 5) * 100;
    last = s;
    quiet = percent <= 2 * maxCpu ? quiet + 1 : 0;
  }
  return waited;
}

async function runIdle(ctx: SuiteContext, o: IdleOptions): Promise<void> {
  const warmupMs = o.warmupMs ?? 30_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'stress-idle-'));
  const t0 = performance.now();
  const core = await startCoreProcess(dataDir);
  try {
    const res = await fetch(core.link, { redirect: 'manual' });
    const startMs = performance.now() - t0;
    ctx.check('the page served', res.status < 400, `${res.status}`);
    ctx.note(`interactive after ${startMs.toFixed(0)} ms; warming up ${warmupMs / 1000} s`);
    await sleep(warmupMs);
    const pid = core.child.pid!;
    const maxCpu = o.maxCpuPercent ?? 0.5;
    const settledAfterMs = await settle(pid, warmupMs, maxCpu);

    const first = sampleProcess(pid);
    if (!first) throw new Error('no /proc sample of the web host');
    const wall0 = performance.now();
    let rssMax = first.rssBytes;
    let last = first;
    let lastAt = wall0;
    /** CPU % of each sampling window: the busiest one is reported and left out of the judged figure. */
    const windows: number[] = [];
    const everyMs = Math.min(5_000, o.durationMs / 4);
    for (let t = 0; t < o.durationMs; t += everyMs) {
      await sleep(everyMs);
      const s = sampleProcess(pid);
      if (!s) throw new Error(`the web host died while idle: ${core.stderr().slice(-500)}`);
      const at = performance.now();
      windows.push(((s.cpuSeconds - last.cpuSeconds) / ((at - lastAt) / 1000)) * 100);
      rssMax = Math.max(rssMax, s.rssBytes);
      last = s;
      lastAt = at;
    }
    const wallSec = (performance.now() - wall0) / 1000;
    const meanPercent = ((last.cpuSeconds - first.cpuSeconds) / wallSec) * 100;
    // One busy window (a collection, a late compile, the shared machine's scheduler) says little of the
    // always-on cost, which is what every other window shows: the single busiest window is left out of
    // the judged mean (a cost that recurs stays in it).
    const busiest = Math.max(...windows);
    const cpuPercent =
      windows.length > 1
        ? (windows.reduce((a, b) => a + b, 0) - busiest) / (windows.length - 1)
        : meanPercent;
    const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
    const maxRss = o.maxRssMb ?? 300;
    ctx.figure(
      'sampled (after a warm-up)',
      `${Math.round(wallSec)} s (warm-up ${Math.round(settledAfterMs / 1000)} s, settled)`,
    );
    ctx.figure('idle CPU, % of one core (busiest window left out)', cpuPercent.toFixed(2));
    ctx.figure('idle CPU, mean of all / busiest window', `${meanPercent.toFixed(2)} / ${busiest.toFixed(2)}`);
    ctx.figure('RSS MB at the end / max', `${mb(last.rssBytes)} / ${mb(rssMax)}`);
    // Reported against its target, not failed: it measures the shared machine as much as the app.
    ctx.figure('start to interactive ms (target 2,000)', Math.round(startMs));
    ctx.check(`idle CPU at most ${maxCpu} % of a core`, cpuPercent <= maxCpu, `${cpuPercent.toFixed(2)} %`);
    ctx.check(`RSS at most ${maxRss} MB`, mb(rssMax) <= maxRss, `${mb(rssMax)} MB`);
  } finally {
    await core.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const suite: StressSuite = {
  name: 'idle',
  description: 'the whole app in browser mode left alone: CPU and RSS, and the start-to-interactive time',
  // STRESS_IDLE_SECONDS: 60 by default (CI); the figure is 600.
  run: (ctx) => runIdle(ctx, { durationMs: Number(process.env.STRESS_IDLE_SECONDS ?? 60) * 1000 }),
};
