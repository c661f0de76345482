// One HTTP exchange with a deadline. It reports what happened on the wire and nothing more: whether an
// answer came back, and if not, whether the request can have reached the gateway (which decides if a
// mutation's outcome is unknown).
import { errorMessage } from '../contract/index.js';
import type { Clock } from './clock.js';

/** What the client reads of an answer (fetch's Response is one): status, a header, the body's text. */
export interface FetchAnswer {
  readonly status: number;
  readonly headers: Pick<Headers, 'get'>;
  text(): Promise<string>;
}

/** fetch's signature, narrowed to what the client reads of the answer. */
export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<FetchAnswer>;

export type Exchange =
  | { type: 'answered'; status: number; headers: Pick<Headers, 'get'>; text: string }
  | {
      type: 'failed';
      /** not_sent: the connection was never made, so the gateway cannot have acted. */
      reason: 'timeout' | 'not_sent' | 'dropped';
      detail: string;
      /** Set when the status line arrived but the body did not. */
      status?: number;
    };

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Error codes meaning no byte of the request reached the gateway. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
]);

function codesOf(err: unknown, depth = 0): string[] {
  if (depth > 4 || err === null || typeof err !== 'object') return [];
  const codes: string[] = [];
  if ('code' in err && typeof err.code === 'string') codes.push(err.code);
  if ('errors' in err && Array.isArray(err.errors)) {
    for (const e of err.errors) codes.push(...codesOf(e, depth + 1));
  }
  if ('cause' in err) codes.push(...codesOf(err.cause, depth + 1));
  return codes;
}

function describe(err: unknown): string {
  const codes = codesOf(err);
  const msg = errorMessage(err);
  return codes.length > 0 ? `${msg} (${[...new Set(codes)].join(', ')})` : msg;
}

function notSent(err: unknown): boolean {
  // fetch refuses some ports outright (the Fetch standard's "bad port" list) before connecting.
  if (err instanceof Error && err.cause instanceof Error && err.cause.message === 'bad port') return true;
  const codes = codesOf(err);
  return codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c));
}

export async function exchange(
  fetchFn: FetchFn,
  clock: Clock,
  req: HttpRequest,
  timeoutMs: number,
): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const cancel = clock.setTimer(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const timeoutDetail = () => `the gateway did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
  let status: number | undefined;
  try {
    const init: RequestInit = { method: req.method, headers: req.headers, signal: controller.signal };
    if (req.body !== undefined) init.body = req.body;
    const res = await fetchFn(req.url, init);
    status = res.status;
    const text = await res.text();
    if (timedOut) return { type: 'failed', reason: 'timeout', detail: timeoutDetail(), status };
    return { type: 'answered', status: res.status, headers: res.headers, text };
  } catch (err) {
    if (timedOut) {
      const failed: Exchange = { type: 'failed', reason: 'timeout', detail: timeoutDetail() };
      if (status !== undefined) failed.status = status;
      return failed;
    }
    const reason = status === undefined && notSent(err) ? 'not_sent' : 'dropped';
    const failed: Exchange = { type: 'failed', reason, detail: describe(err) };
    if (status !== undefined) failed.status = status;
    return failed;
  } finally {
    cancel();
  }
}
