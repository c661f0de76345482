// The ticket's protection as pure rules: a template's spec as the form shows it and back, each
// problem in words (the same verdict as the contract's ProtectionSpec, held side by side here), and
// the legs' estimated levels on the tick, rounded toward the fill as the core rounds them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTION_SETTINGS, ProtectionSpec } from '../../../src-main/contract/core/protection';
import {
  defaultTemplateFor,
  emptyForm,
  estimateLevels,
  formOfSpec,
  noDefaultWords,
  sameForm,
  specOfForm,
  specWords,
  type ProtectionForm,
} from '../../../src-renderer/src/lib/protection-form';

const form = (over: Partial<ProtectionForm> = {}): ProtectionForm => ({ ...emptyForm(), ...over });

describe('template → spec', () => {
  it('each default template round-trips through the form unchanged', () => {
    for (const t of DEFAULT_PROTECTION_SETTINGS.templates) {
      const r = specOfForm(formOfSpec(t.spec));
      expect(r).toEqual({ ok: true, spec: t.spec });
    }
  });

  it('a full spec fills every field and comes back whole, the offset kept', () => {
    const spec = {
      stop: { by: 'price' as const, value: '22340.05' },
      target: { by: 'percent' as const, value: '1.5' },
      trailStep: '2',
      breakEven: { trigger: '10', offset: '-0.5' },
    };
    const f = formOfSpec(spec);
    expect(f).toEqual({
      stop: { by: 'price', value: '22340.05' },
      target: { by: 'percent', value: '1.5' },
      trailStep: '2',
      beTrigger: '10',
      beOffset: '-0.5',
    });
    expect(specOfForm(f)).toEqual({ ok: true, spec });
    expect(specWords(spec)).toBe('SL @ 22340.05 · TG 1.5 % · trail 2 pts · BE at +10 pts → entry -0.5');
  });

  it('an edit is told from the template; blanks and spaces are not edits', () => {
    const t = formOfSpec({ stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } });
    expect(sameForm(t, { ...t, stop: { by: 'points', value: ' 10 ' }, beOffset: '0' })).toBe(true);
    expect(sameForm(t, { ...t, stop: { by: 'points', value: '12' } })).toBe(false);
    expect(sameForm(t, { ...t, target: { by: 'percent', value: '20' } })).toBe(false);
  });

  it('picks the segment default by exchange, and says why not when there is none', () => {
    const settings = { ...DEFAULT_PROTECTION_SETTINGS, defaults: { fno: 'Scalp 10/20' } };
    expect(defaultTemplateFor('NFO', settings)?.name).toBe('Scalp 10/20');
    expect(defaultTemplateFor('NSE', settings)).toBeUndefined();
    expect(noDefaultWords('NSE')).toBe(
      'No default protection for equity: pick one in Settings ▸ Protection. Nothing sent',
    );
    expect(noDefaultWords('NSE_INDEX')).toContain('quote-only');
  });
});

describe('spec parse errors, in words', () => {
  it('names the field and what is wrong with it', () => {
    expect(specOfForm(form())).toEqual({
      ok: false,
      problems: [{ field: 'spec', message: 'A protection needs a stop, a target or both' }],
    });
    expect(specOfForm(form({ stop: { by: 'points', value: 'ten' } }))).toEqual({
      ok: false,
      problems: [{ field: 'stop', message: 'The stop must be a number, at most 4 decimals (ten is not)' }],
    });
    expect(specOfForm(form({ target: { by: 'points', value: '0' } }))).toEqual({
      ok: false,
      problems: [{ field: 'target', message: 'The target must be more than 0' }],
    });
    expect(specOfForm(form({ target: { by: 'points', value: '20' }, trailStep: '2' }))).toEqual({
      ok: false,
      problems: [{ field: 'stop', message: 'Trailing and break-even move a stop: set a stop too' }],
    });
    expect(
      specOfForm(form({ stop: { by: 'points', value: '5' }, beOffset: '1' })).ok === false &&
        specOfForm(form({ stop: { by: 'points', value: '5' }, beOffset: '1' })),
    ).toMatchObject({ problems: [{ field: 'beTrigger' }] });
    expect(specOfForm(form({ stop: { by: 'points', value: '1.23456' } }))).toMatchObject({
      ok: false,
      problems: [{ field: 'stop', message: expect.stringContaining('at most 4 decimals') }],
    });
  });

  it('agrees with the contract on every case: ok exactly when ProtectionSpec parses, and the same spec', () => {
    const cases: ProtectionForm[] = [
      form(),
      form({ stop: { by: 'points', value: '10' } }),
      form({ stop: { by: 'percent', value: '0.5' }, target: { by: 'percent', value: '1.5' } }),
      form({ stop: { by: 'points', value: '-1' } }),
      form({ stop: { by: 'points', value: '01' } }),
      form({ stop: { by: 'points', value: '1e3' } }),
      form({ stop: { by: 'points', value: '12345678' } }),
      form({ stop: { by: 'points', value: '0.00001' } }),
      form({ stop: { by: 'points', value: '0.0000' } }),
      form({ stop: { by: 'price', value: '905.35' }, trailStep: '0' }),
      form({ stop: { by: 'points', value: '5' }, trailStep: '1', beTrigger: '8' }),
      form({ stop: { by: 'points', value: '5' }, beTrigger: '8', beOffset: '-2.5' }),
      form({ stop: { by: 'points', value: '5' }, beTrigger: '8', beOffset: '+1' }),
      form({ target: { by: 'points', value: '5' }, beTrigger: '8' }),
    ];
    for (const f of cases) {
      const ours = specOfForm(f);
      const theirs = ProtectionSpec.safeParse(ours.ok ? ours.spec : specCandidate(f));
      expect({ form: f, ok: ours.ok }).toEqual({ form: f, ok: theirs.success });
      if (ours.ok && theirs.success) expect(theirs.data).toEqual(ours.spec);
    }
  });
});

/** The spec the form would give with no checks at all (what the contract is asked to judge). */
function specCandidate(f: ProtectionForm): unknown {
  const s: Record<string, unknown> = {};
  if (f.stop.value.trim()) s['stop'] = { by: f.stop.by, value: f.stop.value.trim() };
  if (f.target.value.trim()) s['target'] = { by: f.target.by, value: f.target.value.trim() };
  if (f.trailStep.trim()) s['trailStep'] = f.trailStep.trim();
  if (f.beTrigger.trim() || f.beOffset.trim())
    s['breakEven'] = { trigger: f.beTrigger.trim(), offset: f.beOffset.trim() || '0' };
  return s;
}

describe('level estimates on the tick', () => {
  const points = {
    stop: { by: 'points' as const, value: '10' },
    target: { by: 'points' as const, value: '20' },
  };

  it('points from the price, a BUY below and above, a SELL the other way', () => {
    expect(estimateLevels('BUY', 22350, 0.05, points)).toEqual({ stop: 22340, target: 22370, problems: [] });
    expect(estimateLevels('SELL', 22350, 0.05, points)).toEqual({ stop: 22360, target: 22330, problems: [] });
  });

  it('a percent off the tick lands on it toward the fill: the stop no further, the target no further', () => {
    const pct = {
      stop: { by: 'percent' as const, value: '1' },
      target: { by: 'percent' as const, value: '3' },
    };
    // 905.30 × 1 % = 9.053: the stop 896.247 rounds up to 896.25; the target 932.459 down to 932.45.
    expect(estimateLevels('BUY', 905.3, 0.05, pct)).toEqual({ stop: 896.25, target: 932.45, problems: [] });
    // A SELL: the stop 914.353 rounds down to 914.35; the target 878.141 up to 878.15.
    expect(estimateLevels('SELL', 905.3, 0.05, pct)).toEqual({ stop: 914.35, target: 878.15, problems: [] });
  });

  it('a price is kept as typed, and said when off the tick or on the wrong side', () => {
    expect(estimateLevels('BUY', 905.3, 0.05, { stop: { by: 'price', value: '900.05' } })).toEqual({
      stop: 900.05,
      problems: [],
    });
    expect(estimateLevels('BUY', 905.3, 0.05, { stop: { by: 'price', value: '900.03' } })).toEqual({
      problems: ['The stop price 900.03 is not on the tick 0.05'],
    });
    expect(estimateLevels('BUY', 905.3, 0.05, { stop: { by: 'price', value: '910' } })).toEqual({
      stop: 910,
      problems: ['A BUY stop must be below the entry (910 is not)'],
    });
    expect(estimateLevels('BUY', 5, 0.05, { stop: { by: 'points', value: '10' } })?.problems).toEqual([
      'The stop would be at or below 0',
    ]);
  });

  it('no price or no tick: no estimate', () => {
    expect(estimateLevels('BUY', undefined, 0.05, points)).toBeUndefined();
    expect(estimateLevels('BUY', 100, undefined, points)).toBeUndefined();
  });
});
