// Over 300 lines: every gateway operation's method shares one send path, rate budget and key read.
// The gateway client: one method per operation of the contract's OPERATIONS table (method-table.ts).
// Inputs are validated before anything is sent, the key is read per call and only ever put in the body
// (or the ticker's X-API-KEY header), answers are parsed with the contract's tolerant schemas
// (answer.ts), and every failure is a GatewayError value. Mutations are never retried (architecture
// rule 4); all calls share one rate budget with the order path first (rule 5), whose windows are the
// gateway's limiter classes (limiter-classes.ts: order mutations, smart orders, the rest):
// `withPriority` gives a view of the same client whose reads go in another lane of their window (an
// order's risk reads ahead, polling behind).
import { z } from 'zod';
import {
  EXCHANGES,
  InstrumentsQuery,
  InstrumentsResponse,
  OPERATIONS,
  TickerQuery,
  TickerResponse,
  errorMessage,
  oneOf,
  text as textField,
  type OperationName,
  type ResponseOf,
} from '../contract/index.js';
import { interpret, parseJson, type AnswerMemory, type OpSpec, type Parser } from './answer.js';
import { sleep, systemClock, type Clock } from './clock.js';
import { describeIssues, numbersAsStrings } from './encode.js';
import { fail, notOfferedMessage, ok, type GatewayError, type GatewayResult } from './errors.js';
import { searchAnswerAsIs, tickerAnswerAsIs } from './fast-answers.js';
import { exchange, type FetchFn, type HttpRequest } from './http.js';
import { nodeHttpFetch } from './node-http.js';
import { LIMITER_CLASS_OF_OPERATION } from './limiter-classes.js';
import { operationMethods, type GatewayMethods, type Input, type PostOperation } from './method-table.js';
import { RateBudget, type Priority } from './rate-budget.js';
import { redact } from './redact.js';
import { parseTickerText } from './ticker-text.js';

export type { GatewayMethods } from './method-table.js';

export interface GatewayClientOptions {
  baseUrl: string;
  /**
   * Read on every call, so a changed or removed key takes effect at once and is never cached here.
   * `{ withheld }`: there is a key but it must not go to this gateway; the words say why (no_key).
   */
  getApiKey: () => Promise<ApiKeyLookup> | ApiKeyLookup;
  /** The HTTP transport; default: node:http with a keep-alive agent per client (node-http.ts). */
  fetch?: FetchFn;
  /** One value for both kinds, or per kind. Defaults: reads 10 s, mutations 15 s. */
  timeoutMs?: number | { read?: number; mutation?: number };
  /**
   * Requests per second in each of the gateway's limiter classes (order mutations, smart orders, the
   * rest); default 10, the gateway's default for each.
   */
  rateLimit?: number;
  clock?: Clock;
  retry?: {
    /** Retries of a failed read (default 2); mutations are never retried. */
    maxRetries?: number;
    /** First backoff step (default 250 ms), doubled per attempt, with full jitter. */
    baseDelayMs?: number;
    /** A read waits at most this long before a retry (default 5 s); a longer retry_after is returned. */
    maxWaitMs?: number;
  };
  /** Source of jitter, in [0, 1). */
  random?: () => number;
  /**
   * Called when an answer (success or error) carries top-level `mode: "analyze"`: the gateway is in
   * analyze mode, a sandbox (gateway-behaviour, "Live server, recorded").
   */
  onAnalyzeMode?: () => void;
}

/** What the key source answers: the key, none, or one withheld from this gateway (and why). */
export type ApiKeyLookup = string | undefined | { withheld: string };

/** The budget's api window: the one polling shares with the trader's and the orders' reads. */
export interface BudgetLoad {
  /** Requests that could start at once; Infinity when the budget is disabled. */
  free: number;
  /** Callers queued for the window. */
  waiting: number;
  /** Requests per second the window allows (0 or Infinity: no budget). */
  limit: number;
}

export interface TickerInput {
  exchange: string;
  symbol: string;
  interval?: z.input<typeof TickerQuery>['interval'];
  /** `YYYY-MM-DD` or a millisecond timestamp. */
  from?: string;
  to?: string;
  adjusted?: boolean;
  sort?: 'asc' | 'desc';
  /** `txt` answers are parsed into the same bars as `json` ones. */
  format?: 'json' | 'txt';
}

export interface GatewayClient extends GatewayMethods {
  ticker(input: TickerInput): Promise<GatewayResult<ResponseOf<'ticker'>>>;
  /** GET /instruments (JSON), all exchanges or one; the key in the X-API-KEY header, never the URL. */
  instruments(input?: { exchange?: string }): Promise<GatewayResult<ResponseOf<'instruments'>>>;
  /** The same as the named method. */
  call<N extends PostOperation>(name: N, input: Input<N>): Promise<GatewayResult<ResponseOf<N>>>;
  /** Operations this gateway answered 404 for (route missing); they now fail without a request. */
  notOffered(): OperationName[];
  /** The budget's api window now (polls count there), so background polling can leave room for orders. */
  load(): BudgetLoad;
  /**
   * The same client (budget, cooldowns, what it learnt) with its reads in `lane`; mutations always go
   * in the mutation lane.
   */
  withPriority(lane: ReadPriority): GatewayClient;
}

/** The lanes a read may go in. */
export type ReadPriority = Exclude<Priority, 'mutation'>;

const PLACEHOLDER_KEY = 'placeholder-key';
const TickerInputSchema = z.object({
  exchange: oneOf('exchange', EXCHANGES),
  symbol: textField('symbol', 64),
  ...TickerQuery.omit({ apikey: true }).shape,
});

/** Whether an answer's text is a JSON object with top-level `mode: "analyze"`. */
function saysAnalyzeMode(text: string): boolean {
  if (!text.includes('"analyze"')) return false;
  const json = parseJson(text);
  return json !== null && typeof json === 'object' && (json as { mode?: unknown }).mode === 'analyze';
}

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  // node:http with keep-alive unless told otherwise (gateway/node-http.ts: why not the global fetch).
  const fetchFn = options.fetch ?? nodeHttpFetch();
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeouts =
    typeof options.timeoutMs === 'number'
      ? { read: options.timeoutMs, mutation: options.timeoutMs }
      : { read: options.timeoutMs?.read ?? 10_000, mutation: options.timeoutMs?.mutation ?? 15_000 };
  const maxRetries = options.retry?.maxRetries ?? 2;
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxWaitMs = options.retry?.maxWaitMs ?? 5_000;
  const budget = new RateBudget(clock, options.rateLimit ?? 10);
  /** What answers taught: routes missing, per-path cooldowns after a 429 (answer.ts). */
  const memory: AnswerMemory = { missing: new Map(), cooldownUntil: new Map() };
  const { missing, cooldownUntil } = memory;

  async function readKey(): Promise<GatewayResult<string>> {
    try {
      const key = await options.getApiKey();
      if (typeof key === 'object') return fail({ kind: 'no_key', message: key.withheld });
      if (typeof key === 'string' && key.trim() !== '') return ok(key);
      return fail({ kind: 'no_key', message: 'no API key is set for this gateway' });
    } catch (err) {
      return fail({
        kind: 'secret_store',
        message: `the API key could not be read from the key store: ${errorMessage(err)}`,
      });
    }
  }

  function retryable(error: GatewayError): boolean {
    return ['network', 'timeout', 'server', 'rate_limited'].includes(error.kind);
  }

  /** Jittered exponential backoff; a 429's retry_after is a floor. */
  function backoffMs(attempt: number, error: GatewayError): number {
    const jittered = random() * baseDelayMs * 2 ** attempt;
    return error.retryAfter !== undefined ? error.retryAfter * 1000 + jittered : baseDelayMs + jittered;
  }

  /** Budget, send, interpret; reads retry transient failures, mutations go exactly once. */
  async function run<T>(
    name: OperationName,
    spec: OpSpec,
    lane: ReadPriority,
    request: HttpRequest,
    key: string,
    parse: Parser<T>,
  ): Promise<GatewayResult<T>> {
    const timeoutMs = spec.kind === 'mutation' ? timeouts.mutation : timeouts.read;
    const attempts = spec.kind === 'mutation' ? 1 : 1 + Math.max(0, maxRetries);
    let result: GatewayResult<T> | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const wait = (cooldownUntil.get(spec.path) ?? 0) - clock.now();
      if (wait > 0) {
        if (spec.kind === 'mutation' || wait > maxWaitMs) {
          // Nothing is sent while the gateway has asked us to wait.
          return fail({
            kind: 'rate_limited',
            message: `rate limited by the gateway; try again in ${Math.ceil(wait / 1000)} s`,
            retryAfter: Math.ceil(wait / 1000),
          });
        }
        await sleep(clock, wait);
      }
      const release = await budget.acquire(
        LIMITER_CLASS_OF_OPERATION[name],
        spec.kind === 'mutation' ? 'mutation' : lane,
      );
      const ex = await exchange(fetchFn, clock, request, timeoutMs).finally(release);
      if (ex.type === 'answered' && options.onAnalyzeMode && saysAnalyzeMode(ex.text))
        options.onAnalyzeMode();
      const outcome = interpret(name, spec, ex, parse, clock, memory);
      // The gateway may echo what it was sent, in a success answer as in an error: the key (in any
      // case, or a long run of it) travels no further than here.
      if (outcome.ok) return ok(redact(outcome.value, [key]));
      const error = redact(outcome.error, [key]);
      result = fail(error);
      if (!retryable(error) || attempt + 1 >= attempts) return result;
      const delay = backoffMs(attempt, error);
      if (delay > maxWaitMs) return result;
      await sleep(clock, delay);
    }
    return result ?? fail({ kind: 'server', message: 'no attempt was made' });
  }

  function preflight(name: OperationName, spec: OpSpec): GatewayResult<never> | undefined {
    const finder = missing.get(spec.path);
    if (finder !== undefined) {
      return fail({ kind: 'not_offered', message: notOfferedMessage(name), httpStatus: 404 });
    }
    return undefined;
  }

  async function call<N extends PostOperation>(
    name: N,
    input: Input<N> | undefined,
    lane: ReadPriority,
  ): Promise<GatewayResult<ResponseOf<N>>> {
    const spec: OpSpec = OPERATIONS[name];
    const early = preflight(name, spec);
    if (early) return early;
    // Validate before the key is read: a bad ticket never costs a request (architecture rule 3).
    const checked = spec.request.safeParse({ ...(input ?? {}), apikey: PLACEHOLDER_KEY });
    if (!checked.success) return fail({ kind: 'bad_input', message: describeIssues(checked.error) });
    const key = await readKey();
    if (!key.ok) return key;
    const body = JSON.stringify(numbersAsStrings({ ...(checked.data as object), apikey: key.value }));
    const request: HttpRequest = {
      url: `${baseUrl}${spec.path}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
    };
    return run<ResponseOf<N>>(name, spec, lane, request, key.value, (text) => {
      const json = parseJson(text);
      if (json === undefined) return { ok: false, body: undefined, detail: 'not JSON' };
      // A big search answer already in the schema's form is taken as it is (fast-answers.ts).
      const asIs = name === 'search' ? searchAnswerAsIs(json) : undefined;
      if (asIs) return { ok: true, value: asIs as ResponseOf<N> };
      const parsed = spec.response.safeParse(json);
      if (parsed.success) return { ok: true, value: parsed.data as ResponseOf<N> };
      return { ok: false, body: json, detail: describeIssues(parsed.error) };
    });
  }

  async function ticker(
    input: TickerInput,
    lane: ReadPriority,
  ): Promise<GatewayResult<ResponseOf<'ticker'>>> {
    const spec: OpSpec = OPERATIONS.ticker;
    const early = preflight('ticker', spec);
    if (early) return early;
    const { adjusted, ...rest } = input;
    const checked = TickerInputSchema.safeParse({
      ...rest,
      ...(adjusted === undefined ? {} : { adjusted: String(adjusted) }),
    });
    if (!checked.success) return fail({ kind: 'bad_input', message: describeIssues(checked.error) });
    const key = await readKey();
    if (!key.ok) return key;
    const q = checked.data;
    const query = new URLSearchParams({ interval: q.interval });
    if (q.from !== undefined) query.set('from', q.from);
    if (q.to !== undefined) query.set('to', q.to);
    query.set('adjusted', String(q.adjusted));
    query.set('sort', q.sort);
    query.set('format', q.format);
    const request: HttpRequest = {
      // The key goes in the header only: URLs end up in logs and proxies (architecture rule 7).
      url: `${baseUrl}${spec.path}/${encodeURIComponent(q.exchange)}:${encodeURIComponent(q.symbol)}?${query}`,
      method: 'GET',
      headers: { 'X-API-KEY': key.value, accept: q.format === 'txt' ? 'text/plain' : 'application/json' },
    };
    return run<ResponseOf<'ticker'>>('ticker', spec, lane, request, key.value, (text) => {
      // A txt request answered with JSON (a gateway that ignores `format`) is read as JSON.
      let json = parseJson(text);
      if (json === undefined && q.format === 'txt') {
        const lines = parseTickerText(text);
        if ('badLine' in lines)
          return { ok: false, body: undefined, detail: `bad bar on line ${lines.badLine}` };
        json = { status: 'success', data: lines.bars };
      }
      if (json === undefined) return { ok: false, body: undefined, detail: 'not JSON' };
      const asIs = tickerAnswerAsIs(json);
      if (asIs) return { ok: true, value: asIs };
      const parsed = TickerResponse.safeParse(json);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, body: json, detail: describeIssues(parsed.error) };
    });
  }

  async function instruments(
    input: { exchange?: string },
    lane: ReadPriority,
  ): Promise<GatewayResult<ResponseOf<'instruments'>>> {
    const spec: OpSpec = OPERATIONS.instruments;
    const early = preflight('instruments', spec);
    if (early) return early;
    const checked = InstrumentsQuery.safeParse({ exchange: input.exchange, format: 'json' });
    if (!checked.success) return fail({ kind: 'bad_input', message: describeIssues(checked.error) });
    const key = await readKey();
    if (!key.ok) return key;
    const query = new URLSearchParams({ format: 'json' });
    if (checked.data.exchange !== undefined) query.set('exchange', checked.data.exchange);
    const request: HttpRequest = {
      url: `${baseUrl}${spec.path}?${query}`,
      method: 'GET',
      headers: { 'X-API-KEY': key.value, accept: 'application/json' },
    };
    return run<ResponseOf<'instruments'>>('instruments', spec, lane, request, key.value, (text) => {
      const json = parseJson(text);
      if (json === undefined) return { ok: false, body: undefined, detail: 'not JSON' };
      const parsed = InstrumentsResponse.safeParse(json);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, body: json, detail: describeIssues(parsed.error) };
    });
  }

  /** The client's methods with reads in `lane`: one budget and one memory behind every view. */
  const views = new Map<ReadPriority, GatewayClient>();
  const inLane = (lane: ReadPriority): GatewayClient => {
    let view = views.get(lane);
    if (!view) views.set(lane, (view = buildView(lane)));
    return view;
  };
  const buildView = (lane: ReadPriority): GatewayClient => ({
    call: (name, input) => call(name, input, lane),
    ticker: (input) => ticker(input, lane),
    instruments: (input = {}) => instruments(input, lane),
    notOffered: () => [...missing.values()],
    load: () => {
      const api = budget.window('api');
      return { free: api.free, waiting: api.waiting, limit: api.perSecond };
    },
    withPriority: inLane,
    ...operationMethods((name, input) => call(name, input, lane)),
  });
  return inLane('read');
}
