// The core in a process of its own: browser mode's built host (`npm run web`, out/web/cli.js) on a data
// dir, driven as its page drives it: the printed one-time link is exchanged for the session cookie, and
// one WebSocket to /bridge (with the page's Origin and that cookie) carries call frames and events.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import {
  BRIDGE_PATH,
  BridgeHostFrame,
  type EventName,
  type IpcResult,
} from '../../src-main/contract/index.js';
import { builtHost } from '../../test/support/built-host.js';
import { killHard, ROOT } from './gateway-child.js';

export interface CoreProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The one-time link it printed. */
  link: string;
  /** Epoch ms from spawn to the printed link. */
  startMs: number;
  stderr(): string;
  /** SIGKILL: no shutdown of any kind runs. */
  kill(): Promise<void>;
}

/**
 * The page itself is not what is under test: a one-line index.html stands in for the built renderer,
 * so the suite does not depend on (or wait for) a renderer build.
 */
export function placeholderRenderer(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>\n');
  return dir;
}

/** `rendererDir` undefined: the built renderer, as `npm run web` serves it. */
export function startCoreProcess(dataDir: string, rendererDir?: string): Promise<CoreProcess> {
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [
      builtHost(),
      '--port',
      '0',
      '--data',
      dataDir,
      '--no-open',
      // Keys in memory only: a restarted core is given its key again, as a trader would be asked to.
      '--no-keychain',
      ...(rendererDir !== undefined ? ['--renderer', rendererDir] : []),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void killHard(child);
      reject(new Error(`the core printed no link within 30 s: ${err.slice(-600)}`));
    }, 30_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`the core exited (${code}) before printing its link: ${err.slice(-600)}`));
    };
    child.once('exit', onExit);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=[\w-]+$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        child,
        origin: m[1]!,
        link: line.slice('Open '.length),
        startMs: Date.now() - t0,
        stderr: () => err,
        kill: () => killHard(child),
      });
    });
  });
}

export interface BridgeEvent {
  name: EventName;
  payload: unknown;
  /** Which life of the core sent it (1 = first). */
  life: number;
  at: number;
}

export interface DeskLink {
  /** A call as the page makes it; a link lost before the answer resolves as the page's bridge does. */
  invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  /** Sends the call frame and resolves once it is written to the socket (the answer comes later). */
  send(channel: string, input?: unknown): Promise<{ reply: Promise<IpcResult<unknown>> }>;
  close(): void;
}

/** Exchanges the one-time link for the session cookie, then opens the bridge with it. */
export async function connectDesk(
  core: CoreProcess,
  life: number,
  sink: { events: BridgeEvent[]; badFrames: string[] },
): Promise<DeskLink> {
  const res = await fetch(core.link, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 303 || !setCookie) throw new Error(`the link was not taken: ${res.status}`);
  const cookie = setCookie.split(';')[0]!;
  const ws = new WebSocket(`${core.origin.replace(/^http/, 'ws')}${BRIDGE_PATH}`, {
    headers: { Origin: core.origin, Cookie: cookie },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const pending = new Map<number, (r: IpcResult<unknown>) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      json = undefined;
    }
    const parsed = BridgeHostFrame.safeParse(json);
    // Counted, not thrown: a frame outside the contract is a finding for the suite to report.
    if (!parsed.success) return void sink.badFrames.push(String(data).slice(0, 200));
    const frame = parsed.data;
    if (frame.type === 'event')
      // The frame schema checked the name against the contract's EVENTS.
      sink.events.push({ name: frame.name as EventName, payload: frame.payload, life, at: Date.now() });
    else if (frame.id !== null) {
      pending.get(frame.id)?.(frame.result);
      pending.delete(frame.id);
    }
  });
  // What the page's bridge answers a call the link dropped (src-main/web/page/bridge.js).
  ws.on('close', () => {
    for (const [id, done] of pending) {
      pending.delete(id);
      done({ ok: false, error: { kind: 'unknown_outcome', message: 'the link was lost before the answer' } });
    }
  });
  ws.on('error', () => undefined);
  const send = (channel: string, input?: unknown) => {
    const id = nextId++;
    const reply = new Promise<IpcResult<unknown>>((r) => pending.set(id, r));
    return new Promise<{ reply: Promise<IpcResult<unknown>> }>((resolve, reject) =>
      ws.send(JSON.stringify(input === undefined ? { id, channel } : { id, channel, input }), (err) =>
        err ? reject(err) : resolve({ reply }),
      ),
    );
  };
  return {
    send,
    invoke: async (channel, input) => (await send(channel, input)).reply,
    close: () => ws.terminate(),
  };
}
