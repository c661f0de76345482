// The browser-mode host: an HTTP server on loopback that serves the built renderer behind a
// one-time token and a session cookie, and hands checked WebSocket upgrades to the bridge.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { readFileSync } from 'node:fs';
import { BRIDGE_PATH, errorMessage } from '../contract/index.js';
import type { Logger } from '../core/index.js';
import { BRIDGE_SCRIPT_PATH, webCsp } from './page-policy.js';
import { loadRendererFiles, staticFile, type StaticFile } from './renderer-files.js';
import {
  checkHost,
  checkUpgrade,
  originOf,
  readTarget,
  type HostAddress,
  type Refusal,
} from './request-guard.js';
import { createRefusalLog, type UpgradeRefusal } from './refusal-log.js';
import { createSessionGate, type SessionGate } from './session-gate.js';
import type { WsBridge } from './ws-bridge.js';

export const DEFAULT_WEB_HOST = '127.0.0.1';

export interface WebHostOptions {
  bridge: WsBridge;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  /** A loopback address; the host never listens anywhere else. */
  host?: string;
  logger: Logger;
}

export interface WebHost {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The origin with the one-time token: what the user opens. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export class WebHostError extends Error {
  override name = 'WebHostError';
  constructor(
    readonly kind: 'port_in_use' | 'not_loopback' | 'listen_failed',
    message: string,
  ) {
    super(message);
  }
}

/** The page bridge script, shipped next to this module (src-main/web/page/bridge.js). */
function bridgeScript(): StaticFile {
  return staticFile(readFileSync(new URL('./page/bridge.js', import.meta.url)), BRIDGE_SCRIPT_PATH);
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1)$/;

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE')
        reject(
          new WebHostError(
            'port_in_use',
            `Port ${port} on ${host} is already in use; pass --port with another port (or --port 0 for any free one).`,
          ),
        );
      else reject(new WebHostError('listen_failed', `Cannot listen on ${host}:${port}: ${err.message}`));
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  const host = o.host ?? DEFAULT_WEB_HOST;
  if (!LOOPBACK.test(host))
    throw new WebHostError(
      'not_loopback',
      `The web host serves loopback only; ${host} is not a loopback address.`,
    );
  const files = loadRendererFiles(o.rendererDir, { [BRIDGE_SCRIPT_PATH]: bridgeScript() });
  // Set once listening (port 0 is only known then); nothing is answered before.
  const live: { address?: HostAddress; gate?: SessionGate; csp?: string } = {};

  function headers(res: ServerResponse): void {
    res.setHeader('Content-Security-Policy', live.csp ?? "default-src 'none'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The token URL must not travel anywhere in a Referer.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
  }

  function text(res: ServerResponse, status: number, body: string): void {
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(`${body}\n`);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const { address, gate } = live;
    if (!address || !gate) return text(res, 503, 'Starting.');
    headers(res);
    const refused = checkHost(req.headers.host, address);
    if (refused) return text(res, refused.status, refused.message);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return text(res, 405, 'Only GET and HEAD.');
    }
    const url = readTarget(req.url);
    if (!url) return text(res, 400, 'Bad request target.');
    const token = url.searchParams.get('token');
    if (token !== null) {
      const cookie = gate.exchange(token);
      if (cookie) res.setHeader('Set-Cookie', cookie);
      else if (!gate.admits(req.headers.cookie))
        return text(
          res,
          403,
          'This link was already used or is not valid. Restart npm run web for a new one.',
        );
      // The clean URL: the token leaves the address bar and the history.
      res.statusCode = 303;
      res.setHeader('Location', '/');
      return void res.end();
    }
    if (!gate.admits(req.headers.cookie))
      return text(res, 401, 'No session. Open the link that npm run web printed (it works once).');
    const file = files.get(url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file) return text(res, 404, 'Not found.');
    res.statusCode = 200;
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', file.body.length);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  // Refusals are logged at a bounded rate: a local process trying the socket over and over is seen,
  // without filling the log.
  const refusals = createRefusalLog({ logger: o.logger });

  function refuseUpgrade(
    socket: Duplex,
    r: { reason: UpgradeRefusal; status: Refusal['status'] | 400 | 404; message: string },
  ): void {
    refusals.refused(r.reason);
    const reason = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      421: 'Misdirected Request',
    }[r.status];
    socket.end(
      `HTTP/1.1 ${r.status} ${reason ?? 'Refused'}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(r.message)}\r\n\r\n${r.message}`,
    );
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      o.logger.error('web host request failed', { error: errorMessage(err) });
      if (!res.headersSent) text(res, 500, 'Internal error.');
      else res.destroy();
    }
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { address, gate } = live;
    if (!address || !gate)
      return refuseUpgrade(socket, { reason: 'starting', status: 403, message: 'Starting.' });
    const target = readTarget(req.url);
    if (!target)
      return refuseUpgrade(socket, { reason: 'bad_target', status: 400, message: 'Bad request target.' });
    if (target.pathname !== BRIDGE_PATH)
      return refuseUpgrade(socket, { reason: 'wrong_path', status: 404, message: 'Not found.' });
    const refused = checkUpgrade(req.headers, address, gate.admits);
    if (refused) return refuseUpgrade(socket, refused);
    o.bridge.server.handleUpgrade(req, socket, head, (ws) => o.bridge.server.emit('connection', ws, req));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const port = await listen(server, host, o.port);
  const address: HostAddress = { host, port };
  const gate = createSessionGate(port);
  Object.assign(live, { address, gate, csp: webCsp(address) });
  const origin = originOf(address);

  let stopped: Promise<void> | undefined;
  return {
    origin,
    url: `${origin}/?token=${gate.token}`,
    port,
    stop() {
      stopped ??= (async () => {
        await o.bridge.close();
        refusals.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return stopped;
    },
  };
}
