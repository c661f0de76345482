// The client's node:http transport against a local server: what `exchange` reads of it (status,
// headers, text, and the failure kinds that decide whether an order's outcome is unknown) is what
// the global fetch gave, and connections are kept alive between calls.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src-main/gateway/clock.js';
import { exchange } from '../../../src-main/gateway/http.js';
import { nodeHttpFetch } from '../../../src-main/gateway/node-http.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

const post = (url: string, timeoutMs = 2_000) =>
  exchange(
    nodeHttpFetch(),
    systemClock,
    {
      url: `${url}/api/v1/placeorder`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"symbol":"SBIN","note":"₹"}',
    },
    timeoutMs,
  );

describe('node:http transport', () => {
  it('sends the body and headers; answers with status, headers and text', async () => {
    let seen: { method?: string; type?: string; length?: string; body?: string } = {};
    const { url } = await serve((req, res, body) => {
      seen = {
        method: req.method,
        type: req.headers['content-type'],
        length: req.headers['content-length'],
        body,
      };
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end('{"status":"error","message":"slow down ₹"}');
    });
    const ex = await post(url);
    expect(seen).toEqual({
      method: 'POST',
      type: 'application/json',
      length: String(Buffer.byteLength('{"symbol":"SBIN","note":"₹"}')),
      body: '{"symbol":"SBIN","note":"₹"}',
    });
    expect(ex.type).toBe('answered');
    if (ex.type !== 'answered') return;
    expect(ex.status).toBe(429);
    expect(ex.headers.get('retry-after')).toBe('3');
    expect(ex.text).toBe('{"status":"error","message":"slow down ₹"}');
  });

  it('reads a header as Headers.get does: any case, repeated values joined, absent as null', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('Retry-After', '7');
      res.setHeader('x-note', ['a', 'b']);
      res.end('{"status":"success"}');
    });
    const ex = await post(url);
    if (ex.type !== 'answered') throw new Error(`not answered: ${ex.type}`);
    expect(ex.headers.get('RETRY-after')).toBe('7');
    expect(ex.headers.get('x-note')).toBe('a, b');
    expect(ex.headers.get('x-missing')).toBeNull();
  });

  it('a status fetch cannot hold (600) is not read as an answer: the request was sent, so "dropped"', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(600);
      res.end('{"status":"success"}');
    });
    const ex = await post(url);
    expect(ex).toMatchObject({ type: 'failed', reason: 'dropped' });
    if (ex.type === 'failed') expect(ex.detail).toContain('status 600');
  });

  it('keeps the connection alive between calls of one client', async () => {
    const { url, connections } = await serve((_req, res) => res.end('{"status":"success"}'));
    const fetchFn = nodeHttpFetch();
    for (let i = 0; i < 3; i++) {
      const res = await fetchFn(`${url}/x`, { method: 'POST', body: '{}' });
      expect(await res.text()).toBe('{"status":"success"}');
    }
    expect(connections()).toBe(1);
  });

  it('closes an idle socket after its idle time: the default, or a longer one it is given', async () => {
    const { url, connections } = await serve((_req, res) => res.end('{"status":"success"}'));
    const twice = async (fetchFn: ReturnType<typeof nodeHttpFetch>, gapMs: number) => {
      await (await fetchFn(`${url}/x`, { method: 'POST', body: '{}' })).text();
      await new Promise((r) => setTimeout(r, gapMs));
      await (await fetchFn(`${url}/x`, { method: 'POST', body: '{}' })).text();
    };
    await twice(nodeHttpFetch({ idleSocketMs: 100 }), 400);
    expect(connections()).toBe(2);
    await twice(nodeHttpFetch({ idleSocketMs: 5_000 }), 400);
    expect(connections()).toBe(3);
  });

  it('a refused connection is "not sent": the gateway cannot have acted', async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const ex = await post(url);
    expect(ex).toMatchObject({ type: 'failed', reason: 'not_sent' });
  });

  it('a connection dropped after the request arrived is "dropped" (an order outcome is unknown)', async () => {
    const { url } = await serve((req) => req.socket.destroy());
    const ex = await post(url);
    expect(ex).toMatchObject({ type: 'failed', reason: 'dropped' });
    expect(ex.type === 'failed' && ex.status).toBeUndefined();
  });

  it('a body cut short after the status line keeps the status', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(400, { 'content-length': '100' });
      res.write('{"status":"err');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const ex = await post(url);
    expect(ex).toMatchObject({ type: 'failed', reason: 'dropped', status: 400 });
  });

  it('no answer within the deadline is a timeout, and the request is abandoned', async () => {
    let closed = false;
    const { url } = await serve((req) => req.socket.on('close', () => (closed = true)));
    const ex = await post(url, 100);
    expect(ex).toMatchObject({ type: 'failed', reason: 'timeout' });
    await expect.poll(() => closed).toBe(true);
  });

  it('an unsupported or broken URL is refused before anything is sent', async () => {
    for (const url of ['ftp://127.0.0.1:1', 'not a url']) {
      const ex = await exchange(nodeHttpFetch(), systemClock, { url, method: 'GET', headers: {} }, 1_000);
      expect(ex).toMatchObject({ type: 'failed', reason: 'not_sent' });
    }
  });
});
