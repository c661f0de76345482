// The fuzz suite's socket part: random WebSocket frames at the paper gateway's feed and at the
// browser-mode bridge; each must be answered with a typed error or a value, and the server must
// still answer at the end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import { createWsBridge } from '../../src-main/web/ws-bridge.js';
import { mutate, mutationCase } from './mutate.js';
import type { SuiteContext } from './suite.js';
import { CASES, typedResult } from './fuzz-cases.js';

/** Arbitrary WebSocket frames: garbage text and binary, random JSON, and mutations of real messages. */
function frames(seed: number, valid: unknown[]) {
  const arb = fc.oneof(
    fc.string({ maxLength: 200 }).map((text) => ({ data: text as string | Buffer, binary: false })),
    fc.uint8Array({ maxLength: 200 }).map((b) => ({ data: Buffer.from(b) as string | Buffer, binary: true })),
    fc.jsonValue({ maxDepth: 3 }).map((v) => ({ data: JSON.stringify(v) as string | Buffer, binary: false })),
    fc
      .tuple(fc.nat({ max: valid.length - 1 }), mutationCase(valid.length))
      .map(([i, c]) => ({ data: mutate(valid[i], c) as string | Buffer, binary: false })),
  );
  return fc.sample(arb, { seed, numRuns: CASES });
}

/** Opens a socket and hands back a way to send a frame and wait for the next frame `isAnswer` accepts. */
async function openSocket(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let waiting: ((text: string) => void) | undefined;
  const inbox: string[] = [];
  ws.on('message', (data) => {
    const text = String(data);
    if (waiting) waiting(text);
    else inbox.push(text);
  });
  return {
    ws,
    /** The next message accepted by `isAnswer`, or undefined after `ms`, or when the socket closes. */
    next(isAnswer: (text: string) => boolean, ms = 2000): Promise<string | undefined> {
      const queued = inbox.findIndex(isAnswer);
      if (queued >= 0) return Promise.resolve(inbox.splice(0, queued + 1).at(-1));
      inbox.length = 0;
      return new Promise((resolve) => {
        const done = (text: string | undefined) => {
          clearTimeout(timer);
          waiting = undefined;
          ws.off('close', onClose);
          resolve(text);
        };
        const timer = setTimeout(() => done(undefined), ms);
        const onClose = () => done(undefined);
        ws.once('close', onClose);
        waiting = (text) => {
          if (isAnswer(text)) done(text);
        };
      });
    },
    close: () => ws.close(),
  };
}

export async function fuzzPaperFeed(ctx: SuiteContext, feedUrl: string, key: string): Promise<void> {
  const valid = [
    { action: 'authenticate', api_key: key },
    { action: 'subscribe', symbols: [{ exchange: 'NSE', symbol: 'SBIN' }], mode: 'LTP' },
    { action: 'unsubscribe', symbols: [{ exchange: 'NSE', symbol: 'SBIN' }], mode: 'LTP' },
    { action: 'subscribe_orders' },
    { action: 'unsubscribe_orders' },
    { action: 'ping' },
  ];
  const cases = frames(ctx.seed + 2, valid);
  // Streamed data is not an answer to a frame; everything else is.
  const isAnswer = (t: string) => !/"type"\s*:\s*"(market_data|order_update)"/.test(t);
  let answered = 0;
  let unanswered = 0;
  let untyped = 0;
  let closes = 0;
  let firstProblem = '';
  const connect = async () => {
    const s = await openSocket(feedUrl);
    s.ws.send(JSON.stringify({ action: 'authenticate', api_key: key }));
    await s.next(isAnswer);
    return s;
  };
  let s = await connect();
  for (const f of cases) {
    if (s.ws.readyState !== WebSocket.OPEN) {
      closes++;
      s = await connect();
    }
    s.ws.send(f.data, { binary: f.binary });
    const reply = await s.next(isAnswer, 1000);
    if (reply === undefined) {
      if (s.ws.readyState === WebSocket.OPEN) {
        unanswered++;
        firstProblem ||= `no answer to ${String(f.data).slice(0, 80)}`;
      }
      continue;
    }
    answered++;
    let body: unknown;
    try {
      body = JSON.parse(reply);
    } catch {
      body = undefined;
    }
    const b = body as { status?: unknown; code?: unknown; type?: unknown } | undefined;
    // An error is typed by its code, or (OpenAlgo's unsubscribe / subscribe summaries) by its type;
    // SERVER_ERROR is the feed's word for an exception in its own handler.
    const typed =
      b !== undefined &&
      b.code !== 'SERVER_ERROR' &&
      (b.status === 'error' ? typeof b.code === 'string' || typeof b.type === 'string' : true);
    if (!typed) {
      untyped++;
      firstProblem ||= `untyped answer ${reply.slice(0, 120)} to ${String(f.data).slice(0, 80)}`;
    }
  }
  // Still serving: a fresh client authenticates and gets its pong.
  const probe = await connect();
  probe.ws.send(JSON.stringify({ action: 'ping' }));
  const pong = await probe.next(isAnswer);
  probe.close();
  s.close();
  ctx.figure('paper feed frames: cases', cases.length);
  ctx.figure(
    'paper feed frames: answered / unanswered / untyped',
    `${answered} / ${unanswered} / ${untyped}`,
  );
  ctx.figure('paper feed frames: connections closed by the server', closes);
  ctx.check(
    'every frame at the paper feed answered with a typed error or a value, the feed still up',
    unanswered === 0 && untyped === 0 && pong !== undefined,
    firstProblem || 'no pong at the end',
  );
}

export async function fuzzBridge(
  ctx: SuiteContext,
  target: Parameters<ReturnType<typeof createWsBridge>['bind']>[0],
): Promise<void> {
  const logger = createMemoryLogger();
  const bridge = createWsBridge({ logger });
  bridge.bind(target);
  const server: Server = createServer((_, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) =>
    bridge.server.handleUpgrade(req, socket, head, (ws) => bridge.server.emit('connection', ws, req)),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const valid = [
    { id: 1, channel: 'settings.get' },
    { id: 2, channel: 'books.orders' },
    { id: 3, channel: 'journal.query', input: { limit: 5 } },
    { id: 4, channel: 'market.quotes', input: { exchange: 'NSE', symbol: 'SBIN' } },
  ];
  const cases = frames(ctx.seed + 3, valid);
  const isReply = (t: string) => t.startsWith('{"type":"reply"');
  let answered = 0;
  let unanswered = 0;
  let untyped = 0;
  let firstProblem = '';
  let s = await openSocket(url);
  let closes = 0;
  try {
    for (const f of cases) {
      if (s.ws.readyState !== WebSocket.OPEN) {
        closes++;
        s = await openSocket(url);
      }
      s.ws.send(f.data, { binary: f.binary });
      const reply = await s.next(isReply, 5000);
      if (reply === undefined) {
        unanswered++;
        firstProblem ||= `no reply to ${String(f.data).slice(0, 80)}`;
        continue;
      }
      answered++;
      const r = JSON.parse(reply) as { result?: unknown };
      if (!typedResult(r.result)) {
        untyped++;
        firstProblem ||= `untyped reply ${reply.slice(0, 120)}`;
      }
    }
  } finally {
    s.close();
    await bridge.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
  const internal = logger.entries.filter((e) => e.level === 'error').length;
  ctx.figure('bridge frames: cases', cases.length);
  ctx.figure('bridge frames: answered / unanswered / untyped', `${answered} / ${unanswered} / ${untyped}`);
  ctx.figure('bridge frames: internal errors logged', internal);
  ctx.figure('bridge frames: connections closed by the host', closes);
  ctx.check(
    'every frame at the bridge answered with a typed reply, no internal error',
    unanswered === 0 && untyped === 0 && internal === 0,
    firstProblem || `${internal} internal error(s)`,
  );
}
