// The host's own time per bridge call, for the bench: from a call frame's arrival to its reply being
// handed to the socket, less the time the call spent in gateway HTTP exchanges (counted per call
// through AsyncLocalStorage, by a timed transport). Off unless ORDERDESK_HOST_TIMING names a file;
// then one line per call, `<channel> <host ms> <gateway ms>`: a channel name and numbers only, never
// a call's input, its answer or a key.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { FetchFn } from '../gateway/index.js';
import { nodeHttpFetch } from '../gateway/node-http.js';

/** The environment variable naming the file the lines go to. */
export const HOST_TIMING_ENV = 'ORDERDESK_HOST_TIMING';

export interface HostTiming {
  /** Runs one call's work (through its reply), then writes its line. */
  measure(channel: string, receivedAt: number, work: () => Promise<void>): Promise<void>;
  /**
   * The gateway clients' transport, its exchanges counted against the call they run in: node:http
   * with a keep-alive agent per gateway origin, as each client has its own without timing.
   */
  transport: FetchFn;
  close(): Promise<void>;
}

interface Span {
  gatewayMs: number;
}

export function createHostTiming(path: string): HostTiming {
  const spans = new AsyncLocalStorage<Span>();
  const out: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  const perOrigin = new Map<string, FetchFn>();
  const transportFor = (input: string | URL | Request): FetchFn => {
    const origin = new URL(typeof input === 'string' || input instanceof URL ? input : input.url).origin;
    let fetch = perOrigin.get(origin);
    if (!fetch) perOrigin.set(origin, (fetch = nodeHttpFetch()));
    return fetch;
  };
  return {
    async measure(channel, receivedAt, work) {
      const span: Span = { gatewayMs: 0 };
      await spans.run(span, work);
      const hostMs = performance.now() - receivedAt - span.gatewayMs;
      out.write(`${channel} ${hostMs.toFixed(3)} ${span.gatewayMs.toFixed(3)}\n`);
    },
    async transport(input, init) {
      const send = transportFor(input);
      const span = spans.getStore();
      if (!span) return send(input, init);
      const t0 = performance.now();
      let answered;
      try {
        answered = await send(input, init);
      } catch (err) {
        span.gatewayMs += performance.now() - t0;
        throw err;
      }
      const answer = answered;
      // The exchange is over once the body is read, as the client reads it.
      return {
        status: answer.status,
        headers: answer.headers,
        text: () => answer.text().finally(() => (span.gatewayMs += performance.now() - t0)),
      };
    },
    close: () => new Promise<void>((resolve) => out.end(resolve)),
  };
}

/** Timing when `env` asks for it (ORDERDESK_HOST_TIMING), otherwise none. */
export function hostTimingFrom(env: Record<string, string | undefined>): HostTiming | undefined {
  const path = env[HOST_TIMING_ENV];
  return path !== undefined && path !== '' ? createHostTiming(path) : undefined;
}
