// A raw WebSocket client for feed tests: every message parsed and kept, and a wait for the next one
// matching a predicate (from a cursor, so a message that arrived early is still found).
import { WebSocket } from 'ws';

export type Msg = Record<string, unknown>;

export interface TestFeedClient {
  ws: WebSocket;
  messages: Msg[];
  send(body: unknown): void;
  /** The first message from position `from` (default: after the last one waited for) that matches. */
  next(match: (m: Msg) => boolean, timeoutMs?: number): Promise<Msg>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export async function connectFeed(
  url: string,
  headers: Record<string, string> = {},
): Promise<TestFeedClient> {
  const ws = new WebSocket(url, { headers });
  const messages: Msg[] = [];
  const waiters = new Set<() => void>();
  let cursor = 0;
  ws.on('message', (raw) => {
    messages.push(JSON.parse(String(raw)) as Msg);
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const w of [...waiters]) w();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return {
    ws,
    messages,
    send: (body) => ws.send(typeof body === 'string' ? body : JSON.stringify(body)),
    next(match, timeoutMs = 3000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          for (let i = cursor; i < messages.length; i++) {
            const m = messages[i];
            if (m && match(m)) {
              cursor = i + 1;
              waiters.delete(look);
              clearTimeout(timer);
              resolve(m);
              return;
            }
          }
          if (ws.readyState === WebSocket.CLOSED) {
            waiters.delete(look);
            clearTimeout(timer);
            reject(new Error(`socket closed while waiting; got ${JSON.stringify(messages.slice(cursor))}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(
            new Error(
              `no message matching ${match.toString()} in ${timeoutMs} ms; got ${JSON.stringify(messages.slice(cursor))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(look);
        look();
      });
    },
    closed,
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
}
