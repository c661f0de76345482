// A loopback HTTP proxy in front of a gateway that misbehaves on request: it can delay an answer, drop
// the connection after forwarding, answer 500 / 429 itself, answer garbage, or strip fields from the
// gateway's JSON answer (a "success" without its orderid). It records what it
// received and what actually reached the gateway, so tests can prove an order was never sent twice.
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  /** Forward and answer unchanged. */
  | { kind: 'pass' }
  /** Forward at once, hold the gateway's answer for `ms` (a slow gateway or a slow network). */
  | { kind: 'delay'; ms: number }
  /**
   * Destroy the client's connection without answering. With `forward` (default) the request reaches
   * the gateway first: the case where the outcome is unknown.
   */
  | { kind: 'drop'; forward?: boolean }
  /** Answer 500 without forwarding. */
  | { kind: 'error500' }
  /** Answer 429 with `retry_after` (and a Retry-After header) without forwarding. */
  | { kind: 'rate_limit'; retryAfter: number }
  /**
   * `html`: answer 200 with a non-JSON page without forwarding. `truncated`: forward, then answer the
   * gateway's status with the first half of its body.
   */
  | { kind: 'garbage'; style: 'html' | 'truncated' }
  /**
   * Forward, then answer the gateway's status and headers with these top-level fields removed from its
   * JSON object body (a non-object or non-JSON body passes unchanged).
   */
  | { kind: 'strip'; fields: readonly string[] };

export interface ProxiedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  url: string;
  body: string;
  mode: FaultMode['kind'];
}

export interface FaultProxy {
  /** `http://127.0.0.1:port`, no trailing slash. */
  url: string;
  /** Modes for the next requests (to `path`, when given), used once each in order; then `pass`. */
  enqueue(modes: FaultMode | FaultMode[], path?: string): void;
  /**
   * A mode for each request the queue has nothing for (random faults: the stress runner); undefined
   * goes back to `pass`.
   */
  decide(chooser: ((path: string) => FaultMode) | undefined): void;
  /** Every request the proxy received. */
  received: ProxiedRequest[];
  /** Every request that reached the gateway. */
  forwarded: ProxiedRequest[];
  /** Requests to `path` that reached the gateway. */
  forwardedTo(path: string): number;
  /** Requests to `path` that reached the proxy. */
  receivedFor(path: string): number;
  reset(): void;
  stop(): Promise<void>;
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function stripFields(body: Buffer, fields: readonly string[]): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
  const kept = Object.fromEntries(Object.entries(parsed).filter(([k]) => !fields.includes(k)));
  return Buffer.from(JSON.stringify(kept));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || ['host', 'connection', 'content-length', 'keep-alive'].includes(k)) continue;
    headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const up = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (
              v === undefined ||
              ['connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)
            )
              continue;
            out[k] = Array.isArray(v) ? v.join(', ') : v;
          }
          resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    up.on('error', reject);
    up.end(body);
  });
}

export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const queues: { path: string | undefined; mode: FaultMode }[] = [];
  const received: ProxiedRequest[] = [];
  const forwarded: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  let chooser: ((path: string) => FaultMode) | undefined;

  const pick = (path: string): FaultMode => {
    const i = queues.findIndex((q) => q.path === undefined || q.path === path);
    if (i < 0) return chooser?.(path) ?? { kind: 'pass' };
    const [entry] = queues.splice(i, 1);
    return entry?.mode ?? { kind: 'pass' };
  };

  const server: Server = createServer((req, res) => {
    // A client that gave up (timeout) closes its side; writing then must not crash the test run.
    res.on('error', () => undefined);
    req.on('error', () => undefined);
    void (async () => {
      const body = await readBody(req);
      const url = req.url ?? '/';
      const path = url.split('?')[0] ?? '/';
      const mode = pick(path);
      const record: ProxiedRequest = {
        method: req.method ?? 'GET',
        path,
        url,
        body: body.toString('utf8'),
        mode: mode.kind,
      };
      received.push(record);

      const answer = (status: number, headers: Record<string, string>, payload: Buffer | string) => {
        if (res.destroyed) return;
        const buf = typeof payload === 'string' ? Buffer.from(payload) : payload;
        res.writeHead(status, { ...headers, 'content-length': String(buf.length) });
        res.end(buf);
      };

      if (mode.kind === 'error500') {
        answer(
          500,
          { 'content-type': 'application/json' },
          '{"message":"An unexpected error occurred","status":"error"}',
        );
        return;
      }
      if (mode.kind === 'rate_limit') {
        answer(
          429,
          { 'content-type': 'application/json', 'retry-after': String(mode.retryAfter) },
          JSON.stringify({
            message: 'Rate limit exceeded. Please slow down your requests.',
            retry_after: mode.retryAfter,
            status: 'error',
          }),
        );
        return;
      }
      if (mode.kind === 'garbage' && mode.style === 'html') {
        answer(200, { 'content-type': 'text/html' }, '<html><body>Bad Gateway</body></html>');
        return;
      }
      if (mode.kind === 'drop' && mode.forward === false) {
        req.socket.destroy();
        return;
      }

      let upstream: Upstream;
      try {
        upstream = await forward(target, req, body);
      } catch (err) {
        answer(502, { 'content-type': 'text/plain' }, `proxy: ${String(err)}`);
        return;
      }
      forwarded.push(record);

      if (mode.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (mode.kind === 'delay') await sleep(mode.ms);
      if (mode.kind === 'strip') {
        answer(upstream.status, upstream.headers, stripFields(upstream.body, mode.fields));
        return;
      }
      if (mode.kind === 'garbage') {
        answer(
          upstream.status,
          upstream.headers,
          upstream.body.subarray(0, Math.floor(upstream.body.length / 2)),
        );
        return;
      }
      answer(upstream.status, upstream.headers, upstream.body);
    })();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    enqueue(modes, path) {
      for (const mode of Array.isArray(modes) ? modes : [modes]) queues.push({ path, mode });
    },
    decide(next) {
      chooser = next;
    },
    received,
    forwarded,
    forwardedTo: (path) => forwarded.filter((r) => r.path === path).length,
    receivedFor: (path) => received.filter((r) => r.path === path).length,
    reset() {
      queues.length = 0;
      received.length = 0;
      forwarded.length = 0;
    },
    stop() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
