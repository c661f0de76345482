// The host's own time per order call, for the bench: from a call frame's arrival to its reply being
// handed to the socket, less the gateway exchanges the call made (those of its own operations that
// began and ended inside that span; a concurrent poll's are not its own). The transport records each
// exchange's operation and times; nothing is tracked per promise, so timing costs the calls nothing
// (AsyncLocalStorage would slow every await of the process while it is on). Off unless
// ORDERDESK_HOST_TIMING names a file; then one line per timed call, `<channel> <host ms> <gateway ms>`:
// a channel name and numbers only, never a call's input, its answer or a key.
import { createWriteStream, type WriteStream } from 'node:fs';
import type { FetchFn } from '../gateway/index.js';
import { nodeHttpFetch } from '../gateway/node-http.js';

/** The environment variable naming the file the lines go to. */
export const HOST_TIMING_ENV = 'ORDERDESK_HOST_TIMING';

/**
 * The channels timed, with the gateway operations each makes (the order, and its risk reads; a
 * chart's bars and a chain load's reads).
 */
export const TIMED_CHANNELS: Readonly<Record<string, readonly string[]>> = {
  'orders.place': ['placeorder', 'quotes', 'symbol'],
  'orders.modify': ['modifyorder', 'quotes', 'symbol'],
  'orders.cancel': ['cancelorder'],
  'market.ticker': ['ticker'],
  'market.expiry': ['expiry'],
  'market.search': ['search'],
  'market.quotes': ['quotes'],
  'market.optionChain': ['optionchain'],
  'market.multiquotes': ['multiquotes'],
};

/** Exchanges remembered: far more than one call's, so a call's window always finds its own. */
const KEPT_EXCHANGES = 256;

export interface HostTiming {
  /** Runs one call's work (through its reply), then writes its line if the channel is timed. */
  measure(channel: string, receivedAt: number, work: () => Promise<void>): Promise<void>;
  /**
   * The gateway clients' transport, each exchange recorded: node:http with a keep-alive agent per
   * gateway origin, as each client has its own without timing.
   */
  transport: FetchFn;
  close(): Promise<void>;
}

interface Exchange {
  operation: string;
  start: number;
  end: number;
}

/** `http://host/api/v1/placeorder` → `placeorder`; the ticker's `/api/v1/ticker/NSE:SBIN` → `ticker`. */
function operationOf(url: string): string {
  const path = new URL(url).pathname.split('/').filter(Boolean);
  const at = path.indexOf('v1');
  return (at >= 0 ? path[at + 1] : path.at(-1)) ?? '';
}

export function createHostTiming(path: string): HostTiming {
  const out: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  const exchanges: Exchange[] = [];
  const perOrigin = new Map<string, FetchFn>();
  const transportFor = (url: string): FetchFn => {
    const origin = new URL(url).origin;
    let fetch = perOrigin.get(origin);
    if (!fetch) perOrigin.set(origin, (fetch = nodeHttpFetch()));
    return fetch;
  };
  const record = (operation: string, start: number) => {
    exchanges.push({ operation, start, end: performance.now() });
    if (exchanges.length > KEPT_EXCHANGES) exchanges.shift();
  };
  return {
    async measure(channel, receivedAt, work) {
      await work();
      const operations = TIMED_CHANNELS[channel];
      if (!operations) return;
      const sent = performance.now();
      let gatewayMs = 0;
      for (const e of exchanges)
        if (e.start >= receivedAt && e.end <= sent && operations.includes(e.operation))
          gatewayMs += e.end - e.start;
      const hostMs = sent - receivedAt - gatewayMs;
      out.write(`${channel} ${hostMs.toFixed(3)} ${gatewayMs.toFixed(3)}\n`);
    },
    async transport(input, init) {
      const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
      const operation = operationOf(url);
      const start = performance.now();
      let answered;
      try {
        answered = await transportFor(url)(input, init);
      } catch (err) {
        record(operation, start);
        throw err;
      }
      const answer = answered;
      // The exchange is over once the body is read, as the client reads it.
      return {
        status: answer.status,
        headers: answer.headers,
        text: () => answer.text().finally(() => record(operation, start)),
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
