// The paper gateway in a worker thread (its own V8 isolate and heap) for the soak: the session's
// heap figure is then the core's alone. Its clock follows the session's (shared-clock.ts); the
// session sends a message per step and the thread answers with the quotes the ticket actions need.
import { parentPort, workerData } from 'node:worker_threads';
import { engineExtension } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import { startPaperGateway } from '../../src-main/paper/gateway.js';
import { FollowingClock } from './shared-clock.js';

export interface PaperThreadData {
  dataDir: string;
  time: SharedArrayBuffer;
  symbols: readonly string[];
  /** The engine's matching period on the session's clock (its own ticker is wall-clock). */
  engineTickMs: number;
}

export type Quotes = Record<string, { tickSize: number; ltp: number }>;
export type ToThreadBody = { kind: 'addKey'; key: string } | { kind: 'step' | 'stop' };
export type ToThread = ToThreadBody & { id: number };
export type FromThread =
  | { kind: 'ready'; url: string; feedUrl: string; quotes: Quotes }
  | { kind: 'done'; id: number; quotes: Quotes }
  | { kind: 'failed'; id?: number; message: string };

const port = parentPort!;
const data = workerData as PaperThreadData;
const clock = new FollowingClock(new Float64Array(data.time));

async function main(): Promise<void> {
  let engine: PaperTradingEngine | undefined;
  const gateway = await startPaperGateway({
    dataDir: data.dataDir,
    clock,
    seed: 11,
    logger: false,
    extensions: [engineExtension({ onEngine: (e) => (engine = e) })],
  });
  const matching = engine;
  if (!matching) throw new Error('the paper engine was not built');
  let stopTicks = clock.setTimer(function tick() {
    matching.tick();
    stopTicks = clock.setTimer(tick, data.engineTickMs);
  }, data.engineTickMs);
  const quotes = (): Quotes => {
    const q: Quotes = {};
    for (const symbol of data.symbols) {
      const i = gateway.master.get('NSE', symbol);
      if (i) q[symbol] = { tickSize: i.tickSize, ltp: gateway.market.lastPrice(i) };
    }
    return q;
  };
  port.on('message', (m: ToThread) => {
    const answer = async (): Promise<void> => {
      if (m.kind === 'addKey') gateway.keys.add(m.key);
      else if (m.kind === 'step') await clock.catchUp();
      else {
        stopTicks();
        await gateway.stop();
      }
      port.postMessage({ kind: 'done', id: m.id, quotes: quotes() } satisfies FromThread);
    };
    answer().catch((e: unknown) =>
      port.postMessage({ kind: 'failed', id: m.id, message: String(e) } satisfies FromThread),
    );
  });
  port.postMessage({
    kind: 'ready',
    url: gateway.url,
    feedUrl: gateway.feedUrl,
    quotes: quotes(),
  } satisfies FromThread);
}

main().catch((e: unknown) => port.postMessage({ kind: 'failed', message: String(e) } satisfies FromThread));
