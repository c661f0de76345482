// The client's default transport: node:http(s) with a keep-alive agent, behind the fetch signature the
// client is written against (tests still pass fakes). The global fetch (undici: WHATWG streams,
// Request/Response objects, an internal abort signal) costs more per request than this, on every
// order's acknowledgement path.
// What `exchange` relies on is kept: an error's `code` (ECONNREFUSED… tells "never sent"), an abort
// through the signal, and the status line before the body.
import http from 'node:http';
import https from 'node:https';
import type { FetchAnswer, FetchFn } from './http.js';

/**
 * Idle sockets are closed after this long (ms), before a server's usual 5 s keep-alive: a request on
 * a socket the server is closing at that moment would fail after sending (an unknown outcome for an
 * order). A shorter `Keep-Alive: timeout=N` from the server wins (node's agent uses N − 1 s).
 */
export const IDLE_SOCKET_MS = 4_000;

/**
 * Idle sockets to the embedded paper gateway: that server is ours and keeps a connection 72 s
 * (`paper/http/server.ts`), so the always-on core's 30 s safety-net reads reuse one socket instead
 * of opening and closing one per read (two wake-ups and most of the idle CPU).
 */
export const EMBEDDED_IDLE_SOCKET_MS = 60_000;

export interface NodeHttpOptions {
  /** How long an idle socket is kept (default IDLE_SOCKET_MS); a shorter server hint still wins. */
  idleSocketMs?: number;
}

/**
 * A header as Headers.get gives it (null when absent, repeated values joined), read on demand from
 * what node:http parsed: the client reads one header on one answer in a thousand (a 429's
 * Retry-After), and WHATWG Headers and Response objects built for every request and answer would
 * cost time on each order's way.
 */
function headerOf(raw: http.IncomingHttpHeaders, name: string): string | null {
  const value = raw[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The request's headers for node:http: the client's plain record as is, anything else via Headers. */
function requestHeaders(init: RequestInit | undefined): Record<string, string> {
  const given = init?.headers;
  const out: Record<string, string> = {};
  if (given && !(given instanceof Headers) && !Array.isArray(given)) {
    for (const [name, value] of Object.entries(given)) out[name.toLowerCase()] = [value].flat().join(', ');
    return out;
  }
  new Headers(given).forEach((value, name) => (out[name] = value));
  return out;
}

/** A fetch over node:http(s) with its own keep-alive agents (one pool per client). */
export function nodeHttpFetch(o: NodeHttpOptions = {}): FetchFn {
  const timeout = o.idleSocketMs ?? IDLE_SOCKET_MS;
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout }),
    'https:': new https.Agent({ keepAlive: true, timeout }),
  };

  const fetchFn = (input: string | URL | Request, init?: RequestInit): Promise<FetchAnswer> =>
    new Promise<FetchAnswer>((resolve, reject) => {
      const signal = init?.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      let url: URL;
      try {
        url = new URL(input instanceof Request ? input.url : String(input));
      } catch (err) {
        return reject(err);
      }
      const agent = url.protocol === 'http:' || url.protocol === 'https:' ? agents[url.protocol] : undefined;
      if (!agent) {
        return reject(
          Object.assign(new TypeError(`unsupported protocol ${url.protocol}`), { code: 'ERR_INVALID_URL' }),
        );
      }
      const body = typeof init?.body === 'string' ? init.body : undefined;
      if (init?.body !== undefined && init.body !== null && body === undefined)
        return reject(new TypeError('only a text body is supported'));
      const headers = requestHeaders(init);
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const send = url.protocol === 'https:' ? https.request : http.request;
      const req = send(url, { method: init?.method ?? 'GET', headers, agent });
      const onAbort = () =>
        req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      req.on('error', (err) => {
        done();
        reject(err);
      });
      req.on('response', (res) => {
        // Settled at the status line, like fetch: a body lost after it still leaves the status known.
        const text = new Promise<string>((ok, fail) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
          res.on('error', fail);
          // A body cut short (the connection dropped mid-answer) fails, as fetch's text() does.
          res.on('close', () => {
            if (!res.complete)
              fail(Object.assign(new Error('the answer was cut short'), { code: 'ECONNRESET' }));
          });
        });
        // Also handles a failure no caller reads (text() never called): never an unhandled rejection.
        void text.then(done, done);
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          // Not an answer that can be read (fetch refuses these statuses too).
          res.destroy();
          return reject(new RangeError(`the gateway answered with status ${status}`));
        }
        resolve({ status, headers: { get: (name) => headerOf(res.headers, name) }, text: () => text });
      });
      req.end(body);
    });
  return fetchFn;
}
