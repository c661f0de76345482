// The host's timing of its own work per order call (the bench's figure): the gateway exchanges the
// call makes are taken out of it, a poll running beside it is not, and a line holds the channel and
// numbers only.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostTiming, hostTimingFrom } from '../../../src-main/web/host-timing.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A gateway answering after `?ms=` milliseconds. */
async function slowGateway(): Promise<string> {
  const server = http.createServer((req, res) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(() => res.end('{"status":"success"}'), ms);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function timingFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'host-timing-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'timing.txt');
}

function lines(path: string): { channel: string; hostMs: number; gatewayMs: number }[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [channel = '', host = '', gateway = ''] = l.split(' ');
      return { channel, hostMs: Number(host), gatewayMs: Number(gateway) };
    });
}

describe("the host's own time per order call", () => {
  it("takes the call's own gateway exchanges out of its time, not a concurrent poll's", async () => {
    const url = await slowGateway();
    const path = timingFile();
    const timing = createHostTiming(path);
    const exchange = async (operation: string, ms: number) =>
      (await timing.transport(`${url}/api/v1/${operation}?ms=${ms}`, { method: 'POST' })).text();
    // A poll that starts with the order and outlasts it, and one inside it: neither is the order's.
    const outlasting = exchange('orderbook', 400);
    await timing.measure('orders.place', performance.now(), async () => {
      await exchange('quotes', 20);
      await Promise.all([exchange('placeorder', 200), exchange('positionbook', 100)]);
      await sleep(30);
    });
    await outlasting;
    // Channels without order work are not timed.
    await timing.measure(
      'books.orders',
      performance.now(),
      async () => void (await exchange('orderbook', 5)),
    );
    await timing.close();
    const written = lines(path);
    expect(written.map((l) => l.channel)).toEqual(['orders.place']);
    const [place] = written;
    // Its quote and its placeorder (~220 ms), not the polls' (the position book's 100 ms ran beside it).
    expect(place?.gatewayMs).toBeGreaterThanOrEqual(215);
    expect(place?.gatewayMs).toBeLessThan(310);
    // Its own 30 ms (and the transport's few), not the 200 ms placeorder nor the 400 ms poll.
    expect(place?.hostMs).toBeGreaterThanOrEqual(29);
    expect(place?.hostMs).toBeLessThan(190);
  });

  it('writes channel names and numbers only', async () => {
    const url = await slowGateway();
    const path = timingFile();
    const timing = createHostTiming(path);
    await timing.measure('orders.place', performance.now(), async () => {
      const answer = await timing.transport(`${url}/api/v1/placeorder`, {
        method: 'POST',
        body: JSON.stringify({ apikey: 'k'.repeat(64), symbol: 'SBIN', quantity: '7' }),
      });
      await answer.text();
    });
    await timing.close();
    expect(readFileSync(path, 'utf8')).toMatch(/^orders\.place \d+\.\d{3} \d+\.\d{3}\n$/);
  });

  it('is off unless ORDERDESK_HOST_TIMING names a file', () => {
    expect(hostTimingFrom({})).toBeUndefined();
    expect(hostTimingFrom({ ORDERDESK_HOST_TIMING: '' })).toBeUndefined();
    const timing = hostTimingFrom({ ORDERDESK_HOST_TIMING: timingFile() });
    expect(timing).toBeDefined();
    cleanups.push(() => timing?.close());
  });
});
