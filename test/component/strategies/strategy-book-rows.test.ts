// The Strategies book's words and what its actions send: state words, exit and resume lines, the
// stop/target text, the lines of the tree (legs under their strategy when opened), the roll's
// neighbouring strikes and its preview at the touch with the net credit or debit.
import { describe, expect, it } from 'vitest';
import type { StrategyLegView, StrategyView } from '@contract';
import {
  bookLines,
  exitLines,
  exitText,
  expiryQuery,
  lotsText,
  neighbourStrikes,
  netText,
  parseRupees,
  remainingLegs,
  resumeLines,
  rollable,
  rollLine,
  rollPreview,
  STATE_WORDS,
  strategyNote,
} from '../../../src-renderer/src/lib/strategy-book-rows';
import { strategyView, twoLots } from '../../support/component/strategy-views';

const CE = 'NIFTY25NOV2624000CE';

const leg = (over: Partial<StrategyLegView>): StrategyLegView => twoLots({ symbol: CE, ...over });
const strategy = (over: Partial<StrategyView>): StrategyView =>
  strategyView({
    name: 'Bear call',
    legs: [leg({}), leg({ symbol: 'NIFTY25NOV2624200CE', action: 'BUY', open: 150, ltp: 40 })],
    unrealised: '-120.50',
    pnl: '-120.50',
    ...over,
  });

describe('words', () => {
  it('says every state in words', () => {
    expect(Object.values(STATE_WORDS)).toEqual([
      'sending',
      'partial',
      'open',
      'exiting',
      'closed',
      'exit failed',
    ]);
  });

  it('counts lots with the units', () => {
    expect(lotsText(150, 75)).toBe('2 lots (150)');
    expect(lotsText(75, 75)).toBe('1 lot (75)');
    expect(lotsText(10, 1)).toBe('10');
  });

  it('says why and when a strategy exited', () => {
    const s = strategy({
      state: 'closed',
      exit: { why: 'stop', at: '2026-11-29T10:42:05+05:30', pnl: '-2000.00', orderids: ['9'], refused: [] },
    });
    expect(exitText(s)).toBe('stop hit at 10:42:05 (P&L -₹2,000.00)');
    expect(strategyNote(s)).toBe(exitText(s));
    expect(
      strategyNote(strategy({ legs: [leg({ state: 'refused', reason: 'margin short', open: 0 })] })),
    ).toBe('NIFTY 25 NOV 24000 CE refused: margin short');
  });
});

describe('what the actions send', () => {
  it('exits each open leg on the other side at MARKET', () => {
    expect(exitLines(strategy({}))).toEqual([
      'Buy 150 NIFTY 25 NOV 24000 CE at MARKET',
      'Sell 150 NIFTY 25 NOV 24200 CE at MARKET',
    ]);
  });

  it('resumes the waiting and refused legs, BUY first; an unanswered one is never among them', () => {
    const s = strategy({
      state: 'partial',
      legs: [
        leg({ state: 'sent' }),
        leg({ symbol: 'NIFTY25NOV2624400CE', state: 'waiting', open: 0, pricetype: 'LIMIT', price: 12.5 }),
        leg({ symbol: 'NIFTY25NOV2624200CE', action: 'BUY', state: 'refused', reason: 'RMS', open: 0 }),
        leg({ symbol: 'NIFTY25NOV2624600CE', state: 'unknown', open: 0 }),
      ],
    });
    expect(remainingLegs(s)).toHaveLength(2);
    expect(resumeLines(s)).toEqual([
      'Buy 150 NIFTY 25 NOV 24200 CE at MARKET (refused before: RMS)',
      'Sell 150 NIFTY 25 NOV 24400 CE at 12.50',
    ]);
  });

  it('reads a stop or target in rupees; empty removes it', () => {
    expect(parseRupees('₹2,000.50', 'Stop')).toEqual({ ok: true, value: 2000.5 });
    expect(parseRupees('  ', 'Stop')).toEqual({ ok: true, value: null });
    expect(parseRupees('0', 'Target')).toMatchObject({ ok: false });
    expect(parseRupees('12.345', 'Target')).toEqual({
      ok: false,
      reason: 'Target must be rupees, at most 2 decimals',
    });
    expect(parseRupees('-5', 'Stop')).toMatchObject({ ok: false });
  });
});

describe('bookLines', () => {
  it('lists open strategies newest first, closed last, legs under an opened one', () => {
    const a = strategy({ id: 'a', createdAt: '2026-11-29T09:00:00+05:30' });
    const b = strategy({ id: 'b', createdAt: '2026-11-29T11:00:00+05:30' });
    const c = strategy({ id: 'c', state: 'closed', createdAt: '2026-11-29T12:00:00+05:30' });
    expect(bookLines([a, c, b], new Set(['a'])).map((l) => l.key)).toEqual([
      'b',
      'a',
      'a/legs',
      'a/0',
      'a/1',
      'c',
    ]);
  });
});

describe('roll', () => {
  const listed = [22800, 23800, 23900, 24000, 24100, 24200, 24300, 24400, 24500, 24600, 24700].flatMap(
    (k) => [
      { symbol: `NIFTY25NOV26${k}CE`, exchange: 'NFO' },
      { symbol: `NIFTY25NOV26${k}PE`, exchange: 'NFO' },
    ],
  );

  it('asks the search for the leg expiry', () => {
    expect(expiryQuery(leg({}))).toBe('NIFTY25NOV26');
    expect(expiryQuery(leg({ symbol: 'SBIN' }))).toBeUndefined();
  });

  it('offers the neighbouring strikes of the same expiry and type, not the leg own', () => {
    const other = [
      { symbol: 'NIFTY02DEC2624100CE', exchange: 'NFO' },
      { symbol: 'BANKNIFTY25NOV2624100CE', exchange: 'NFO' },
      { symbol: 'NIFTY25NOV2624100CE', exchange: 'BFO' },
    ];
    const c = neighbourStrikes(leg({}), [...listed, ...other], 3);
    expect(c.map((x) => x.strike)).toEqual([22800, 23800, 23900, 24100, 24200, 24300]);
    expect(c.every((x) => x.symbol.endsWith('CE') && x.symbol.startsWith('NIFTY25NOV26'))).toBe(true);
  });

  it('previews a short leg rolled: buy back at the ask, sell the new one at the bid', () => {
    const p = rollPreview(leg({}), 'NIFTY25NOV2624100CE', { bid: 99.5, ask: 100.5 }, { bid: 70, ask: 71 });
    expect(p?.close).toEqual({ action: 'BUY', symbol: CE, quantity: 150, price: 100.5 });
    expect(p?.open).toEqual({ action: 'SELL', symbol: 'NIFTY25NOV2624100CE', quantity: 150, price: 70 });
    // −100.5 × 150 + 70 × 150 = −4,575: a debit.
    expect(p?.net).toBe(-4575);
    expect(netText(p?.net)).toBe('Net debit ₹4,575.00');
    expect(rollLine('close', p!.close)).toBe('close NIFTY 25 NOV 24000 CE 150 at ~100.50');
    expect(rollLine('open', p!.open)).toBe('open NIFTY 25 NOV 24100 CE 150 at ~70.00');
  });

  it('has no net without both touches, and nothing to roll when flat', () => {
    const p = rollPreview(leg({ open: 75 }), 'X', { bid: 10, ask: 0 }, undefined);
    expect(p?.close.price).toBe(10);
    expect(p?.open.price).toBeUndefined();
    expect(netText(p?.net)).toBe('Net: no price to count it');
    expect(rollPreview(leg({ open: 0 }), 'X', undefined, undefined)).toBeUndefined();
  });

  it('rolls only an open option leg of an open or partial strategy', () => {
    expect(rollable(strategy({}), leg({}))).toBe(true);
    expect(rollable(strategy({ state: 'exiting' }), leg({}))).toBe(false);
    expect(rollable(strategy({}), leg({ open: 0 }))).toBe(false);
    expect(rollable(strategy({}), leg({ symbol: 'NIFTY25NOV26FUT' }))).toBe(false);
  });
});
