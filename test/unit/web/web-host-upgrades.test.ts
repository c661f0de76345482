// The web host in-process over real HTTP and WebSocket, bound to a fake core: request targets it
// cannot read, and refused upgrades in the log.
import { connect as connectTcp } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { startWebHost } from '../../../src-main/web/web-host.js';
import { createWsBridge } from '../../../src-main/web/ws-bridge.js';
import { cookie, get, host, rendererDir, useWebHost } from './web-host-fixture.js';

useWebHost({ signedIn: true });

/** An upgrade request with a raw request target (clients normalise it); resolves with the status. */
function rawUpgrade(target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(host.port, '127.0.0.1', () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\nCookie: ${cookie}\r\n` +
          'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ),
    );
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status: ${head}`)));
  });
}

describe('web host: request targets it cannot read', () => {
  it('a page request or an upgrade to `//`, `///` or `/\\` is a 400, and the host keeps serving', async () => {
    for (const path of ['//', '///', '/\\', '//evil.example/', '/\\evil.example/'])
      expect((await get(host.port, path, { Cookie: cookie })).status, path).toBe(400);
    for (const path of ['//', '/\\']) expect(await rawUpgrade(path), path).toBe(400);
    expect((await get(host.port, '/', { Cookie: cookie })).status).toBe(200);
  });
});

describe('web host: refused upgrades in the log', () => {
  it('200 refused upgrades: one line per reason, the others counted (here when the host stops)', async () => {
    const own = createMemoryLogger();
    const ownBridge = createWsBridge({ logger: own });
    const other = await startWebHost({ bridge: ownBridge, rendererDir, port: 0, logger: own });
    const refused = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${other.port}${path}`, {
          headers: { Origin: other.origin },
        });
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('open', () => reject(new Error('opened')));
        ws.on('error', reject);
      });
    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => refused(i < 15 ? '/bridge' : '/elsewhere')),
      );
      expect(new Set(statuses)).toEqual(new Set([401, 404]));
    }
    const lines = () => own.entries.filter((e) => e.message.startsWith('bridge connection'));
    expect(lines().map((e) => [e.message, e.fields])).toEqual(
      expect.arrayContaining([
        ['bridge connection refused', { reason: 'no_session' }],
        ['bridge connection refused', { reason: 'wrong_path' }],
      ]),
    );
    expect(lines()).toHaveLength(2);
    await other.stop();
    expect(
      lines()
        .slice(2)
        .map((e) => e.fields),
    ).toEqual(
      expect.arrayContaining([
        { reason: 'no_session', count: 149, seconds: 10 },
        { reason: 'wrong_path', count: 49, seconds: 10 },
      ]),
    );
    expect(lines()).toHaveLength(4);
  });
});
