// What a position row makes of its brackets (the nearest stop and target, how many, the trailing
// state, the hazard) and the checks a typed or dragged level passes before it is sent.
import { describe, expect, it } from 'vitest';
import {
  bracketsByPosition,
  checkLevel,
  droppedLevel,
  lineAt,
  protectionKey,
  protectionOf,
  roundToTick,
  trailWord,
} from '../../../src-renderer/src/lib/protection-view';
import { bracket, leg, unprotected } from './fixtures';

describe('a position’s protection', () => {
  it('matches brackets to a position by exchange, symbol and product, closed ones left out', () => {
    const map = bracketsByPosition([
      bracket({ entry: 'A' }),
      bracket({ entry: 'B', product: 'CNC' }),
      bracket({ entry: 'C', state: 'closed' }),
    ]);
    expect(
      map.get(protectionKey({ exchange: 'NSE', symbol: 'SBIN', product: 'mis' }))?.map((b) => b.entry),
    ).toEqual(['A']);
    expect(map.get('NSE:SBIN:CNC')?.map((b) => b.entry)).toEqual(['B']);
  });

  it('shows a long’s nearest stop (the highest) and target (the lowest), with counts and the strongest trail', () => {
    const pr = protectionOf([
      bracket({ entry: 'A', stop: leg({ price: 885 }), target: leg({ price: 930 }) }),
      bracket({ entry: 'B', stop: leg({ price: 892.5 }), target: leg({ price: 925 }), trail: 'breakeven' }),
      bracket({ entry: 'C', stop: leg({ price: 880 }), target: undefined, trail: 'armed' }),
    ])!;
    expect(pr.stop?.price).toBe(892.5);
    expect(pr.stop?.bracket.entry).toBe('B');
    expect(pr.target?.price).toBe(925);
    expect([pr.stops, pr.targets]).toEqual([3, 2]);
    expect(trailWord(pr.trail)).toBe('BE');
  });

  it('a short’s nearest stop is the lowest and its target the highest', () => {
    const short = { action: 'SELL' as const };
    const pr = protectionOf([
      bracket({ ...short, entry: 'A', stop: leg({ price: 915 }), target: leg({ price: 880 }) }),
      bracket({ ...short, entry: 'B', stop: leg({ price: 910 }), target: leg({ price: 870 }) }),
    ])!;
    expect([pr.stop?.price, pr.target?.price]).toEqual([910, 880]);
  });

  it('names the unprotected and the overshooting bracket; a filled or cancelled leg is no level', () => {
    const pr = protectionOf([
      bracket({ entry: 'A', stop: leg({ state: 'filled', price: 890 }) }),
      unprotected({ entry: 'B' }),
      bracket({ entry: 'C', state: 'overshoot', open: -3 }),
    ])!;
    expect(pr.unprotected?.entry).toBe('B');
    expect(pr.overshoot?.entry).toBe('C');
    // B's refused stop is no level: C's stop (A's filled) is the one shown.
    expect(pr.stop?.bracket.entry).toBe('C');
    expect(pr.stops).toBe(1);
    expect(protectionOf([])).toBeUndefined();
  });
});

describe('a level before it is sent', () => {
  const long = { action: 'BUY' as const, tick: 0.05 };
  it('takes a stop below the last price and a target above it, on the tick', () => {
    expect(checkLevel('stop', '895.05', long, 905.3)).toEqual({ ok: true, price: 895.05 });
    expect(checkLevel('target', '1,010.50', long, 905.3)).toEqual({ ok: true, price: 1010.5 });
  });

  it('refuses off the tick, naming the two nearest ticks', () => {
    expect(checkLevel('stop', '895.03', long, 905.3)).toEqual({
      ok: false,
      reason: 'Stop 895.03 is off the tick 0.05: 895.00 or 895.05',
    });
  });

  it('refuses the wrong side of the last price, for a long and for a short', () => {
    expect(checkLevel('stop', '906', long, 905.3)).toEqual({
      ok: false,
      reason: 'Stop 906.00 must be below the last price 905.30',
    });
    expect(checkLevel('stop', '900', { action: 'SELL', tick: 0.05 }, 905.3)).toEqual({
      ok: false,
      reason: 'Stop 900.00 must be above the last price 905.30',
    });
    expect(checkLevel('target', '900', long, null)).toEqual({ ok: true, price: 900 });
  });

  it('refuses no price, letters and 0', () => {
    expect(checkLevel('stop', ' ', long).ok).toBe(false);
    expect(checkLevel('stop', 'abc', long)).toEqual({ ok: false, reason: 'Stop: abc is not a price' });
    expect(checkLevel('target', '0', long)).toEqual({ ok: false, reason: 'Target must be more than 0' });
  });
});

describe('a dragged line', () => {
  it('lands on the nearest tick, exactly', () => {
    expect(droppedLevel(905.3249999, 0.05)).toBe(905.3);
    expect(droppedLevel(905.326, 0.05)).toBe(905.35);
    expect(droppedLevel(83.25371, 0.0025)).toBe(83.2525);
    expect(roundToTick(0.1 + 0.2, 0.1)).toBe(0.3);
  });

  it('lands nowhere off the scale or at or below 0', () => {
    expect(droppedLevel(null, 0.05)).toBeUndefined();
    expect(droppedLevel(0.01, 0.05)).toBeUndefined();
    expect(droppedLevel(-4, 0.05)).toBeUndefined();
  });

  it('is taken within a few pixels of the pointer, the nearest first', () => {
    const lines = [
      { key: 'sl', y: 100 },
      { key: 'tg', y: 108 },
      { key: 'off', y: null },
    ];
    expect(lineAt(105, lines)?.key).toBe('tg');
    expect(lineAt(97, lines)?.key).toBe('sl');
    expect(lineAt(120, lines)).toBeUndefined();
  });
});
