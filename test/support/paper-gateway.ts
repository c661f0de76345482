// Starts an embedded paper gateway for a test file: temp data dir, port 0, ManualClock at a fixed
// IST time so prices and bars are deterministic. Returns small fetch helpers over real HTTP;
// useEngineGateway also hands back the order engine, for ledger checks and driving matching.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../../src-main/paper/auth/key-store.js';
import { engineExtension } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import type { Instrument } from '../../src-main/paper/instruments/instrument.js';
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
  /** POST /api/v1/<path> with `key` as the body's apikey, as every OpenAlgo call sends it. */
  api(path: string, key: string, fields?: Record<string, unknown>): Promise<HttpResult>;
  /** An instrument of the master; throws when there is none (the test named it wrong). */
  instrument(exchange: string, symbol: string): Instrument;
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
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    url: gateway.url,
    apiKey,
    clock,
    gateway,
    dataDir,
    request,
    post,
    api: (path, key, fields = {}) => post(`/api/v1/${path}`, { apikey: key, ...fields }),
    instrument(exchange, symbol) {
      const i = gateway.master.get(exchange, symbol);
      if (!i) throw new Error(`no ${exchange}:${symbol}`);
      return i;
    },
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

export interface EngineTestGateway extends TestGateway {
  engine: PaperTradingEngine;
}

/** A test gateway with its order engine (the default extension, built here) handed back. */
export async function startEngineGateway(
  opts: Omit<TestGatewayOptions, 'extensions'> = {},
): Promise<EngineTestGateway> {
  let engine: PaperTradingEngine | undefined;
  const gw = await startTestGateway({
    ...opts,
    extensions: [engineExtension({ onEngine: (e) => (engine = e) })],
  });
  if (!engine) throw new Error('the engine extension did not hand over its engine');
  return { ...gw, engine };
}

/** startEngineGateway before the tests of the calling file (or describe block), stopped after them. */
export function useEngineGateway(opts: Omit<TestGatewayOptions, 'extensions'> = {}): EngineTestGateway {
  return useStarted(() => startEngineGateway(opts));
}

/** A price on the instrument's tick, to the 4 decimals the gateway keeps. */
export function tickRound(i: Instrument, price: number): number {
  return Number((Math.round(price / i.tickSize) * i.tickSize).toFixed(4));
}
