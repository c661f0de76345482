// A hostile gateway: a loopback HTTP server that records every request (path, headers, body) and
// answers with whatever the test's `answer` returns for it, typically the key it was sent, echoed
// back. Tests use it to prove a key never reaches a host it was not stored for, and that an echoed
// key never travels on to the page, the journal or a log.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { useStarted } from './use-started.js';

export interface EchoedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface EchoAnswer {
  status: number;
  json: unknown;
}

export interface EchoGateway {
  /** `http://127.0.0.1:port`, no trailing slash. */
  url: string;
  received: EchoedRequest[];
  /** Requests whose URL, headers or body hold `key` in any letter case. */
  carrying(key: string): EchoedRequest[];
  stop(): Promise<void>;
}

/** The `apikey` a JSON body carries (or the X-API-KEY header), '' when none. */
export function sentKey(r: EchoedRequest): string {
  try {
    const body = JSON.parse(r.body) as { apikey?: unknown };
    if (typeof body.apikey === 'string') return body.apikey;
  } catch {
    // not JSON: look at the header
  }
  const header = r.headers['x-api-key'];
  return typeof header === 'string' ? header : '';
}

export async function startEchoGateway(answer: (r: EchoedRequest) => EchoAnswer): Promise<EchoGateway> {
  const received: EchoedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: EchoedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const { status, json } = answer(r);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    carrying(key) {
      const k = key.toLowerCase();
      return received.filter((r) =>
        `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`.toLowerCase().includes(k),
      );
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every request answered as a gateway's plain success. */
export const SUCCESS_ANSWER = (): EchoAnswer => ({ status: 200, json: { status: 'success', data: {} } });

/** An echo gateway started before the tests of the calling file and stopped after them. */
export function useEchoGateway(answer: (r: EchoedRequest) => EchoAnswer = SUCCESS_ANSWER): EchoGateway {
  return useStarted(() => startEchoGateway(answer));
}
