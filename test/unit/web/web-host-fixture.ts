// The shared setup of the web-host-*.test.ts files: the web host in-process over real HTTP and
// WebSocket, bound to a fake core, with helpers for plain requests and bridge sockets.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import {
  BridgeHostFrame,
  type EventName,
  type EventPayload,
  type IpcResult,
} from '../../../src-main/contract/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { startWebHost, type WebHost } from '../../../src-main/web/web-host.js';
import { createWsBridge, type BridgeTarget } from '../../../src-main/web/ws-bridge.js';

type AnyListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** A core stand-in: records calls; `hold` keeps answers back until released. */
export function fakeCore() {
  const calls: { channel: string; input: unknown }[] = [];
  const listeners = new Set<AnyListener>();
  let held: (() => void)[] | undefined;
  let concurrent = 0;
  let maxConcurrent = 0;
  const target: BridgeTarget = {
    router: {
      async invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
        calls.push({ channel, input });
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        try {
          if (held) await new Promise<void>((r) => held!.push(r));
          if (channel === 'boom') throw new Error('secret detail');
          // A value JSON cannot carry: the reply must still go out (as an error), the host must live.
          if (channel === 'bigint') return { ok: true, value: { n: 1n } };
          if (channel === 'market.watch') return { ok: true, value: { id: `w${calls.length}` } };
          if (channel === 'market.unwatch' || channel === 'watcher.setVisibility')
            return { ok: true, value: input };
          if (channel !== 'settings.get')
            return { ok: false, error: { kind: 'invalid_input', message: `unknown channel "${channel}"` } };
          return { ok: true, value: { echo: input ?? null } };
        } finally {
          concurrent--;
        }
      },
    },
    events: {
      onAny(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
  };
  return {
    target,
    calls,
    emit<E extends EventName>(name: E, payload: EventPayload<E>) {
      for (const l of listeners) l(name, payload);
    },
    hold() {
      held = [];
    },
    release() {
      const h = held ?? [];
      held = undefined;
      for (const r of h) r();
    },
    maxConcurrent: () => maxConcurrent,
  };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export const dir = mkdtempSync(join(tmpdir(), 'web-host-'));
export const rendererDir = join(dir, 'renderer');
export const core = fakeCore();
export const logger = createMemoryLogger();
export const bridge = createWsBridge({ logger });
export let host: WebHost;
export let cookie = '';

/** Holds the session cookie the token was exchanged for, for the tests after it. */
export function keepSession(value: string): void {
  cookie = value;
}

/**
 * Starts the host over a scratch renderer build before the file's tests and stops it after them;
 * `signedIn` exchanges the host's token for the session cookie first.
 */
export function useWebHost({ signedIn }: { signedIn: boolean }): void {
  beforeAll(async () => {
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    copyFileSync(
      new URL('../../../src-renderer/index.html', import.meta.url),
      join(rendererDir, 'index.html'),
    );
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'outside.txt'), 'not served');
    bridge.bind(core.target);
    host = await startWebHost({ bridge, rendererDir, port: 0, logger });
    if (signedIn) {
      const first = await get(host.port, `/?token=${new URL(host.url).searchParams.get('token')}`);
      keepSession((first.headers['set-cookie']?.[0] ?? '').split(';')[0]!);
    }
  });
  afterAll(async () => {
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
}

export function connect(headers: Record<string, string> = { Cookie: cookie, Origin: host.origin }) {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, { headers });
  const frames: BridgeHostFrame[] = [];
  ws.on('message', (d) => frames.push(BridgeHostFrame.parse(JSON.parse(String(d)))));
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const replyTo = async (id: number | null, count = 1): Promise<BridgeHostFrame[]> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const got = frames.filter((f) => f.type === 'reply' && f.id === id);
      if (got.length >= count) return got;
      if (Date.now() > deadline) throw new Error(`no reply to ${id}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { ws, frames, opened, replyTo };
}
