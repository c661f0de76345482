// The strategy builder's state (state/strategy-builder): legs added from chain cells (the same contract
// adds or takes off lots), templates around the money (a calendar without a next expiry says why),
// leg edits, the payoff worked out from the legs, the basket's margin, the send with its confirm, and
// a partial answer's two explicit choices calling strategies.resume and strategies.exit. A fake bridge
// stands in for the core here: the real paper gateway is exercised by test/e2e/desk-strategy-builder.
import { afterEach, describe, expect, it } from 'vitest';
import type { MarginEstimate, StrategyLegView, StrategyView } from '@contract';
import { chainStrikes } from '../../../src-renderer/src/lib/option-chain';
import type { ChainPick } from '../../../src-renderer/src/lib/strategy-legs';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { StrategyBuilderState } from '../../../src-renderer/src/state/strategy-builder.svelte';
import { settle } from '../../support/component/desk-fixture';
import { FakeBridge } from '../../support/component/fake-bridge';
import { EXPIRY, answerChain, listing } from '../chain/option-chain-fixture.js';

/** 20 Nov 2026, 10:30 IST: four days before the fixture's 24 NOV 26 expiry. */
const NOW = Date.parse('2026-11-20T05:00:00Z');
const SPOT = 24_985.35;
const stops: (() => void)[] = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function setup(expiries = [EXPIRY, '01-DEC-26']) {
  const bridge = new FakeBridge();
  answerChain(bridge, SPOT);
  const confirm = new ConfirmState();
  const builder = new StrategyBuilderState(bridge, { confirm, mode: () => 'paper', now: () => NOW });
  builder.takeChain({
    underlying: 'NIFTY',
    exchange: 'NFO',
    expiries,
    expiry: EXPIRY,
    strikes: chainStrikes(listing(), 'NIFTY', '24NOV26'),
    atm: 25_000,
    spot: SPOT,
    spotRef: { symbol: 'NIFTY', exchange: 'NSE_INDEX' },
  });
  return { bridge, confirm, builder };
}

function pick(strike: number, kind: 'CE' | 'PE', side: 'BUY' | 'SELL', ltp = 80): ChainPick {
  return {
    symbol: `NIFTY24NOV26${strike}${kind}`,
    exchange: 'NFO',
    kind,
    strike,
    strikeText: String(strike),
    expiry: '24NOV26',
    lotSize: 65,
    tickSize: 0.05,
    side,
    quote: { ltp, bid: ltp - 0.5, ask: ltp + 0.5, change: 0, changePercent: 0, volume: 1, seq: 0 },
  };
}

/** Answers the confirm the builder opens (yes or no), once it is open. */
async function answerConfirm(confirm: ConfirmState, yes: boolean): Promise<string[]> {
  for (let i = 0; i < 20 && !confirm.request; i++) await Promise.resolve();
  const lines = [...(confirm.request?.lines ?? [])];
  confirm.answer(yes);
  return lines;
}

function legView(
  symbol: string,
  action: 'BUY' | 'SELL',
  over: Partial<StrategyLegView> = {},
): StrategyLegView {
  return {
    symbol,
    exchange: 'NFO',
    action,
    quantity: 65,
    lotSize: 65,
    pricetype: 'MARKET',
    price: 0,
    state: 'sent',
    orderids: ['1'],
    open: action === 'BUY' ? 65 : -65,
    averagePrice: '80.50',
    ltp: 81,
    ...over,
  };
}

function view(state: StrategyView['state'], legs: StrategyLegView[]): StrategyView {
  return {
    id: 's1',
    name: 'Test condor',
    product: 'NRML',
    underlying: 'NIFTY',
    createdAt: '2026-11-20 10:30:00',
    state,
    legs,
    realised: '0.00',
    unrealised: null,
    pnl: null,
  };
}

describe('StrategyBuilderState: legs from the chain', () => {
  it('a bid adds a SELL leg; the same side adds lots, the other side takes them off', () => {
    const { builder } = setup();
    expect(builder.add(pick(25_000, 'CE', 'SELL'))).toBe(true);
    expect(builder.legs).toHaveLength(1);
    expect(builder.legs[0]).toMatchObject({ side: 'SELL', lots: 1, kind: 'CE', strike: 25_000, lotSize: 65 });
    expect(builder.notice).toMatch(/Added SELL 1 lot NIFTY 24 NOV 25000 CE/);
    // Premium: the mid of the quote's bid and ask.
    expect(builder.shownLegs[0]!.premium).toBe(80);

    builder.add(pick(25_000, 'CE', 'SELL'));
    expect(builder.legs[0]!.lots).toBe(2);
    builder.add(pick(25_000, 'CE', 'BUY'));
    expect(builder.legs[0]).toMatchObject({ side: 'SELL', lots: 1 });
    builder.add(pick(25_000, 'CE', 'BUY'));
    expect(builder.legs).toHaveLength(0);
    expect(builder.notice).toMatch(/Removed SELL/);
  });

  it('another underlying is refused while legs are held', () => {
    const { builder } = setup();
    builder.add(pick(25_000, 'PE', 'BUY'));
    const other = { ...pick(25_000, 'PE', 'BUY'), symbol: 'BANKNIFTY24NOV2652000PE', strike: 52_000 };
    expect(builder.add(other)).toBe(false);
    expect(builder.notice).toMatch(/holds NIFTY legs/);
    expect(builder.legs).toHaveLength(1);
  });

  it('the payoff and stats are worked out from the legs at once', () => {
    const { builder } = setup();
    builder.add(pick(25_000, 'CE', 'SELL', 90));
    builder.add(pick(25_000, 'PE', 'SELL', 100));
    // A round-step grid (25 for NIFTY near 25,000) with the strike on it.
    const spots = builder.curves!.spots;
    expect(spots.length).toBeGreaterThan(250);
    expect(spots[1]! - spots[0]!).toBe(25);
    expect(spots.includes(25_000)).toBe(true);
    const s = builder.stats!;
    expect(s.maxLoss).toBe('unlimited');
    expect(s.maxProfit).toBeCloseTo((90 + 100) * 65, 0);
    expect(s.breakevens).toHaveLength(2);
    expect(s.breakevens[0]).toBeCloseTo(25_000 - 190, 0);
    expect(s.breakevens[1]).toBeCloseTo(25_000 + 190, 0);
    expect(builder.netPremium).toBeCloseTo(190 * 65, 6);
  });
});

describe('StrategyBuilderState: today at the market', () => {
  it('values each leg at its own market price now: P&L today at the spot is 0, IV implied from it', () => {
    const { builder } = setup();
    // Premiums far from what any one IV would give both legs: each leg's IV is its own.
    builder.add(pick(25_000, 'CE', 'SELL', 90));
    builder.add(pick(24_800, 'PE', 'BUY', 35));
    builder.add(pick(25_300, 'CE', 'BUY', 22));
    const shown = builder.shownLegs;
    expect(shown.map((l) => l.iv)).not.toContain(null);
    expect(new Set(shown.map((l) => l.iv!.toFixed(4))).size).toBe(3);
    // Worth what the market asks now, the legs make and lose nothing at today's spot.
    expect(builder.atSpot).toBe(SPOT);
    expect(Math.abs(builder.pnlAtSpot!.today)).toBeLessThan(0.01);
  });
});

describe('StrategyBuilderState: templates and edits', () => {
  it('the iron condor places four legs around the money, premiums read at once', async () => {
    const { builder, bridge } = setup();
    expect(await builder.applyTemplate('iron-condor')).toBe(true);
    expect(builder.legs.map((l) => `${l.side} ${l.strike} ${l.kind}`)).toEqual([
      'SELL 24900 PE',
      'BUY 24800 PE',
      'SELL 25100 CE',
      'BUY 25200 CE',
    ]);
    expect(builder.name).toBe('NIFTY Iron condor');
    await settle();
    expect(bridge.callsTo('market.multiquotes').length).toBeGreaterThan(0);
    expect(builder.shownLegs.every((l) => l.premium !== null)).toBe(true);
    expect(builder.stats?.maxLoss).not.toBe('unlimited');
    expect(builder.stats?.maxProfit).not.toBe('unlimited');
  });

  it('a calendar with no later expiry listed says why; with one, it reads its strikes', async () => {
    const lone = setup([EXPIRY]).builder;
    expect(await lone.applyTemplate('calendar')).toBe(false);
    expect(lone.notice).toMatch(/no expiry after 24 NOV is listed/);
    expect(lone.legs).toHaveLength(0);

    const { builder, bridge } = setup();
    expect(await builder.applyTemplate('calendar')).toBe(true);
    expect(builder.legs.map((l) => `${l.side} ${l.symbol}`)).toEqual([
      'SELL NIFTY24NOV2625000CE',
      'BUY NIFTY01DEC2625000CE',
    ]);
    expect(bridge.callsTo('market.search').map((c) => (c.input as { query: string }).query)).toEqual([
      'NIFTY01DEC26',
    ]);
  });

  it('strike steps to the next listed one; side flips; lots are checked; a leg is removed', async () => {
    const { builder } = setup();
    builder.add(pick(25_700, 'CE', 'BUY'));
    const id = builder.legs[0]!.id;
    builder.stepStrike(id, 1);
    expect(builder.legs[0]).toMatchObject({ strike: 25_750, symbol: 'NIFTY24NOV2625750CE' });
    builder.stepStrike(id, 1);
    expect(builder.notice).toMatch(/No listed CE strike above 25750/);
    builder.stepStrike(id, -1);
    expect(builder.legs[0]!.strike).toBe(25_700);
    builder.flipSide(id);
    expect(builder.legs[0]!.side).toBe('SELL');
    builder.setLots(id, 0);
    expect(builder.notice).toMatch(/whole number/);
    builder.setLots(id, 3);
    expect(builder.legs[0]!.lots).toBe(3);
    // Another expiry at the same strike: not listed for 01 DEC in the fixture.
    await builder.setExpiry(id, '01DEC26');
    expect(builder.notice).toMatch(/25700 CE is not listed for 01 DEC/);
    builder.remove(id);
    expect(builder.legs).toHaveLength(0);
  });
});

describe('StrategyBuilderState: margin and send', () => {
  it('asks orders.margin for the whole basket, BUY legs first, and labels the source', async () => {
    const { builder, bridge } = setup();
    const est: MarginEstimate = {
      total: '52340.50',
      span: '40000.00',
      exposure: '12340.50',
      benefit: '80000.00',
      source: 'paper',
    };
    bridge.answer('orders.margin', () => ({ ok: true, value: est }));
    bridge.answer('market.optionGreeks', () => ({ ok: true, value: { greeks: [], failed: 0 } }));
    bridge.answer('market.watch', () => ({ ok: true, value: { id: 'w1', rejected: [] } }) as never);
    stops.push(builder.start());
    builder.add(pick(25_000, 'CE', 'SELL'));
    builder.add(pick(25_200, 'CE', 'BUY'));
    await new Promise((r) => setTimeout(r, 400));
    await settle();
    const asks = bridge.callsTo('orders.margin');
    expect(asks).toHaveLength(1);
    expect(asks[0]!.input).toMatchObject({
      positions: [
        { symbol: 'NIFTY24NOV2625200CE', action: 'BUY', quantity: 65, product: 'NRML' },
        { symbol: 'NIFTY24NOV2625000CE', action: 'SELL', quantity: 65, product: 'NRML' },
      ],
    });
    expect(builder.margin).toEqual({ kind: 'answer', value: est });
  });

  it('sends after the confirm (BUY first, paper said), never on a no', async () => {
    const { builder, bridge, confirm } = setup();
    bridge.answer('strategies.send', () => ({
      ok: true,
      value: view('open', [legView('NIFTY24NOV2625200CE', 'BUY'), legView('NIFTY24NOV2625000CE', 'SELL')]),
    }));
    builder.add(pick(25_000, 'CE', 'SELL'));
    builder.add(pick(25_200, 'CE', 'BUY'));
    expect(builder.sendProblem).toBe('Name the strategy');
    builder.name = 'Bear call';
    builder.stopText = '2,500';
    expect(builder.stop).toBe(2500);

    const no = builder.send();
    await answerConfirm(confirm, false);
    expect(await no).toBe(false);
    expect(bridge.callsTo('strategies.send')).toHaveLength(0);

    const yes = builder.send();
    const lines = await answerConfirm(confirm, true);
    expect(await yes).toBe(true);
    expect(lines[0]).toMatch(/^PAPER/);
    expect(lines[1]).toMatch(/^BUY 1 lot \(65\) NIFTY 24 NOV 25200 CE @ market/);
    expect(lines[2]).toMatch(/^SELL 1 lot \(65\) NIFTY 24 NOV 25000 CE/);
    const sent = bridge.callsTo('strategies.send');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toEqual({
      name: 'Bear call',
      product: 'NRML',
      stop: 2500,
      legs: [
        {
          symbol: 'NIFTY24NOV2625200CE',
          exchange: 'NFO',
          action: 'BUY',
          quantity: 65,
          lotSize: 65,
          pricetype: 'MARKET',
          price: 0,
        },
        {
          symbol: 'NIFTY24NOV2625000CE',
          exchange: 'NFO',
          action: 'SELL',
          quantity: 65,
          lotSize: 65,
          pricetype: 'MARKET',
          price: 0,
        },
      ],
    });
    expect(builder.result?.state).toBe('open');
    // Sent: a second press sends nothing until the answer is dismissed.
    expect(await builder.send()).toBe(false);
    expect(builder.sendError).toMatch(/was sent: Done/);
    expect(bridge.callsTo('strategies.send')).toHaveLength(1);
    builder.dismissResult();
    expect(builder.sendProblem).toBeUndefined();
  });

  it('partial: the refused words stay; Send remaining → strategies.resume, Unwind → strategies.exit', async () => {
    const { builder, bridge, confirm } = setup();
    const partial = view('partial', [
      legView('NIFTY24NOV2625200CE', 'BUY'),
      legView('NIFTY24NOV2625000CE', 'SELL', {
        state: 'refused',
        reason: 'RMS: margin exceeds',
        orderids: [],
        open: 0,
      }),
    ]);
    bridge
      .answer('strategies.send', () => ({ ok: true, value: partial }))
      .answer('strategies.resume', () => ({ ok: true, value: { ...partial, state: 'open' } }))
      .answer('strategies.exit', () => ({ ok: true, value: { ...partial, state: 'exiting' } }));
    builder.add(pick(25_000, 'CE', 'SELL'));
    builder.add(pick(25_200, 'CE', 'BUY'));
    builder.name = 'Partial';
    const sending = builder.send();
    await answerConfirm(confirm, true);
    await sending;
    expect(builder.result?.state).toBe('partial');
    expect(builder.result?.legs[1]?.reason).toBe('RMS: margin exceeds');
    // Nothing went again by itself.
    await settle();
    expect(bridge.callsTo('strategies.send')).toHaveLength(1);
    expect(bridge.callsTo('strategies.resume')).toHaveLength(0);

    const resume = builder.resume();
    const lines = await answerConfirm(confirm, true);
    await resume;
    expect(lines.some((l) => /SELL 65 NIFTY24NOV2625000CE \(refused\)/.test(l))).toBe(true);
    expect(bridge.callsTo('strategies.resume')).toEqual([
      { channel: 'strategies.resume', input: { id: 's1' } },
    ]);
    expect(builder.result?.state).toBe('open');

    builder.result = partial;
    const unwindNo = builder.unwind();
    await answerConfirm(confirm, false);
    await unwindNo;
    expect(bridge.callsTo('strategies.exit')).toHaveLength(0);
    const unwind = builder.unwind();
    await answerConfirm(confirm, true);
    await unwind;
    expect(bridge.callsTo('strategies.exit')).toEqual([{ channel: 'strategies.exit', input: { id: 's1' } }]);
    expect(builder.result?.state).toBe('exiting');
  });

  it('a refused send says the words; an unknown outcome says to look before sending again', async () => {
    const { builder, bridge, confirm } = setup();
    let kind: 'risk' | 'unknown_outcome' = 'risk';
    bridge.answer('strategies.send', () => ({ ok: false, error: { kind, message: 'max order value' } }));
    builder.add(pick(25_000, 'CE', 'SELL'));
    builder.name = 'X';
    let p = builder.send();
    await answerConfirm(confirm, true);
    expect(await p).toBe(false);
    expect(builder.sendError).toBe('max order value');
    kind = 'unknown_outcome';
    p = builder.send();
    await answerConfirm(confirm, true);
    await p;
    expect(builder.sendError).toMatch(/No answer: it may have gone out/);
    expect(bridge.callsTo('strategies.send')).toHaveLength(2);
  });
});

describe('StrategyBuilderState: following a saved strategy', () => {
  it('shows the open legs at their average price read-only, reveals the tab, and goes back', () => {
    const { builder } = setup();
    builder.add(pick(25_000, 'CE', 'SELL'));
    const draft = builder.legs;
    const saved = view('open', [
      legView('NIFTY24NOV2625200CE', 'BUY', { open: 130, averagePrice: '40.25' }),
      legView('NIFTY24NOV2625000CE', 'SELL', { open: -65, averagePrice: '95.10' }),
      legView('NIFTY24NOV2624800PE', 'SELL', { open: 0 }),
    ]);
    const before = builder.revealCount;
    builder.showSaved(saved);
    expect(builder.revealCount).toBe(before + 1);
    expect(builder.readOnly).toBe(true);
    expect(builder.shownLegs.map((l) => [l.side, l.lots, l.premium])).toEqual([
      ['BUY', 2, 40.25],
      ['SELL', 1, 95.1],
    ]);
    expect(builder.sendProblem).toMatch(/read only/);
    expect(builder.add(pick(25_100, 'CE', 'BUY'))).toBe(false);
    expect(builder.stats).toBeDefined();
    builder.stopFollowing();
    expect(builder.readOnly).toBe(false);
    expect(builder.legs).toBe(draft);
  });
});
