// The account guard's flatten through gateway faults: an account of 20 positions (two BANKNIFTY
// futures above their freeze quantity) and 30 working orders (10 trigger pending) on the paper
// gateway as a child process, flattened through a core's own order channels behind the fault proxy
// (answers dropped after the request reached the gateway, connections reset before it, 500s), with
// the gateway SIGKILLed and started again mid-flatten. Invariants, read straight from the gateway:
// it ends flat, no position's exits add up to more than was open (0 duplicate exits), no exit above
// the freeze quantity, and every exit the gateway took is one in its book.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startFlatten } from '../../src-main/core/close-all/index.js';
import { createGatewayClient, systemClock } from '../../src-main/gateway/index.js';
import { LIMITS, startCore, type Paper } from '../../test/support/core-harness.js';
import { startFaultProxy, type FaultMode } from '../../test/support/fault-proxy.js';
import { audit, flattenDeps, seedAccount } from '../../test/support/flatten-account.js';
import { freePort, killHard, sleep, startGatewayChild } from '../lib/gateway-child.js';
import { createRng } from '../lib/rng.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

/** Share of order requests that meet a fault while the faults are on. */
const FAULT_RATE = 0.3;
/** When the gateway is SIGKILLed after the flatten starts, and how long it stays down. */
const KILL_AFTER_MS = 1_500;
const DOWN_MS = 1_500;
const GIVE_UP_MS = 45_000;

async function run(ctx: SuiteContext): Promise<void> {
  const rng = createRng(ctx.seed ^ 0x9a4d);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = join(ctx.tmpDir, 'paper');
  const proxy = await startFaultProxy(url);
  let child: ChildProcess | undefined;
  let key = '';
  let faultsOn = false;
  const faults: Record<string, number> = {};
  proxy.decide((path) => {
    if (!faultsOn || !/placeorder|cancelorder/.test(path) || rng.next() >= FAULT_RATE)
      return { kind: 'pass' };
    const modes: [string, FaultMode][] = [
      ['dropped after the gateway', { kind: 'drop', forward: true }],
      ['reset before the gateway', { kind: 'drop', forward: false }],
      ['500', { kind: 'error500' }],
    ];
    const [name, mode] = modes[Math.floor(rng.next() * modes.length)]!;
    faults[name] = (faults[name] ?? 0) + 1;
    return mode;
  });
  // The core's paper profile is the child gateway, behind the proxy, with the core's own key.
  const paper = { proxy } as unknown as Paper;
  const h = await startCore(paper, {
    dataDir: join(ctx.tmpDir, 'core'),
    ports: {
      clock: systemClock,
      gateway: { retry: { maxRetries: 0 }, timeoutMs: { mutation: 3_000 } },
      startPaperGateway: async ({ apiKey }) => {
        key = apiKey;
        child = await startGatewayChild(port, dataDir, apiKey);
        return { url: proxy.url, stop: async () => undefined };
      },
    },
  });
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    const direct = createGatewayClient({ baseUrl: url, getApiKey: () => key, rateLimit: 8 });
    // The two nearest BANKNIFTY futures of the child's (real) day.
    const found = await direct.search({ query: 'BANKNIFTY', exchange: 'NFO' });
    if (!found.ok) throw new Error(found.error.message);
    const futures = found.value.data
      .filter((r) => r.name === 'BANKNIFTY' && r.instrumenttype === 'FUTIDX')
      .sort((a, b) => Date.parse(a.expiry) - Date.parse(b.expiry))
      .slice(0, 2)
      .map((r) => r.symbol);
    if (futures.length !== 2) throw new Error(`BANKNIFTY futures: ${futures.join(', ')}`);
    const seeded = await seedAccount(direct, {
      equities: 18,
      futures,
      limits: 20,
      stops: 10,
      between: () => sleep(1000),
    });
    const before = await audit(direct, seeded);
    ctx.note(`seeded: ${before.open.length} positions, ${before.working.length} working; faults on`);
    await sleep(1200);

    const reads = createGatewayClient({ baseUrl: proxy.url, getApiKey: () => key });
    faultsOn = true;
    proxy.reset();
    const t0 = performance.now();
    const flatten = startFlatten({
      ...flattenDeps(h, reads),
      now: () => Date.now(),
      sleep,
      progress: (p) => ctx.note(`round ${p.rounds}: ${p.text}`.slice(0, 160)),
    });
    const restart = (async () => {
      await sleep(KILL_AFTER_MS);
      if (child) await killHard(child);
      ctx.note('gateway SIGKILLed mid-flatten');
      await sleep(DOWN_MS);
      child = await startGatewayChild(port, dataDir, key);
      ctx.note('gateway back');
    })();
    const timeout = sleep(GIVE_UP_MS).then(() => 'timeout' as const);
    const outcome = await Promise.race([flatten.done, timeout]);
    flatten.stop();
    await restart;
    const ms = performance.now() - t0;
    faultsOn = false;

    const after = await audit(direct, seeded);
    const journal = await h.core.router.invoke('journal.query', {});
    const unknown = journal.ok ? journal.value.filter((e) => e.outcome === 'unknown').length : -1;
    const above = after.exits.filter((o) => o.exchange === 'NFO' && o.quantity > 600).length;
    const state = outcome === 'timeout' ? `not flat in ${GIVE_UP_MS / 1000} s` : outcome.state;
    ctx.figure(
      'account',
      `${before.open.length} positions (2 above freeze), ${before.working.length} working`,
    );
    ctx.figure('faults met (by kind)', JSON.stringify(faults));
    ctx.figure(
      'outcome',
      `${state}, ${outcome === 'timeout' ? '?' : outcome.rounds} round(s), ${(ms / 1000).toFixed(1)} s`,
    );
    ctx.figure(
      'order requests reaching the gateway',
      `${proxy.forwardedTo('/api/v1/cancelorder')} cancels, ${proxy.forwardedTo('/api/v1/placeorder')} exits`,
    );
    ctx.figure('exits in the gateway book', after.exits.length);
    ctx.figure('journal entries with an unknown outcome', unknown);
    ctx.figure('left', `${after.open.length} open, ${after.working.length} working`);
    ctx.check(
      'ends flat',
      state === 'flat' && after.open.length === 0 && after.working.length === 0,
      `${state}; ${after.open.length} open, ${after.working.length} working`,
    );
    ctx.check('0 duplicate exits', after.duplicates.length === 0, after.duplicates.join('; '));
    ctx.check('no exit above the freeze quantity', above === 0, `${above}`);
    ctx.check(
      'every exit the gateway took is one in its book',
      proxy.forwardedTo('/api/v1/placeorder') >= after.exits.length,
      `${proxy.forwardedTo('/api/v1/placeorder')} forwarded, ${after.exits.length} in the book`,
    );
  } finally {
    await h.stop();
    await proxy.stop();
    if (child) await killHard(child);
  }
}

export const suite: StressSuite = {
  name: 'guard-flatten',
  description:
    'the account flattened through dropped answers, resets, 500s and a gateway restart: flat, 0 duplicate exits',
  run,
};
