// Brackets through faults: 50 bracketed entries on the paper gateway (a child process, SIGKILLed and
// started again mid-run), the bracket keeper sending its stops and targets through the fault proxy
// (answers dropped after the request reached the gateway, connections reset before it, 500s, 429s,
// truncated answers, successes without an order id). Tight levels on the moving paper market make
// some stops and targets fill. Then, the faults off and the books settled: no leg with two working
// orders, none filled beyond its entry, every open quantity covered by exactly one stop and one
// target, and every protective order in the gateway's book one the keeper knows.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ProtectionSpec, type OrderRecord } from '../../src-main/contract/index.js';
import {
  createBracketKeeper,
  type BracketHazard,
  type SendResult,
} from '../../src-main/core/protection/index.js';
import { createGatewayClient, type GatewayClient } from '../../src-main/gateway/index.js';
import { gatewayPorts, placeEntry, snapshots } from '../../test/support/bracket-paper.js';
import { startFaultProxy, type FaultMode } from '../../test/support/fault-proxy.js';
import { freePort, killHard, sleep, startGatewayChild } from '../lib/gateway-child.js';
import { createRng } from '../lib/rng.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

const ENTRIES = Number(process.env.STRESS_BRACKETS ?? 50);
const SYMBOLS = [
  'SBIN',
  'ITC',
  'INFY',
  'TCS',
  'KOTAKBANK',
  'WIPRO',
  'RELIANCE',
  'HDFCBANK',
  'AXISBANK',
  'LT',
];
/** Share of the keeper's requests that meet a fault while the faults are on. */
const FAULT_RATE = 0.3;
const ROUNDS = 80;
const ROUND_MS = 250;
/** Rounds at which the gateway is SIGKILLed, and how long it stays down. */
const KILL_AT = 40;
const DOWN_MS = 1_500;
const SETTLE_ROUNDS = 40;

const spec = ProtectionSpec.parse({
  stop: { by: 'percent', value: '0.05' },
  target: { by: 'percent', value: '0.05' },
});

async function run(ctx: SuiteContext): Promise<void> {
  const rng = createRng(ctx.seed);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const key = 'b'.repeat(64);
  const dataDir = join(ctx.tmpDir, 'paper');
  let child: ChildProcess = await startGatewayChild(port, dataDir, key);
  const proxy = await startFaultProxy(url);
  let faultsOn = true;
  const faults: Record<string, number> = {};
  proxy.decide((path) => {
    if (!faultsOn || !/placeorder|modifyorder|cancelorder/.test(path) || rng.next() >= FAULT_RATE)
      return { kind: 'pass' };
    const modes: [string, FaultMode][] = [
      ['dropped after the gateway', { kind: 'drop', forward: true }],
      ['reset before the gateway', { kind: 'drop', forward: false }],
      ['500', { kind: 'error500' }],
      ['429', { kind: 'rate_limit', retryAfter: 1 }],
      ['truncated', { kind: 'garbage', style: 'truncated' }],
      ['no order id', { kind: 'strip', fields: ['orderid'] }],
      ['delayed', { kind: 'delay', ms: 300 }],
    ];
    const [name, mode] = modes[Math.floor(rng.next() * modes.length)]!;
    faults[name] = (faults[name] ?? 0) + 1;
    return mode;
  });
  const direct = createGatewayClient({ baseUrl: url, getApiKey: () => key, rateLimit: 9 });
  const faulty: GatewayClient = createGatewayClient({
    baseUrl: proxy.url,
    getApiKey: () => key,
    rateLimit: 9,
    timeoutMs: { mutation: 2_000 },
  });
  const hazards: BracketHazard[] = [];
  const protectiveIds = new Set<string>();
  const tagged = (r: SendResult): SendResult => {
    if (r.ok) protectiveIds.add(r.orderid);
    return r;
  };
  const ports = gatewayPorts(faulty, 'bracket');
  const keeper = createBracketKeeper({ ...ports, place: async (o) => tagged(await ports.place(o)) }, (h) =>
    hazards.push(h),
  );
  const readBook = async (): Promise<OrderRecord[] | undefined> => {
    const r = await direct.orderbook();
    return r.ok ? r.value.data.orders : undefined;
  };

  try {
    const entries: string[] = [];
    for (let n = 0; n < ENTRIES; n++) {
      const symbol = SYMBOLS[n % SYMBOLS.length]!;
      const orderid = await placeEntry(direct, {
        symbol,
        // Distinct per symbol (1–5), so each entry's legs are told apart by their quantity.
        quantity: 1 + Math.floor(n / SYMBOLS.length),
      });
      entries.push(orderid);
      keeper.attach({
        orderid,
        symbol,
        exchange: 'NSE',
        product: 'MIS',
        action: 'BUY',
        tick: 0.05,
        spec,
      });
    }
    ctx.note(`${ENTRIES} entries placed; faults on`);
    const levelsSeen = new Map<string, { stop?: number; target?: number }>();
    for (let round = 0; round < ROUNDS + SETTLE_ROUNDS; round++) {
      if (round === ROUNDS) {
        faultsOn = false;
        ctx.note('faults off; settling');
      }
      if (round === KILL_AT) {
        await killHard(child);
        ctx.note('gateway SIGKILLed');
        await sleep(DOWN_MS);
        child = await startGatewayChild(port, dataDir, key);
        ctx.note('gateway back');
      }
      const book = await readBook();
      if (book) await keeper.onBook(snapshots(book));
      // A bracket's levels as last known: the keeper lets a bracket go once it has closed.
      for (const id of entries) {
        const l = keeper.levelsOf(id);
        if (l) levelsSeen.set(id, l);
      }
      await sleep(ROUND_MS);
    }

    const book = (await readBook()) ?? [];
    const rows = new Map(book.map((o) => [o.orderid, o]));
    const protective = book.filter((o) => o.strategy === 'bracket');
    const working = (o: OrderRecord) => o.order_status === 'open' || o.order_status === 'trigger pending';
    const filled = (o: OrderRecord) => o.filled_quantity ?? (o.order_status === 'complete' ? o.quantity : 0);
    let doubled = 0;
    let overfilled = 0;
    let uncovered = 0;
    let stopsFilled = 0;
    let targetsFilled = 0;
    // An entry's legs: the bracket orders of its symbol at its levels for its quantity.
    for (const id of entries) {
      const entry = rows.get(id)!;
      const levels = levelsSeen.get(id);
      const legs = protective.filter(
        (o) =>
          o.symbol === entry.symbol &&
          o.quantity === entry.quantity &&
          ((o.pricetype === 'SL-M' && o.trigger_price === levels?.stop) ||
            (o.pricetype === 'LIMIT' && o.price === levels?.target)),
      );
      const stops = legs.filter((o) => o.pricetype === 'SL-M');
      const targets = legs.filter((o) => o.pricetype === 'LIMIT');
      stopsFilled += stops.reduce((n, o) => n + filled(o), 0) > 0 ? 1 : 0;
      targetsFilled += targets.reduce((n, o) => n + filled(o), 0) > 0 ? 1 : 0;
      const open = filled(entry) - legs.reduce((n, o) => n + filled(o), 0);
      if (open < 0) overfilled += 1;
      for (const side of [stops, targets]) {
        const live = side.filter(working);
        if (live.length > 1) doubled += 1;
        const cover = live.reduce((n, o) => n + o.quantity - filled(o), 0);
        if (cover !== Math.max(0, open)) uncovered += 1;
      }
    }
    const unknownToKeeper = protective.filter((o) => !protectiveIds.has(o.orderid)).length;
    ctx.figure('bracketed entries', ENTRIES);
    ctx.figure('faults met by the keeper (by kind)', JSON.stringify(faults));
    ctx.figure('protective orders in the gateway book', protective.length);
    ctx.figure('brackets ended by the target / by the stop', `${targetsFilled} / ${stopsFilled}`);
    ctx.figure('protective orders whose place answer was lost (adopted)', unknownToKeeper);
    ctx.figure('hazards told', JSON.stringify(hazards.map((h) => h.kind)));
    ctx.check('no leg with two working orders', doubled === 0, `${doubled}`);
    ctx.check('no bracket closed more than its entry filled', overfilled === 0, `${overfilled}`);
    ctx.check('every open quantity covered by one stop and one target', uncovered === 0, `${uncovered}`);
    ctx.check('no refusal or overshoot told', hazards.length === 0, JSON.stringify(hazards.slice(0, 3)));
  } finally {
    await proxy.stop();
    await killHard(child);
  }
}

export const suite: StressSuite = {
  name: 'brackets',
  description: `${ENTRIES} bracketed entries through faults and a gateway restart: no protective order doubled or missing`,
  run,
};
