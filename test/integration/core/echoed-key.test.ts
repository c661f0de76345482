// A hostile gateway echoes the key it was sent, in success answers and in errors, as it was sent,
// upper-cased and as a 40-character prefix: none of it reaches an IPC answer, an event, the log or
// the journal on disk (journal.db and its write-ahead log, read as raw bytes).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REDACTED } from '../../../src-main/gateway/index.js';
import {
  sentKey,
  startEchoGateway,
  type EchoGateway,
  type EchoedRequest,
} from '../../support/echo-gateway.js';
import { startCore, startPaper, type Harness, type Paper } from '../../support/core-harness.js';

// Hex with letters, so that upper-casing changes it.
const KEY = `ab${randomBytes(31).toString('hex')}`;
let paper: Paper;
let h: Harness;
let echo: EchoGateway;

function echoed(r: EchoedRequest): { status: number; json: unknown } {
  const k = sentKey(r);
  const path = r.url.split('?')[0];
  if (path === '/api/v1/ping')
    return {
      status: 200,
      json: { status: 'success', data: { broker: k.toUpperCase(), message: `pong ${k.slice(0, 40)}` } },
    };
  if (path === '/api/v1/placeorder')
    return {
      status: 200,
      json: {
        status: 'success',
        orderid: '7700001',
        echo: k.toUpperCase(),
        note: `accepted for ${k.slice(0, 40)}…`,
        mixed: `${k.slice(10, 30).toUpperCase()}${k.slice(30, 50)}`,
      },
    };
  return { status: 403, json: { status: 'error', message: `Invalid openalgo apikey ${k.toUpperCase()}` } };
}

beforeAll(async () => {
  paper = await startPaper();
  echo = await startEchoGateway(echoed);
  h = await startCore(paper);
});
afterAll(async () => {
  await h?.stop();
  await echo?.stop();
  await paper?.stop();
});

/** Every run of 12 characters of the key, lower-cased. */
const windows = Array.from({ length: KEY.length - 11 }, (_, i) => KEY.slice(i, i + 12).toLowerCase());
const holdsKey = (text: string) => {
  const t = text.toLowerCase();
  return windows.filter((w) => t.includes(w));
};

it('an echoed key (as sent, upper-cased, a 40-char prefix) reaches no answer, event, log or journal byte', async () => {
  const answers: unknown[] = [];
  const call = async (channel: string, input?: unknown) => {
    const r = await h.core.router.invoke(channel, input);
    answers.push(r);
    return r;
  };
  await call('settings.update', { risk: { maxValuePerOrder: 1e9, priceBandPercent: 0 } });
  await call('profiles.add', { id: 'hostile', name: 'Hostile', baseUrl: echo.url });
  await call('apiKey.set', { profileId: 'hostile', key: KEY });
  await call('profiles.switch', { id: 'hostile' });
  await h.core.pollNow();

  const test = await call('apiKey.test');
  expect(test, JSON.stringify(test)).toMatchObject({ ok: true });
  const placed = await call('orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 1,
    pricetype: 'LIMIT',
    price: 100,
    product: 'MIS',
  });
  expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true, value: { orderid: '7700001' } });
  expect(await call('books.funds')).toMatchObject({ ok: false });
  await call('books.orders');
  await call('journal.query', {});
  await h.core.pollNow();

  // The gateway did get the key, and did echo it: the checks below are not vacuous.
  expect(echo.carrying(KEY).length).toBeGreaterThan(3);
  const journalFiles = readdirSync(h.dataDir).filter((f) => f.startsWith('journal.db'));
  expect(journalFiles).toContain('journal.db-wal');
  const journal = journalFiles.map((f) => readFileSync(join(h.dataDir, f)).toString('latin1')).join('\n');
  const haystacks: [string, string][] = [
    ['IPC answers', JSON.stringify(answers)],
    ['events', JSON.stringify(h.events)],
    ['notifications', JSON.stringify(h.notifications)],
    ['log', JSON.stringify(h.logger.entries)],
    ['journal files', journal],
  ];
  for (const [where, text] of haystacks) expect(holdsKey(text), `${where} hold part of the key`).toEqual([]);
  // The journal holds the order and its answer, redacted where the key was.
  expect(journal.includes('7700001')).toBe(true);
  expect(journal.includes(REDACTED)).toBe(true);
  expect(JSON.stringify(answers)).toContain(REDACTED);
});
