// The chain's column-fit rule: the chosen optional columns that fit the pane's width, dropped in a
// fixed priority (vega, theta, gamma, then OI, IV, delta), one list for both legs, change % (under
// the LTP) never dropped, the note that counts what was left out, and the tightened cells' texts.
import { describe, expect, it } from 'vitest';
import type { ChainColumn } from '@contract';
import { CHAIN_DROP_ORDER, fitChainColumns, hiddenNote } from '../../../src-renderer/src/lib/chain-fit';
import {
  changeText,
  changeTone,
  DEFAULT_CHAIN_COLUMNS,
  oiText,
} from '../../../src-renderer/src/lib/option-chain-greeks';

/** Widths for both legs together, as measured at 1280×720 in Chromium (NIFTY). */
const widths = {
  core: 420,
  columns: { oi: 120, iv: 78, delta: 78, gamma: 90, theta: 92, vega: 80 },
};
const ALL: ChainColumn[] = ['oi', 'chg', 'vega', 'theta', 'gamma', 'delta', 'iv'];

describe('fitChainColumns', () => {
  it('keeps every chosen column when they fit, in the order given', () => {
    expect(fitChainColumns(DEFAULT_CHAIN_COLUMNS, 420 + 120 + 78 + 78, widths)).toEqual({
      visible: [...DEFAULT_CHAIN_COLUMNS],
      hidden: [],
    });
  });

  it('drops OI first among the defaults when one px short, then IV, then delta; change % stays', () => {
    const need = 420 + 120 + 78 + 78;
    expect(fitChainColumns(DEFAULT_CHAIN_COLUMNS, need - 1, widths).hidden).toEqual(['oi']);
    expect(fitChainColumns(DEFAULT_CHAIN_COLUMNS, need - 121, widths).hidden).toEqual(['oi', 'iv']);
    expect(fitChainColumns(DEFAULT_CHAIN_COLUMNS, need - 199, widths).hidden).toEqual(['oi', 'delta', 'iv']);
    expect(fitChainColumns(DEFAULT_CHAIN_COLUMNS, 100, widths).visible).toEqual(['chg']);
  });

  it('drops the greeks vega, theta, gamma before OI, only as many as needed', () => {
    const need = 420 + 120 + 78 + 78 + 90 + 92 + 80;
    // Short by vega's width: vega alone goes.
    expect(fitChainColumns(ALL, need - 80, widths).hidden).toEqual(['vega']);
    // Short by one px more: theta goes too, OI stays.
    expect(fitChainColumns(ALL, need - 81, widths).hidden).toEqual(['vega', 'theta']);
    expect(fitChainColumns(ALL, need - 80 - 92 - 91, widths).hidden).toEqual([
      'oi',
      'vega',
      'theta',
      'gamma',
    ]);
  });

  it('skips a column that is not chosen: the next in priority goes instead', () => {
    const shown: ChainColumn[] = ['oi', 'gamma', 'iv'];
    expect(fitChainColumns(shown, 420 + 120 + 78, widths).hidden).toEqual(['gamma']);
    expect(fitChainColumns(shown, 420 + 78, widths).hidden).toEqual(['oi', 'gamma']);
  });

  it('hides nothing before the pane is laid out, and counts an unmeasured column as 0', () => {
    expect(fitChainColumns(ALL, 0, widths).hidden).toEqual([]);
    expect(fitChainColumns(['oi', 'iv'], 500, { core: 420, columns: { iv: 78 } }).hidden).toEqual([]);
  });

  it('is one list for both legs: each width is the pair, so a leg never shows what the other drops', () => {
    // 1 px short of both legs' OI: both go (the rule never drops half a pair).
    const r = fitChainColumns(['oi'], 420 + 119, widths);
    expect(r).toEqual({ visible: [], hidden: ['oi'] });
  });

  it('never drops change % (it rides under the LTP), and the order lists every other column', () => {
    expect(CHAIN_DROP_ORDER).not.toContain('chg');
    expect([...CHAIN_DROP_ORDER].sort()).toEqual(ALL.filter((c) => c !== 'chg').sort());
  });
});

describe('hiddenNote', () => {
  it('counts and names the columns left out, and is empty when none are', () => {
    expect(hiddenNote([])).toBe('');
    expect(hiddenNote(['oi'])).toBe('1 column hidden: OI');
    expect(hiddenNote(['oi', 'gamma'])).toBe('2 columns hidden: OI, Gamma');
  });
});

describe('the tightened cells', () => {
  it('OI reads in full to 99,999, then in lakhs and crores to two places; none is a dash', () => {
    expect(oiText(undefined)).toBe('—');
    expect(oiText(0)).toBe('—');
    expect(oiText(99_999)).toBe('99,999');
    expect(oiText(1_00_000)).toBe('1.00L');
    expect(oiText(7_05_835)).toBe('7.06L');
    expect(oiText(99_99_000)).toBe('99.99L');
    expect(oiText(1_23_45_675)).toBe('1.23Cr');
  });

  it('change % under the LTP is signed, toned by its sign, a dash when unknown', () => {
    expect(changeText(2.674)).toBe('+2.67%');
    expect(changeText(-5.95)).toBe('-5.95%');
    expect(changeText(null)).toBe('—');
    expect([changeTone(2.67), changeTone(-5.95), changeTone(0), changeTone(undefined)]).toEqual([
      'up',
      'down',
      '',
      '',
    ]);
  });
});
