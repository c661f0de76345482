// Every real-gateway sample parses: success answers with the operation's contract schema, errors with
// ErrorBody, and the client turns each into the right result.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ErrorBody,
  OPERATIONS,
  TickerResponse,
  type OperationName,
} from '../../../src-main/contract/index.js';
import { createGatewayClient, type GatewayResult } from '../../../src-main/gateway/index.js';
import { parseTickerText } from '../../../src-main/gateway/ticker-text.js';
import {
  ENVELOPE_FILES,
  EXTRA_REQUEST_SCHEMAS,
  EXTRA_SCHEMAS,
  FILE_OPERATION,
  FIXTURES,
  isErrorSample,
  isQueuedSample,
  loadSamples,
  successSchemaFor,
  type Sample,
} from '../../support/gateway-samples.js';

const samples = loadSamples();
const withResponse = samples.filter((s) => s.response !== null && s.response !== undefined);
const label = (s: Sample) => `${s.file} ${s.label}${s.note ? ` (${s.note.slice(0, 50)})` : ''}`;

describe('the sample set', () => {
  it('holds every shared sample file, each classified', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(39);
    for (const f of files) {
      const name = f.replace(/\.json$/, '');
      const known =
        FILE_OPERATION[name] !== undefined ||
        name in EXTRA_SCHEMAS ||
        (ENVELOPE_FILES as readonly string[]).includes(name);
      expect(known, name).toBe(true);
    }
  });

  it('has a sample for every operation of the contract but the hosted closeposition', () => {
    const covered = new Set(samples.map((s) => FILE_OPERATION[s.file]));
    // The sample set has no files for these (their shapes come from upstream's docs pages).
    const unsampled: OperationName[] = [
      'closepositionHosted',
      'instruments',
      'marketholidays',
      'markettimings',
      // GTT: the live server's recorded answers are in live-gtt/ (test/unit/contract/gtt-schemas.test.ts).
      'placegttorder',
      'modifygttorder',
      'cancelgttorder',
      'gttorderbook',
      // Its recorded live shape is in live/recorded.json (test/integration/paper/live-recorded.test.ts).
      'multioptiongreeks',
    ];
    for (const op of Object.keys(OPERATIONS) as OperationName[]) {
      if (!unsampled.includes(op)) expect(covered.has(op), op).toBe(true);
    }
  });
});

describe('success answers parse with the contract response schema', () => {
  const cases = withResponse.filter((s) => !isErrorSample(s));
  it('covers all 82 success answers', () => expect(cases.length).toBe(82));

  it.each(cases.map((s) => [label(s), s] as const))('%s', (_name, s) => {
    if (typeof s.response === 'string') {
      // The ticker's format=txt answer.
      expect(s.file).toBe('ticker');
      const lines = parseTickerText(s.response);
      if (!('bars' in lines)) throw new Error(`bad line ${lines.badLine}`);
      const parsed = TickerResponse.parse({ status: 'success', data: lines.bars });
      expect(parsed.data.length).toBeGreaterThan(0);
      // 2025-01-01 09:15:00 IST
      expect(parsed.data[0]?.timestamp).toBe(Date.UTC(2025, 0, 1, 3, 45) / 1000);
      return;
    }
    const schema = successSchemaFor(s);
    expect(schema, 'no schema for this file').toBeDefined();
    const result = schema?.safeParse(s.response);
    expect(result?.success, JSON.stringify(result?.error?.issues)).toBe(true);
  });
});

describe('error answers parse with ErrorBody', () => {
  const cases = withResponse.filter(isErrorSample);
  it('covers at least 35 answers', () => expect(cases.length).toBeGreaterThanOrEqual(35));
  it.each(cases.map((s) => [label(s), s] as const))('%s', (_name, s) => {
    const result = ErrorBody.safeParse(s.response);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
    expect(result.data?.message.length).toBeGreaterThan(0);
  });
});

describe('success sample requests pass the contract request schema', () => {
  const cases = samples.filter(
    (s) => s.request !== null && typeof s.request === 'object' && !isErrorSample(s) && FILE_OPERATION[s.file],
  );
  it.each(cases.map((s) => [label(s), s] as const))('%s', (_name, s) => {
    const op = FILE_OPERATION[s.file] as OperationName;
    if (op === 'ticker') return; // its request is a URL, checked by the client tests
    const schema =
      s.file === 'positionsopen' &&
      'request_id' in (s.request as object) &&
      !('symbol' in (s.request as object))
        ? OPERATIONS.closepositionHosted.request
        : OPERATIONS[op].request;
    const result = schema.safeParse(s.request);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });
});

describe('sample requests of files that are not an operation pass their request schema', () => {
  const cases = samples.filter(
    (s) => s.request !== null && typeof s.request === 'object' && EXTRA_REQUEST_SCHEMAS[s.file],
  );
  it('covers the websocket client messages', () => expect(cases.length).toBe(9));
  it.each(cases.map((s) => [label(s), s] as const))('%s', (_name, s) => {
    const result = EXTRA_REQUEST_SCHEMAS[s.file]?.safeParse(s.request);
    expect(result?.success, JSON.stringify(result?.error?.issues)).toBe(true);
  });
});

/** The kind the client must report for an error sample, from its HTTP status. */
function expectedKind(s: Sample): string {
  const status = typeof s.httpStatus === 'number' ? s.httpStatus : 400;
  const message = String((s.response as { message?: unknown }).message ?? '');
  if (status === 400) return 'bad_input';
  if (status === 401) return 'unauthorised';
  if (status === 403) return 'forbidden';
  if (status === 404) return message === 'Not found' ? 'not_offered' : 'bad_input';
  if (status === 429) return 'rate_limited';
  return 'server';
}

describe('the client reads every sample of its operations', () => {
  const primaryRequest = new Map(
    samples.filter((s) => s.label === 'primary').map((s) => [s.file, s.request]),
  );
  const cases = withResponse.filter((s) => FILE_OPERATION[s.file] && s.file !== 'ticker');

  it.each(cases.map((s) => [label(s), s] as const))('%s', async (_name, s) => {
    const op = FILE_OPERATION[s.file] as Exclude<OperationName, 'ticker' | 'instruments'>;
    const status = typeof s.httpStatus === 'number' ? s.httpStatus : isErrorSample(s) ? 400 : 200;
    let calls = 0;
    const client = createGatewayClient({
      baseUrl: 'http://gateway.test',
      getApiKey: () => 'k'.repeat(32),
      retry: { maxRetries: 0 },
      fetch: async () => {
        calls++;
        return new Response(JSON.stringify(s.response), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const raw = (s.request ?? primaryRequest.get(s.file)) as Record<string, unknown>;
    const { apikey: _key, ...input } = raw;
    const hosted = s.file === 'positionsopen' && 'request_id' in input && !('symbol' in input);
    const result: GatewayResult<unknown> = hosted
      ? await client.call('closepositionHosted', input as never)
      : await client.call(op, input as never);
    if (isQueuedSample(s)) {
      // Not placed (no orderid) and not unknown: queued for approval, said as such.
      expect(result).toMatchObject({
        ok: false,
        error: { kind: 'queued', message: expect.stringMatching(/Action Center \(pending order 17\)/) },
      });
      expect(calls).toBe(1);
      return;
    }
    if (!isErrorSample(s)) {
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(calls).toBe(1);
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    if (calls === 0) {
      // The sample's request is invalid, so the client refused it without sending (rule 3).
      expect(result.error.kind).toBe('bad_input');
      return;
    }
    expect(result.error.kind).toBe(expectedKind(s));
    if (result.error.kind === 'rate_limited') expect(result.error.retryAfter).toBe(60);
  });
});
