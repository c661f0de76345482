// The brackets file: what is saved is what a restart reads; saves land in the order asked, each with
// the state as it is when it runs; a damaged file is kept aside and reported, never trusted.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredBracket } from '../../../../src-main/contract/index.js';
import { createBracketStore } from '../../../../src-main/core/protection/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'bstore-'));
  dirs.push(d);
  return d;
};

const bracket = (orderid: string, stopLeg?: string): StoredBracket => ({
  entry: {
    orderid,
    symbol: 'INFY',
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick: 0.05,
    spec: { stop: { by: 'points', value: '10' } },
  },
  legs: {
    stop: stopLeg ? [{ orderid: stopLeg, cancelledByUs: false, unknown: false }] : [],
    target: [],
  },
});

describe('bracket store', () => {
  it('reads back what it saved, per profile; nothing saved reads as no brackets', async () => {
    const store = createBracketStore(dir());
    await store.save('paper', () => ({ brackets: [bracket('E1', 'S1')], gtt: [] }));
    expect(store.load('paper')).toEqual({ brackets: [bracket('E1', 'S1')], gtt: [] });
    expect(store.load('zerodha')).toEqual({ brackets: [], gtt: [] });
  });

  it('writes the state as it is when each save runs, the last one last', async () => {
    const store = createBracketStore(dir());
    let state = [bracket('E1')];
    const first = store.save('paper', () => ({ brackets: state, gtt: [] }));
    state = [bracket('E1', 'S1'), bracket('E2')];
    const second = store.save('paper', () => ({ brackets: state, gtt: [] }));
    await Promise.all([first, second]);
    expect(store.load('paper').brackets.map((b) => b.entry.orderid)).toEqual(['E1', 'E2']);
  });

  it('keeps a damaged file aside with the reason, and starts with none', () => {
    const d = dir();
    const store = createBracketStore(d, () => 42);
    writeFileSync(join(d, 'paper.json'), JSON.stringify({ version: 1, brackets: [{ entry: {} }] }));
    const r = store.load('paper');
    expect(r.brackets).toEqual([]);
    expect(r.damaged?.keptAs).toBe(join(d, 'paper.json.damaged-42'));
    expect(r.damaged?.reason).toBeTruthy();
    expect(readdirSync(d)).toEqual(['paper.json.damaged-42']);
    writeFileSync(join(d, 'paper.json'), 'not json');
    expect(store.load('paper').damaged?.reason).toMatch(/not JSON/);
  });
});
