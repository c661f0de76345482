// Starts an embedded paper gateway for a test file: temp data dir, port 0, ManualClock at a fixed
// IST time so prices and bars are deterministic. Returns small fetch helpers over real HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../../src-main/paper/auth/key-store.js';
import { ManualClock } from '../../src-main/paper/market/index.js';
import {
  startPaperGateway,
  type PaperGateway,
  type PaperGatewayOptions,
} from '../../src-main/paper/gateway.js';
import { useStarted } from './use-started.js';

/** 2026-11-20 10:00 IST, a Friday. */
export const FIXED_NOW_MS = Date.parse('2026-11-20T10:00:00+05:30');

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  /** `json` as a record (empty when not an object) for terse assertions. */
  body: Record<string, unknown>;
}

export interface TestGateway {
  url: string;
  apiKey: string;
  clock: ManualClock;
  gateway: PaperGateway;
  dataDir: string;
  /** POST JSON (objects are serialised; strings are sent as the raw body). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  get(path: string, headers?: Record<string, string>): Promise<HttpResult>;
  request(path: string, init: RequestInit): Promise<HttpResult>;
  /** A fresh API key added to the gateway's store, i.e. a new account. */
  newKey(): string;
  stop(): Promise<void>;
}

export type TestGatewayOptions = Partial<Omit<PaperGatewayOptions, 'clock'>> & { nowMs?: number };

async function toResult(res: Response): Promise<HttpResult> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body =
    typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  return { status: res.status, headers: res.headers, text, json, body };
}

export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'paper-gw-'));
  const clock = new ManualClock(opts.nowMs ?? FIXED_NOW_MS);
  const gateway = await startPaperGateway({
    seed: 7,
    rateLimits: { api: 10_000, order: 10_000, smart: 10_000, ticker: 10_000, expiry: 10_000 },
    ...opts,
    dataDir,
    clock,
  });
  if (gateway.apiKey === undefined) throw new Error('test gateway started without a usable API key');
  const apiKey = gateway.apiKey;
  const request = async (path: string, init: RequestInit) => toResult(await fetch(gateway.url + path, init));
  return {
    url: gateway.url,
    apiKey,
    clock,
    gateway,
    dataDir,
    request,
    post: (path, body, headers = {}) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path, headers = {}) => request(path, { method: 'GET', headers }),
    newKey() {
      const key = generateApiKey();
      gateway.keys.add(key);
      return key;
    },
    async stop() {
      await gateway.stop();
      if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A gateway started before the tests of the calling file (or describe block) and stopped after them. */
export function useTestGateway(opts: TestGatewayOptions = {}): TestGateway {
  return useStarted(() => startTestGateway(opts));
}
