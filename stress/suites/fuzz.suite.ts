// Fuzz: 10,000 mutated gateway answers through the gateway client's parsers, 10,000 random IPC
// payloads through the core's router, and 10,000 random WebSocket frames at the paper gateway's feed
// and at the browser-mode bridge. Every case must come back as a typed error or a parsed value:
// nothing thrown, nothing left unanswered, the servers still answering at the end.
// The gateway and socket parts are in stress/lib/fuzz-gateway.ts and fuzz-sockets.ts; the IPC part is here.
import fc from 'fast-check';
import { DEFAULT_SETTINGS } from '../../src-main/contract/index.js';
import { CHANNEL_NAME_LIST } from '../../src-main/shared/ipc-names.js';
import { LIMITS, startCore } from '../../test/support/core-harness.js';
import { startStressPaper } from '../lib/paper.js';
import { mutate, mutationCase } from '../lib/mutate.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';
import { CASES, SBIN_LIMIT_BUY, typedResult } from '../lib/fuzz-cases.js';
import { fuzzGatewayAnswers, recordSamples } from '../lib/fuzz-gateway.js';
import { fuzzBridge, fuzzPaperFeed } from '../lib/fuzz-sockets.js';

/** Valid inputs to mutate, so that a share of the cases get past the first check of their channel. */
const VALID_INPUTS: Partial<Record<(typeof CHANNEL_NAME_LIST)[number], unknown>> = {
  'orders.place': SBIN_LIMIT_BUY,
  'orders.cancel': { orderid: '1' },
  'orders.status': { orderid: '1' },
  'market.quotes': { exchange: 'NSE', symbol: 'SBIN' },
  'market.depth': { exchange: 'NSE', symbol: 'SBIN' },
  'market.search': { query: 'SBI', exchange: 'NSE' },
  'settings.update': { risk: { maxQuantityPerOrder: 100 } },
  'journal.query': { limit: 10, order: 'desc' },
  'watcher.setVisibility': { visible: true },
};

/** Channels left out: they end the core's use of its key or profile, which the rest of the run needs. */
const SPARED = new Set(['apiKey.clear', 'apiKey.set', 'profiles.remove', 'profiles.switch']);

async function fuzzRouter(
  ctx: SuiteContext,
  invoke: (channel: string, input: unknown) => Promise<unknown>,
): Promise<void> {
  const channels = [...CHANNEL_NAME_LIST.filter((c) => !SPARED.has(c)), 'no.such.channel', '', '__proto__'];
  const validKeys = Object.keys(VALID_INPUTS);
  const arb = fc.oneof(
    fc.record({ channel: fc.constantFrom(...channels), input: fc.anything({ maxDepth: 3 }) }),
    fc.tuple(fc.constantFrom(...validKeys), mutationCase(1)).map(([channel, c]) => {
      const text = mutate(VALID_INPUTS[channel as keyof typeof VALID_INPUTS], c);
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch {
        input = text;
      }
      return { channel, input };
    }),
  );
  const cases = fc.sample(arb, { seed: ctx.seed + 1, numRuns: CASES });
  let ok = 0;
  let typed = 0;
  let crashes = 0;
  let firstCrash = '';
  for (const c of cases) {
    try {
      const r = await invoke(c.channel, c.input);
      if (!typedResult(r)) throw new Error(`untyped answer ${JSON.stringify(r)?.slice(0, 200)}`);
      if ((r as { ok: boolean }).ok) ok++;
      else typed++;
    } catch (err) {
      crashes++;
      firstCrash ||= `${c.channel}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  ctx.figure('IPC payloads: cases', cases.length);
  ctx.figure('IPC payloads: ok / typed errors / crashes', `${ok} / ${typed} / ${crashes}`);
  ctx.check('every random IPC payload answered ok or with a typed error', crashes === 0, firstCrash);
}

export const suite: StressSuite = {
  name: 'fuzz',
  description: `${CASES} cases each: gateway answers, IPC payloads, paper feed frames, bridge frames`,
  async run(ctx) {
    const paper = await startStressPaper();
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', { risk: { ...LIMITS.risk, priceBandPercent: 0 } });
      await h.core.pollNow();
      const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
      if (!key) throw new Error('the core made no paper key');

      let t = performance.now();
      const samples = await recordSamples(paper.gw.url, key);
      await fuzzGatewayAnswers(ctx, samples);
      ctx.figure('gateway answers: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);

      t = performance.now();
      await fuzzRouter(ctx, (channel, input) => h.core.router.invoke(channel as never, input as never));
      ctx.figure('IPC payloads: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);
      // The core still answers, on the settings it had or on a valid change the fuzz made.
      const after = await h.core.router.invoke('settings.get', undefined);
      ctx.check(
        'the core still answers after the IPC fuzz',
        after.ok && typeof after.value.risk === typeof DEFAULT_SETTINGS.risk,
      );

      t = performance.now();
      await fuzzPaperFeed(ctx, `${paper.gw.url.replace(/^http/, 'ws')}/ws`, key);
      ctx.figure('paper feed frames: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);

      t = performance.now();
      await fuzzBridge(ctx, h.core);
      ctx.figure('bridge frames: time', `${((performance.now() - t) / 1000).toFixed(1)} s`);
    } finally {
      await h.stop();
      await paper.stop();
    }
  },
};
