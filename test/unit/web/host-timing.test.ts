// The host's timing of its own work per bridge call (the bench's figure): the gateway exchanges a call
// makes are taken out of it, each call's apart from another's running at the same time, and a line
// holds the channel and numbers only.
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

describe("the host's own time per bridge call", () => {
  it('takes each call’s gateway exchanges out of its time, concurrent calls apart', async () => {
    const url = await slowGateway();
    const path = timingFile();
    const timing = createHostTiming(path);
    const call = (channel: string, gatewayMs: number, ownMs: number) =>
      timing.measure(channel, performance.now(), async () => {
        const answer = await timing.transport(`${url}/api/v1/placeorder?ms=${gatewayMs}`, { method: 'POST' });
        await answer.text();
        await sleep(ownMs);
      });
    await Promise.all([call('orders.place', 300, 10), call('market.quotes', 10, 150)]);
    await timing.close();
    const [quotes, place] = lines(path).sort((a, b) => a.channel.localeCompare(b.channel));
    expect([quotes?.channel, place?.channel]).toEqual(['market.quotes', 'orders.place']);
    // Each call's gateway time is its own exchange's: not the other's, which ran at the same time.
    expect(place?.gatewayMs).toBeGreaterThanOrEqual(295);
    expect(quotes?.gatewayMs).toBeGreaterThanOrEqual(9);
    expect(quotes?.gatewayMs).toBeLessThan(295);
    // And its own time is what is left: 10 ms, not the gateway's 300 nor the other call's 150.
    expect(place?.hostMs).toBeGreaterThanOrEqual(9);
    expect(place?.hostMs).toBeLessThan(145);
    expect(quotes?.hostMs).toBeGreaterThanOrEqual(145);
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
