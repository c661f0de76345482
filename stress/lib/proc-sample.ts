// CPU and memory of another process, read from /proc (Linux): cumulative CPU seconds and RSS. The
// idle and restart suites sample the app they spawned with it, so the figure is the app's alone.
import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SEC = 100; // USER_HZ on Linux; /proc/<pid>/stat counts in these.

export interface ProcSample {
  /** user + system CPU seconds since the process started, children it waited for included. */
  cpuSeconds: number;
  rssBytes: number;
}

/** The process's sample, or undefined when it is gone (or /proc is unavailable). */
export function sampleProcess(pid: number): ProcSample | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may itself contain spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return { cpuSeconds: ticks / CLOCK_TICKS_PER_SEC, rssBytes: rssKb * 1024 };
  } catch {
    return undefined;
  }
}
