// `npm run web`'s host as a child process: node on the built host (no npm or shell wrapper, so the exit
// code is the host's own), its own process group, stopped by signalling the whole group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser } from 'playwright-core';
import { builtHost } from './built-host.js';

export const ROOT = process.cwd();
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const SHOTS = join(ROOT, 'test-results');
// Without these Chromium keeps trying to reach the internet (environment.md).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface WebProcess {
  child: ChildProcess;
  /** The one-time link the host printed. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  stdout: string[];
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Signals a whole process group; false when it no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The built renderer the host serves; built once if missing (npm test builds it before vitest). */
export function ensureRendererBuilt(): void {
  if (existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) return;
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`electron-vite build failed: ${r.stderr}`);
}

/** Runs the host with `args` until it exits; for refusals (a busy port, a locked data dir). */
export function runWebToExit(
  args: string[],
  timeoutMs = 20_000,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [builtHost(), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      reject(new Error(`web host did not exit within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** The host as `npm run web` ends up running it; `via` runs another command line that starts it. */
export function startWebProcess(
  args: string[],
  options: { via?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<WebProcess> {
  const [command, ...pre] = options.via ?? [process.execPath, builtHost()];
  const timeoutMs = options.timeoutMs ?? 45_000;
  const child = spawn(command!, [...pre, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    // Its own process group, so a stop reaches everything it started.
    detached: true,
  });
  const pid = child.pid;
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stdout: string[] = [];
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

  async function stop(): Promise<number | null> {
    if (pid === undefined) return null;
    signalGroup(pid, 'SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000)),
    ]);
    if (code === 'late') signalGroup(pid, 'SIGKILL');
    const deadline = Date.now() + 5000;
    while (signalGroup(pid, 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return code === 'late' ? null : code;
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`web host printed no link within ${timeoutMs} ms:\n${stdout.join('\n')}\n${stderr}`));
    }, timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      const m = /^Open (http:\/\/127\.0\.0\.1:(\d+))\/\?token=[\w-]+$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        child,
        url: line.slice('Open '.length),
        origin: m[1]!,
        port: Number(m[2]),
        stdout,
        stderr: () => stderr,
        stop,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`web host exited ${code} before printing its link:\n${stderr}`));
    });
  });
}

/**
 * Starts the browser-mode host on `dataDir` (port 0, no keychain, no browser opened) beside a headless
 * Debian Chromium, after making sure the renderer is built and test-results/ exists.
 */
export async function startHostAndBrowser(dataDir: string): Promise<[WebProcess, Browser]> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: bash scripts/setup.sh installs it (apt package chromium)`,
    );
  ensureRendererBuilt();
  mkdirSync(SHOTS, { recursive: true });
  return Promise.all([
    startWebProcess(['--port', '0', '--data', dataDir, '--no-open', '--no-keychain']),
    chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
  ]);
}
