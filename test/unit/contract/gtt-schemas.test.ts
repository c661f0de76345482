// The GTT schemas read the live server's recorded requests and answers (test/fixtures/openalgo/live-gtt)
// and refuse what it refuses, naming the field.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ErrorBody,
  GTT_ID_PATTERN,
  OPERATIONS,
  type OperationName,
} from '../../../src-main/contract/index.js';

interface Recorded {
  request: Record<string, unknown>;
  status: number;
  response: unknown;
}
const RECORDED = JSON.parse(
  readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openalgo/live-gtt/recorded.json'),
    'utf8',
  ),
) as Record<string, Recorded>;
const cases = Object.entries(RECORDED).map(([name, r]) => {
  const op = name.split('/')[0] as OperationName;
  return { name, op, ...r };
});

describe('GTT operations in the contract', () => {
  it('lists the four operations at the live server paths', () => {
    expect(OPERATIONS.placegttorder.path).toBe('/api/v1/placegttorder');
    expect(OPERATIONS.modifygttorder.path).toBe('/api/v1/modifygttorder');
    expect(OPERATIONS.cancelgttorder.path).toBe('/api/v1/cancelgttorder');
    expect(OPERATIONS.gttorderbook.path).toBe('/api/v1/gttorderbook');
    expect(OPERATIONS.placegttorder.kind).toBe('mutation');
    expect(OPERATIONS.gttorderbook.kind).toBe('read');
  });
});

describe('recorded successes', () => {
  const ok = cases.filter((c) => c.status === 200);
  it.each(ok.map((c) => [c.name, c] as const))('%s: request and answer parse', (_n, c) => {
    expect(OPERATIONS[c.op].request.safeParse(c.request).success).toBe(true);
    const parsed = OPERATIONS[c.op].response.safeParse(c.response);
    expect(parsed.error).toBeUndefined();
  });

  it('issues ids GTT-YYMMDD-<8 hex> and reads book rows with legs and margin', () => {
    const place = OPERATIONS.placegttorder.response.parse(
      RECORDED['placegttorder/single_buy_cnc_trigger_below']?.response,
    );
    expect(place.trigger_id).toMatch(GTT_ID_PATTERN);
    const book = OPERATIONS.gttorderbook.response.parse(RECORDED['gttorderbook/status_all']?.response);
    expect(book.data.map((r) => [r.trigger_type, r.status, r.margin_blocked])).toEqual([
      ['two-leg', 'active', 1106.8],
      ['single', 'cancelled', 0],
    ]);
    expect(book.data[0]?.legs.map((l) => [l.price, l.triggered_order_id])).toEqual([
      [849.1, null],
      [1106.8, null],
    ]);
  });

  it('normalises the request: upper-case trigger type, LIMIT by default, absent prices as 0', () => {
    const r = OPERATIONS.placegttorder.request.parse({
      ...RECORDED['placegttorder/single_buy_cnc_trigger_below']?.request,
      trigger_type: 'single',
      pricetype: undefined,
      action: 'buy',
      unknown_field: 'dropped',
    });
    expect(r).toMatchObject({ trigger_type: 'SINGLE', pricetype: 'LIMIT', action: 'BUY', stoploss: 0 });
    expect('unknown_field' in r).toBe(false);
  });
});

describe('recorded refusals', () => {
  const fieldOf: Record<string, string> = {
    'placegttorder/error_bad_trigger_type': 'trigger_type',
    'placegttorder/error_mis_product': 'product',
    'placegttorder/error_oco_missing_legs': 'stoploss',
    'modifygttorder/error_missing_trigger_id': 'trigger_id',
    'gttorderbook/error_bad_status': 'status',
  };
  it.each(Object.entries(fieldOf))('%s: refused, naming %s', (name, field) => {
    const c = cases.find((k) => k.name === name);
    if (!c) throw new Error(`no case ${name}`);
    const parsed = OPERATIONS[c.op].request.safeParse(c.request);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([field]);
    expect(parsed.error?.issues[0]?.message).toContain(field);
  });

  it('every recorded error answer reads as an ErrorBody', () => {
    for (const c of cases.filter((k) => k.status !== 200)) {
      expect(ErrorBody.safeParse(c.response).success, c.name).toBe(true);
    }
  });

  it('refuses a SINGLE with both triggers and an OCO whose stoploss trigger is not below its target', () => {
    const base = RECORDED['placegttorder/oco_sell_cnc']?.request ?? {};
    const single = OPERATIONS.placegttorder.request.safeParse({ ...base, trigger_type: 'SINGLE' });
    expect(single.error?.issues[0]?.path).toEqual(['triggerprice_tg']);
    const crossed = OPERATIONS.placegttorder.request.safeParse({ ...base, triggerprice_tg: 800 });
    expect(crossed.error?.issues[0]?.message).toMatch(/must be less than triggerprice_tg/);
  });
});
