import { describe, expect, it } from 'vitest';
import { STRATEGY_TEMPLATES, placeTemplate } from '../../../../src-main/shared/options/templates.js';
import type { StrategyTemplate } from '../../../../src-main/shared/options/types.js';

// 11 strikes 23750 … 24250, 50 apart; the ATM strike 24000 is index 5.
const STRIKES = Array.from({ length: 11 }, (_, i) => 23750 + 50 * i);
const ATM = 5;

const template = (id: string): StrategyTemplate => {
  const t = STRATEGY_TEMPLATES.find((x) => x.id === id);
  if (!t) throw new Error(`no template ${id}`);
  return t;
};

/** A placed template as "SIDE KIND strike expiry", strikes read off the list. */
function placed(id: string): string[] {
  const r = placeTemplate(template(id), STRIKES, ATM);
  if ('error' in r) throw new Error(r.error);
  return r.legs.map((l) => `${l.side} ${l.kind} ${STRIKES[l.strikeIndex]} e${l.expiry} ×${l.lots}`);
}

describe('STRATEGY_TEMPLATES', () => {
  it('lists the eleven strategies by id and name, in order', () => {
    expect(STRATEGY_TEMPLATES.map((t) => [t.id, t.name])).toEqual([
      ['long-straddle', 'Long straddle'],
      ['short-straddle', 'Short straddle'],
      ['long-strangle', 'Long strangle'],
      ['short-strangle', 'Short strangle'],
      ['bull-call-spread', 'Bull call spread'],
      ['bear-call-spread', 'Bear call spread'],
      ['bull-put-spread', 'Bull put spread'],
      ['bear-put-spread', 'Bear put spread'],
      ['iron-condor', 'Iron condor'],
      ['iron-fly', 'Iron fly'],
      ['calendar', 'Calendar'],
    ]);
  });
});

describe('placeTemplate on 11 strikes around 24000', () => {
  it('places every template on the strikes its offsets name', () => {
    // Offsets ±2 are 23900 / 24100, ±3 are 23850 / 24150, ±4 are 23800 / 24200.
    expect(placed('long-straddle')).toEqual(['BUY CE 24000 e0 ×1', 'BUY PE 24000 e0 ×1']);
    expect(placed('short-straddle')).toEqual(['SELL CE 24000 e0 ×1', 'SELL PE 24000 e0 ×1']);
    expect(placed('long-strangle')).toEqual(['BUY CE 24100 e0 ×1', 'BUY PE 23900 e0 ×1']);
    expect(placed('short-strangle')).toEqual(['SELL CE 24100 e0 ×1', 'SELL PE 23900 e0 ×1']);
    expect(placed('bull-call-spread')).toEqual(['BUY CE 24000 e0 ×1', 'SELL CE 24100 e0 ×1']);
    expect(placed('bear-call-spread')).toEqual(['SELL CE 24000 e0 ×1', 'BUY CE 24100 e0 ×1']);
    expect(placed('bull-put-spread')).toEqual(['SELL PE 24000 e0 ×1', 'BUY PE 23900 e0 ×1']);
    expect(placed('bear-put-spread')).toEqual(['BUY PE 24000 e0 ×1', 'SELL PE 23900 e0 ×1']);
    expect(placed('iron-condor')).toEqual([
      'SELL PE 23900 e0 ×1',
      'BUY PE 23800 e0 ×1',
      'SELL CE 24100 e0 ×1',
      'BUY CE 24200 e0 ×1',
    ]);
    expect(placed('iron-fly')).toEqual([
      'SELL CE 24000 e0 ×1',
      'SELL PE 24000 e0 ×1',
      'BUY CE 24150 e0 ×1',
      'BUY PE 23850 e0 ×1',
    ]);
    expect(placed('calendar')).toEqual(['SELL CE 24000 e0 ×1', 'BUY CE 24000 e1 ×1']);
  });

  it('places at the list’s edges when the offsets just fit', () => {
    // Iron condor needs 4 each side: ATM index 4 leaves 4 below, 6 above.
    const r = placeTemplate(template('iron-condor'), STRIKES, 4);
    expect('legs' in r && r.legs.map((l) => l.strikeIndex)).toEqual([2, 0, 6, 8]);
  });
});

describe('placeTemplate errors', () => {
  it('says how many strikes the template needs above the money and how many the chain lists', () => {
    // ATM index 7 of 11: 3 strikes above it (8, 9, 10); the condor's +4 wing is off the list.
    expect(placeTemplate(template('iron-condor'), STRIKES, 7)).toEqual({
      error: 'Iron condor needs 4 strikes above the money; the chain lists 3',
    });
    expect(placeTemplate(template('bear-put-spread'), STRIKES, 1)).toEqual({
      error: 'Bear put spread needs 2 strikes below the money; the chain lists 1',
    });
  });

  it('names both sides when both are short', () => {
    // 5 strikes, ATM index 2: 2 above and 2 below; the iron fly needs 3 each side.
    expect(placeTemplate(template('iron-fly'), STRIKES.slice(3, 8), 2)).toEqual({
      error: 'Iron fly needs 3 strikes above the money and 3 below; the chain lists 2 above and 2 below',
    });
  });

  it('refuses an empty list or an ATM index off it', () => {
    expect(placeTemplate(template('long-straddle'), [], 0)).toHaveProperty('error');
    expect(placeTemplate(template('long-straddle'), STRIKES, 11)).toHaveProperty('error');
    expect(placeTemplate(template('long-straddle'), STRIKES, -1)).toHaveProperty('error');
    // A straddle needs nothing either side: a one-strike list does.
    expect(placeTemplate(template('long-straddle'), [24000], 0)).toHaveProperty('legs');
  });
});
