// The CLI's GTT subcommands (in-process through runCli) against an embedded paper gateway: place,
// book, modify and cancel go through the core (its risk limits and its journal), `gtt <verb>` is the
// same as the gateway's operation name, and a bad GTT is refused before any request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/cli.js';
import { parseCliArgs } from '../../../src-main/cli/args.js';
import { GTT_ID_PATTERN } from '../../../src-main/contract/index.js';
import { createJournal } from '../../../src-main/core/journal/index.js';
import { startTestGateway, type TestGateway } from '../../support/paper-gateway.js';

let gw: TestGateway;
let dataDir: string;

beforeAll(async () => {
  gw = await startTestGateway();
  dataDir = mkdtempSync(join(tmpdir(), 'cli-gtt-'));
});
afterAll(async () => {
  await gw?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const urls: string[] = [];
  return {
    out,
    err,
    urls,
    io: {
      env: { ORDERDESK_API_KEY: gw.apiKey, ORDERDESK_DATA_DIR: dataDir },
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      keytar: null,
      fetch: ((input: string | URL | Request, init?: RequestInit) => {
        urls.push(String(input));
        return fetch(input, init);
      }) as typeof fetch,
    },
  };
}

const FIELDS = [
  'strategy=cli',
  'trigger_type=SINGLE',
  'exchange=NSE',
  'symbol=SBIN',
  'action=BUY',
  'product=CNC',
  'quantity=2',
  'pricetype=LIMIT',
  'price=500',
  'triggerprice_sl=500',
];

describe('cli: GTT orders', () => {
  it('`gtt place|modify|cancel|book` name the gateway operations', () => {
    for (const [verb, op] of [
      ['place', 'placegttorder'],
      ['modify', 'modifygttorder'],
      ['cancel', 'cancelgttorder'],
      ['book', 'gttorderbook'],
    ] as const) {
      const r = parseCliArgs(['gtt', verb, 'status=all']);
      expect(r).toMatchObject({ ok: true, args: { operation: op, fields: { status: 'all' } } });
    }
    expect(parseCliArgs(['gtt', 'fire'])).toMatchObject({
      ok: false,
      message: /place, modify, cancel, book/,
    });
  });

  it('places, lists, modifies and cancels a GTT through the core, journalled', async () => {
    const place = io();
    expect(await runCli(['--url', gw.url, 'gtt', 'place', ...FIELDS], place.io), place.err.join('')).toBe(0);
    const id = (JSON.parse(place.out.join('')) as { trigger_id: string }).trigger_id;
    expect(id).toMatch(GTT_ID_PATTERN);

    const book = io();
    expect(await runCli(['--url', gw.url, 'gtt', 'book'], book.io), book.err.join('')).toBe(0);
    const rows = (JSON.parse(book.out.join('')) as { data: { trigger_id: string }[] }).data;
    expect(rows.map((r) => r.trigger_id)).toContain(id);

    const modify = io();
    const changed = FIELDS.map((f) => (f === 'quantity=2' ? 'quantity=4' : f));
    expect(
      await runCli(['--url', gw.url, 'modifygttorder', `trigger_id=${id}`, ...changed], modify.io),
      modify.err.join(''),
    ).toBe(0);

    const cancel = io();
    expect(
      await runCli(['--url', gw.url, 'gtt', 'cancel', `trigger_id=${id}`, 'strategy=cli'], cancel.io),
      cancel.err.join(''),
    ).toBe(0);
    expect(JSON.parse(cancel.out.join(''))).toMatchObject({ status: 'success', trigger_id: id });

    const journal = createJournal({ dbPath: join(dataDir, 'journal.db') });
    try {
      const ops = journal.query({ profileId: 'cli' }).map((e) => `${e.operation}:${e.outcome}`);
      expect(ops).toEqual(
        expect.arrayContaining(['placegttorder:ok', 'modifygttorder:ok', 'cancelgttorder:ok']),
      );
    } finally {
      journal.close();
    }
  });

  it('refuses an MIS GTT (exit 2) before any request', async () => {
    const run = io();
    const fields = FIELDS.map((f) => (f === 'product=CNC' ? 'product=MIS' : f));
    expect(await runCli(['--url', gw.url, 'gtt', 'place', ...fields], run.io)).toBe(2);
    expect(JSON.parse(run.err.join(''))).toMatchObject({ kind: 'invalid_input', message: /CNC/ });
    expect(run.urls.filter((u) => u.includes('gtt'))).toEqual([]);
  });
});
