// The gateway client: one method per operation of the contract's OPERATIONS table. Inputs are
// validated before anything is sent, the key is read per call and only ever put in the body (or the
// ticker's X-API-KEY header), answers are parsed with the contract's tolerant schemas, and every
// failure is a GatewayError value. Mutations are never retried (architecture rule 4); all calls share
// one rate budget with the order path first (rule 5), whose windows are the gateway's limiter classes
// (limiter-classes.ts: order mutations, smart orders, the rest): `withPriority` gives a view of the same
// client whose reads go in another lane of their window (an order's risk reads ahead, polling behind).
import { z } from 'zod';
import {
  EXCHANGES,
  InstrumentsQuery,
  InstrumentsResponse,
  OPERATIONS,
  QueuedOrderResponse,
  SmartOrderResponse,
  TickerQuery,
  TickerResponse,
  errorMessage,
  oneOf,
  text as textField,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../contract/index.js';
import { sleep, systemClock, type Clock } from './clock.js';
import { describeIssues, numbersAsStrings } from './encode.js';
import {
  UNKNOWN_OUTCOME_MESSAGE,
  errorFromHttp,
  fail,
  gatewayMessage,
  isBrokerModuleMissing,
  isSmartOrderNoOp,
  notOfferedMessage,
  ok,
  retryAfterSeconds,
  type GatewayError,
  type GatewayResult,
} from './errors.js';
import { exchange, type Exchange, type FetchFn, type HttpRequest } from './http.js';
import { nodeHttpFetch } from './node-http.js';
import { LIMITER_CLASS_OF_OPERATION } from './limiter-classes.js';
import { RateBudget, type Priority } from './rate-budget.js';
import { redact } from './redact.js';
import { parseTickerText } from './ticker-text.js';

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

type Input<N extends OperationName> = Omit<RequestOf<N>, 'apikey'>;
/** Operations whose only field is the key take no argument. */
type Args<I> = Partial<I> extends I ? [input?: I] : [input: I];
type PostOperation = Exclude<OperationName, 'ticker' | 'instruments'>;

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

export type GatewayMethods = {
  [N in PostOperation]: (...args: Args<Input<N>>) => Promise<GatewayResult<ResponseOf<N>>>;
};

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

/** Reads a 2xx answer; on failure says why and hands back the JSON (if any) to look for an error body. */
type Parser<T> = (text: string) => { ok: true; value: T } | { ok: false; body: unknown; detail: string };

interface OpSpec {
  path: string;
  request: z.ZodType;
  response: z.ZodType;
  kind: Priority;
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
  /** Paths answered "route missing", with the operation that found out. */
  const missing = new Map<string, OperationName>();
  /** Per path: no call before this time (ms), after a 429 with retry_after. */
  const cooldownUntil = new Map<string, number>();

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

  /** Turns one exchange into a result; `parse` reads a 2xx answer's text. */
  function interpret<T>(name: OperationName, spec: OpSpec, ex: Exchange, parse: Parser<T>): GatewayResult<T> {
    const mutation = spec.kind === 'mutation';
    if (ex.type === 'failed') {
      if (ex.reason === 'not_sent') {
        return fail({ kind: 'network', message: `cannot reach the gateway: ${ex.detail}` });
      }
      // A 4xx status line means the gateway refused before acting, even if the body was lost.
      if (ex.status !== undefined && ex.status >= 400 && ex.status < 500) {
        return fail(errorFromHttp(name, ex.status, undefined, '', undefined));
      }
      if (mutation) return fail({ kind: 'unknown_outcome', message: UNKNOWN_OUTCOME_MESSAGE });
      if (ex.reason === 'timeout') return fail({ kind: 'timeout', message: ex.detail });
      return fail({ kind: 'network', message: `the connection to the gateway failed: ${ex.detail}` });
    }

    const body = parseJson(ex.text);
    if (name === 'placesmartorder') {
      // "No action needed" / "No OpenPosition Found" is a no-op, even as HTTP 500 (gateway-behaviour §6).
      const said = gatewayMessage(body, ex.text);
      if ((ex.status < 300 || ex.status >= 500) && isSmartOrderNoOp(said)) {
        const value = SmartOrderResponse.safeParse({
          ...(isRecord(body) ? body : {}),
          status: 'success',
          message: said,
        });
        if (value.success) return ok(value.data as T);
      }
    }

    if (ex.status >= 200 && ex.status < 300) {
      const parsed = parse(ex.text);
      if (parsed.ok) return ok(parsed.value);
      if (isRecord(parsed.body) && parsed.body.status === 'error') {
        return fail(errorFromHttp(name, ex.status, parsed.body, ex.text, undefined));
      }
      if (mutation) {
        const queued = QueuedOrderResponse.safeParse(parsed.body);
        if (queued.success) {
          return fail({
            kind: 'queued',
            message: `the gateway queued the order for approval in its Action Center (pending order ${queued.data.pending_order_id}): it is not placed until approved there`,
          });
        }
        // The gateway accepted a mutation but we cannot read what it did: only the order book can
        // tell. That includes a "success" without what the operation returns (placeorder's orderid).
        return fail({ kind: 'unknown_outcome', message: unknownBecause(parsed.body, parsed.detail) });
      }
      return fail({
        kind: 'bad_response',
        message: `the gateway's answer could not be read: ${parsed.detail}`,
        httpStatus: ex.status,
      });
    }

    const retryAfter = retryAfterSeconds(body, ex.headers.get('retry-after'), clock.now());
    const error = errorFromHttp(name, ex.status, body, ex.text, retryAfter);
    // Remembered only for a missing route: a missing broker module can be installed while we run.
    if (error.kind === 'not_offered' && !isBrokerModuleMissing(gatewayMessage(body, ex.text)))
      missing.set(spec.path, name);
    if (error.kind === 'rate_limited' && retryAfter !== undefined) {
      cooldownUntil.set(spec.path, clock.now() + retryAfter * 1000);
    }
    return fail(error);
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
      const outcome = interpret(name, spec, ex, parse);
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
    orderbook: (input) => call('orderbook', input, lane),
    tradebook: (input) => call('tradebook', input, lane),
    holdings: (input) => call('holdings', input, lane),
    positionbook: (input) => call('positionbook', input, lane),
    funds: (input) => call('funds', input, lane),
    orderstatus: (input) => call('orderstatus', input, lane),
    openposition: (input) => call('openposition', input, lane),
    positionsopen: (input) => call('positionsopen', input, lane),
    placeorder: (input) => call('placeorder', input, lane),
    splitorder: (input) => call('splitorder', input, lane),
    basketorder: (input) => call('basketorder', input, lane),
    placesmartorder: (input) => call('placesmartorder', input, lane),
    modifyorder: (input) => call('modifyorder', input, lane),
    cancelorder: (input) => call('cancelorder', input, lane),
    cancelallorder: (input) => call('cancelallorder', input, lane),
    closeposition: (input) => call('closeposition', input, lane),
    closepositionHosted: (input) => call('closepositionHosted', input, lane),
    depth: (input) => call('depth', input, lane),
    expiry: (input) => call('expiry', input, lane),
    search: (input) => call('search', input, lane),
    ping: (input) => call('ping', input, lane),
    quotes: (input) => call('quotes', input, lane),
    multiquotes: (input) => call('multiquotes', input, lane),
    history: (input) => call('history', input, lane),
    intervals: (input) => call('intervals', input, lane),
    symbol: (input) => call('symbol', input, lane),
    analyzer: (input) => call('analyzer', input, lane),
    margin: (input) => call('margin', input, lane),
    pnlsymbols: (input) => call('pnlsymbols', input, lane),
    optionsymbol: (input) => call('optionsymbol', input, lane),
    optionchain: (input) => call('optionchain', input, lane),
    optiongreeks: (input) => call('optiongreeks', input, lane),
    syntheticfuture: (input) => call('syntheticfuture', input, lane),
    optionsorder: (input) => call('optionsorder', input, lane),
    optionsmultiorder: (input) => call('optionsmultiorder', input, lane),
    marketholidays: (input) => call('marketholidays', input, lane),
    markettimings: (input) => call('markettimings', input, lane),
    analyzertoggle: (input) => call('analyzertoggle', input, lane),
  });
  return inLane('read');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The unknown-outcome message, saying why when the answer was JSON (a success missing its orderid). */
function unknownBecause(body: unknown, detail: string): string {
  if (!isRecord(body)) return UNKNOWN_OUTCOME_MESSAGE;
  const said = body.status === 'success' ? 'the gateway answered success but' : "the gateway's answer:";
  return `${UNKNOWN_OUTCOME_MESSAGE} (${said} ${detail})`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
