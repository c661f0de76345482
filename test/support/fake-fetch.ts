// A scripted fetch for client unit tests: records every request, answers from a handler.
import type { Clock } from '../../src-main/gateway/index.js';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  at: number;
  signal: AbortSignal | undefined;
}

export type Handler = (call: RecordedCall, n: number) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A fetch that never answers; it rejects when its signal aborts, like the real one. */
export function hang(call: RecordedCall): Promise<Response> {
  return new Promise((_resolve, reject) => {
    call.signal?.addEventListener('abort', () => reject(call.signal?.reason ?? new Error('aborted')));
  });
}

/** The error undici throws when the connection drops mid-exchange. */
export function dropped(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
}

/** The error undici throws when nothing listens on the port. */
export function refused(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  });
}

export function fakeFetch(clock: Clock, handler: Handler) {
  const calls: RecordedCall[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
      at: clock.now(),
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return handler(call, calls.length);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
