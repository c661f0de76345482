// Fuzz: 10,000 mutated gateway answers through the gateway client's parsers, 10,000 random IPC
// payloads through the core's router, and 10,000 random WebSocket frames at the paper gateway's feed
// and at the browser-mode bridge. Every case must come back as a typed error or a parsed value:
// nothing thrown, nothing left unanswered, the servers still answering at the end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { DEFAULT_SETTINGS } from '../../src-main/contract/index.js';
import { CHANNEL_NAME_LIST } from '../../src-main/shared/ipc-names.js';
import { createGatewayClient, type GatewayClient } from '../../src-main/gateway/index.js';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import { createWsBridge } from '../../src-main/web/ws-bridge.js';
import { LIMITS, startCore } from '../../test/support/core-harness.js';
import { startStressPaper } from '../lib/paper.js';
import { mutate, mutationCase } from '../lib/mutate.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

const CASES = Number(process.env.STRESS_FUZZ_CASES ?? 10_000);
/** The order the gateway samples place and the `orders.place` cases start from. */
const SBIN_LIMIT_BUY = {
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 1,
  pricetype: 'LIMIT',
  price: 700,
  product: 'MIS',
};

const GATEWAY_ERROR_KINDS = new Set([
  'bad_input',
  'unauthorised',
  'forbidden',
  'not_offered',
  'rate_limited',
  'server',
  'network',
  'timeout',
  'bad_response',
  'unknown_outcome',
  'no_key',
  'secret_store',
  'queued',
]);

/** A typed answer: a value, or an error with a kind (and a message) — never anything else. */
function typedResult(r: unknown, kinds?: Set<string>): boolean {
  if (typeof r !== 'object' || r === null) return false;
  const { ok, error } = r as { ok?: unknown; error?: { kind?: unknown; message?: unknown } };
  if (ok === true) return true;
  if (ok !== false || typeof error !== 'object' || error === null) return false;
  return (
    typeof error.kind === 'string' && typeof error.message === 'string' && (!kinds || kinds.has(error.kind))
  );
}

interface Sample {
  op: string;
  input: unknown;
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

/** Calls the client made over real HTTP to the paper gateway, each answer recorded as a sample. */
async function recordSamples(url: string, key: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  let current: { op: string; input: unknown } | undefined;
  const client = createGatewayClient({
    baseUrl: url,
    getApiKey: () => key,
    rateLimit: 0,
    retry: { maxRetries: 0 },
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (current && json !== undefined)
        samples.push({
          ...current,
          status: res.status,
          headers: { 'content-type': 'application/json' },
          json,
        });
      return new Response(text, { status: res.status, headers: res.headers });
    },
  });
  const place = { ...SBIN_LIMIT_BUY, strategy: 'fuzz' };
  const calls: [string, unknown][] = [
    ['orderbook', undefined],
    ['tradebook', undefined],
    ['positionbook', undefined],
    ['holdings', undefined],
    ['funds', undefined],
    ['placeorder', place],
    ['placeorder', { ...place, symbol: 'NOSUCH' }],
    ['quotes', { exchange: 'NSE', symbol: 'SBIN' }],
    ['depth', { exchange: 'NSE', symbol: 'SBIN' }],
    ['symbol', { exchange: 'NSE', symbol: 'SBIN' }],
    ['search', { query: 'SBI', exchange: 'NSE' }],
    [
      'multiquotes',
      {
        symbols: [
          { exchange: 'NSE', symbol: 'SBIN' },
          { exchange: 'NSE', symbol: 'ITC' },
        ],
      },
    ],
    ['intervals', undefined],
    ['ping', undefined],
  ];
  for (const [op, input] of calls) {
    current = { op, input };
    await (client as unknown as Record<string, (i: unknown) => Promise<unknown>>)[op]?.(input);
  }
  // The order just placed: its status, a modify and a cancel, with their real answers.
  const book = samples.find((s) => s.op === 'placeorder')?.json as { orderid?: string } | undefined;
  if (book?.orderid) {
    const orderid = book.orderid;
    for (const [op, input] of [
      ['orderstatus', { orderid, strategy: 'fuzz' }],
      ['modifyorder', { ...place, orderid, price: 701, trigger_price: 0, disclosed_quantity: 0 }],
      ['cancelorder', { orderid, strategy: 'fuzz' }],
      ['orderbook', undefined],
    ] as [string, unknown][]) {
      current = { op, input };
      await (client as unknown as Record<string, (i: unknown) => Promise<unknown>>)[op]?.(input);
    }
  }
  // A month of daily bars: as real as a year's, without making every ticker case a 250 KB parse.
  const ticker = {
    exchange: 'NSE',
    symbol: 'SBIN',
    interval: 'D',
    from: '2026-10-15',
    to: '2026-11-19',
  } as const;
  current = { op: 'ticker', input: ticker };
  await client.ticker(ticker);
  return samples;
}

async function fuzzGatewayAnswers(ctx: SuiteContext, samples: Sample[]): Promise<void> {
  const STATUSES = [200, 200, 200, 200, 400, 401, 403, 404, 429, 500, 502, 503];
  const cases = fc.sample(
    fc.tuple(mutationCase(samples.length), fc.nat({ max: STATUSES.length - 1 }), fc.boolean()),
    {
      seed: ctx.seed,
      numRuns: CASES,
    },
  );
  let parsed = 0;
  let typedErrors = 0;
  let crashes = 0;
  let firstCrash = '';
  const realRefused: string[] = [];
  for (const [c, statusIndex, keepStatus] of cases) {
    const sample = samples[c.sample];
    if (!sample) continue;
    const body = mutate(sample.json, c);
    const status = keepStatus ? sample.status : (STATUSES[statusIndex] ?? 200);
    const client: GatewayClient = createGatewayClient({
      baseUrl: 'http://127.0.0.1:9',
      getApiKey: () => 'fuzz-key-0000000000000000',
      rateLimit: 0,
      retry: { maxRetries: 0 },
      fetch: async () => new Response(body, { status, headers: sample.headers }),
    });
    try {
      const r =
        sample.op === 'ticker'
          ? await client.ticker(sample.input as Parameters<GatewayClient['ticker']>[0])
          : await (client as unknown as Record<string, (i: unknown) => Promise<unknown>>)[sample.op]?.(
              sample.input,
            );
      if (!typedResult(r, GATEWAY_ERROR_KINDS))
        throw new Error(`untyped answer ${JSON.stringify(r)?.slice(0, 200)}`);
      if ((r as { ok: boolean }).ok) parsed++;
      else typedErrors++;
      // A real 2xx answer left as it was must parse: a parser that refuses everything is no parser.
      if (c.mutation === 'as-is' && keepStatus && sample.status === 200 && !(r as { ok: boolean }).ok)
        realRefused.push(`${sample.op}: ${JSON.stringify(r).slice(0, 160)}`);
    } catch (err) {
      crashes++;
      firstCrash ||= `${sample.op} ${c.mutation} ${status}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  ctx.figure(
    'gateway answers: samples recorded',
    `${samples.length} (${samples.map((s) => s.op).join(', ')})`,
  );
  ctx.note(`sample sizes: ${samples.map((s) => `${s.op} ${JSON.stringify(s.json).length}`).join(', ')}`);
  ctx.figure('gateway answers: cases', cases.length);
  ctx.figure('gateway answers: parsed / typed errors / crashes', `${parsed} / ${typedErrors} / ${crashes}`);
  ctx.check('every mutated gateway answer parsed or a typed error', crashes === 0, firstCrash);
  ctx.check('every real success answer, unmutated, parsed', realRefused.length === 0, realRefused[0]);
}

/** Valid inputs to mutate, so that a share of the cases get past the first check of their channel. */
const VALID_INPUTS: Partial<Record<(typeof CHANNEL_NAME_LIST)[number], unknown>> = {
  'orders.place': SBIN_LIMIT_BUY,
  'orders.cancel': { orderid: '1' },
  'orders.status': { orderid: '1' },
  'market.quotes': { exchange: 'NSE', symbol: 'SBIN' },
  'market.depth': { exchange: 'NSE', symbol: 'SBIN' },
  'market.search': { query: 'SBI', exchange: 'NSE' },
  'settings.update': { risk: { maxQuantityPerOrder: 100 } },
  'journal.query': { limit: 10, order: 'desc' },
  'watcher.setVisibility': { visible: true },
};

/** Channels left out: they end the core's use of its key or profile, which the rest of the run needs. */
const SPARED = new Set(['apiKey.clear', 'apiKey.set', 'profiles.remove', 'profiles.switch']);

async function fuzzRouter(
  ctx: SuiteContext,
  invoke: (channel: string, input: unknown) => Promise<unknown>,
): Promise<void> {
  const channels = [...CHANNEL_NAME_LIST.filter((c) => !SPARED.has(c)), 'no.such.channel', '', '__proto__'];
  const validKeys = Object.keys(VALID_INPUTS);
  const arb = fc.oneof(
    fc.record({ channel: fc.constantFrom(...channels), input: fc.anything({ maxDepth: 3 }) }),
    fc.tuple(fc.constantFrom(...validKeys), mutationCase(1)).map(([channel, c]) => {
      const text = mutate(VALID_INPUTS[channel as keyof typeof VALID_INPUTS], c);
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch {
        input = text;
      }
      return { channel, input };
    }),
  );
  const cases = fc.sample(arb, { seed: ctx.seed + 1, numRuns: CASES });
  let ok = 0;
  let typed = 0;
  let crashes = 0;
  let firstCrash = '';
  for (const c of cases) {
    try {
      const r = await invoke(c.channel, c.input);
      if (!typedResult(r)) throw new Error(`untyped answer ${JSON.stringify(r)?.slice(0, 200)}`);
      if ((r as { ok: boolean }).ok) ok++;
      else typed++;
    } catch (err) {
      crashes++;
      firstCrash ||= `${c.channel}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  ctx.figure('IPC payloads: cases', cases.length);
  ctx.figure('IPC payloads: ok / typed errors / crashes', `${ok} / ${typed} / ${crashes}`);
  ctx.check('every random IPC payload answered ok or with a typed error', crashes === 0, firstCrash);
}

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

async function fuzzPaperFeed(ctx: SuiteContext, feedUrl: string, key: string): Promise<void> {
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

async function fuzzBridge(
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

export const suite: StressSuite = {
  name: 'fuzz',
  description: `${CASES} cases each: gateway answers, IPC payloads, paper feed frames, bridge frames`,
  async run(ctx) {
    const paper = await startStressPaper();
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, priceBandPercent: 0 } });
      await h.core.pollNow();
      const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
      if (!key) throw new Error('the core made no paper key');

      let t = performance.now();
      const samples = await recordSamples(paper.gw.url, key);
      await fuzzGatewayAnswers(ctx, samples);
      ctx.figure('gateway answers: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);

      t = performance.now();
      await fuzzRouter(ctx, (channel, input) => h.core.router.invoke(channel as never, input as never));
      ctx.figure('IPC payloads: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);
      // The core still answers, on the settings it had or on a valid change the fuzz made.
      const after = await h.core.router.invoke('settings.get', undefined);
      ctx.check(
        'the core still answers after the IPC fuzz',
        after.ok && typeof after.value.risk === typeof DEFAULT_SETTINGS.risk,
      );

      t = performance.now();
      await fuzzPaperFeed(ctx, `${paper.gw.url.replace(/^http/, 'ws')}/ws`, key);
      ctx.figure('paper feed frames: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);

      t = performance.now();
      await fuzzBridge(ctx, h.core);
      ctx.figure('bridge frames: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);
    } finally {
      await h.stop();
      await paper.stop();
    }
  },
};
