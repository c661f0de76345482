// The fuzz suite's gateway part: real answers of the paper gateway recorded as samples, then
// mutated and fed through the gateway client's parsers; each must parse or come back as a typed
// error.
import fc from 'fast-check';
import { createGatewayClient, type GatewayClient } from '../../src-main/gateway/index.js';
import { mutate, mutationCase } from './mutate.js';
import type { SuiteContext } from './suite.js';
import { CASES, SBIN_LIMIT_BUY, typedResult } from './fuzz-cases.js';

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

export interface Sample {
  op: string;
  input: unknown;
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

/** Calls the client made over real HTTP to the paper gateway, each answer recorded as a sample. */
export async function recordSamples(url: string, key: string): Promise<Sample[]> {
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

export async function fuzzGatewayAnswers(ctx: SuiteContext, samples: Sample[]): Promise<void> {
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
