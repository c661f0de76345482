// A loopback TCP relay in front of a server, for connections a test must cut: `cut()` drops every
// live connection at once (a network drop), `block()` refuses new ones until `unblock()`. Records the
// first bytes of each connection (a WebSocket upgrade's request line and headers).
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface CutProxy {
  port: number;
  /** Connections accepted so far. */
  accepted: number;
  /** The first chunk each connection sent, as text. */
  heads: string[];
  cut(): void;
  block(): void;
  unblock(): void;
  stop(): Promise<void>;
}

export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let blocked = false;
  const proxy: CutProxy = {
    port: 0,
    accepted: 0,
    heads: [],
    cut() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
    },
    block() {
      blocked = true;
    },
    unblock() {
      blocked = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        proxy.cut();
        server.close(() => resolve());
      }),
  };
  const server = createServer((client) => {
    if (blocked) {
      client.destroy();
      return;
    }
    proxy.accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.once('data', (chunk: Buffer) => proxy.heads.push(chunk.toString('latin1')));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.port = (server.address() as AddressInfo).port;
  return proxy;
}
