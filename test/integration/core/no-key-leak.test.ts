// The API key never leaves the secret store except towards the gateway: a realistic session (set key,
// place, modify, cancel, books, market data, ticker, fills, errors, an outage) and then every router
// answer, event, notification, log line, URL, journal byte (SQLite files and CSV) and data file is
// searched for every key the session used.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCore, startPaper, type Harness, type Paper } from '../../support/core-harness.js';

let paper: Paper;
let h: Harness;

beforeAll(async () => {
  paper = await startPaper();
  h = await startCore(paper);
});
afterAll(async () => {
  await h?.stop();
  await paper?.stop();
});

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

it('never shows the key in answers, events, logs, the journal, URLs or data files', async () => {
  const userKey = `LEAKCANARY${'0123456789abcdef'.repeat(3)}`;
  const wrongKey = `WRONGCANARY${'fedcba9876543210'.repeat(3)}`;
  paper.gw.gateway.keys.add(userKey);
  const answers: unknown[] = [];
  const call = async (channel: string, input?: unknown) => {
    const r = await h.core.router.invoke(channel, input);
    answers.push(r);
    return r;
  };

  await call('settings.update', { risk: { maxValuePerOrder: 1e9, priceBandPercent: 10 } });
  await call('profiles.add', { id: 'broker', name: 'My broker', baseUrl: paper.proxy.url });
  // Wrong key first: the gateway's refusal must not echo it back to anyone.
  await call('apiKey.set', { profileId: 'broker', key: wrongKey });
  await call('profiles.switch', { id: 'broker' });
  await h.core.pollNow();
  expect(await call('books.funds')).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  expect(await call('apiKey.test')).toMatchObject({ ok: false });
  // A key in the wrong place is refused, not stored or echoed.
  expect(
    await call('orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 1,
      apikey: userKey,
    }),
  ).toMatchObject({
    ok: false,
    error: { kind: 'invalid_input' },
  });

  await call('apiKey.set', { profileId: 'broker', key: userKey });
  await call('apiKey.status', { profileId: 'broker' });
  expect(await call('apiKey.test')).toMatchObject({ ok: true });
  await h.core.pollNow();

  const sbin = paper.inst('NSE', 'SBIN');
  const limit = paper.onTick(sbin, paper.ltp(sbin) * 0.97);
  const placed = await call('orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 5,
    pricetype: 'LIMIT',
    price: limit,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed));
  const orderid = (placed.value as { orderid: string }).orderid;
  await h.core.pollNow();
  const modified = await call('orders.modify', {
    orderid,
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 6,
    pricetype: 'LIMIT',
    product: 'MIS',
    price: limit,
    trigger_price: 0,
    disclosed_quantity: 0,
  });
  expect(modified.ok, JSON.stringify(modified)).toBe(true);
  await h.core.pollNow();
  expect((await call('orders.cancel', { orderid })).ok).toBe(true);
  expect(await call('orders.cancel', { orderid: '99999999999999' })).toMatchObject({ ok: false });
  // A market order that fills, for a fill event and a notification.
  expect(
    (await call('orders.place', { symbol: 'TCS', exchange: 'NSE', action: 'BUY', quantity: 1 })).ok,
  ).toBe(true);
  // A risk refusal and a gateway refusal.
  await call('orders.place', { symbol: 'TCS', exchange: 'NSE', action: 'BUY', quantity: 999_999 });
  await call('orders.place', {
    symbol: 'NOPE',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 1,
    pricetype: 'LIMIT',
    price: 10,
  });
  await h.core.pollNow();

  const sbinRef = { symbol: 'SBIN', exchange: 'NSE' };
  const reads: [string, unknown?][] = [
    ['books.orders'],
    ['books.trades'],
    ['books.positions'],
    ['books.holdings'],
    ['books.funds'],
    ['books.positionsOpen', { ...sbinRef, product: 'MIS' }],
    ['orders.status', { orderid }],
    ['orders.openPosition', { ...sbinRef, product: 'MIS' }],
    ['market.symbol', sbinRef],
    ['market.multiquotes', { symbols: [sbinRef] }],
    ['market.intervals'],
    ['session.snapshot'],
  ];
  for (const [channel, input] of reads) expect((await call(channel, input)).ok, channel).toBe(true);
  expect((await call('market.depth', { symbol: 'SBIN', exchange: 'NSE' })).ok).toBe(true);
  expect((await call('market.quotes', { symbol: 'SBIN', exchange: 'NSE' })).ok).toBe(true);
  expect((await call('market.search', { query: 'SBI' })).ok).toBe(true);
  expect((await call('market.ticker', { symbol: 'SBIN', exchange: 'NSE', interval: '5m' })).ok).toBe(true);
  // An outage: a dropped read and a dropped mutation (unknown outcome, reconciled).
  paper.proxy.enqueue({ kind: 'drop', forward: false }, '/api/v1/orderbook');
  await h.core.pollNow();
  paper.proxy.enqueue({ kind: 'drop', forward: true }, '/api/v1/placeorder');
  expect(
    await call('orders.place', { symbol: 'ITC', exchange: 'NSE', action: 'BUY', quantity: 2 }),
  ).toMatchObject({
    ok: false,
    error: { kind: 'unknown_outcome' },
  });
  await h.core.pollNow();
  expect(h.of('orders.reconciled')).toHaveLength(1);
  await call('journal.query', {});
  const csv = await call('journal.exportCsv', {});
  expect(csv.ok).toBe(true);

  // The session did reach the gateway with the key, so the checks below are not vacuous.
  expect(paper.proxy.forwarded.some((r) => r.body.includes(userKey))).toBe(true);
  expect(h.of('orders.filled').length).toBeGreaterThan(0);
  expect(h.notifications.length).toBeGreaterThan(0);

  const paperKey = [...h.keychain.items.entries()].find(([k]) => k.endsWith('/paper'))?.[1];
  expect(paperKey).toBeDefined();
  const secrets = [userKey, wrongKey, paperKey ?? ''];
  const haystacks: [string, string][] = [
    ['router answers', JSON.stringify(answers)],
    ['events', JSON.stringify(h.events)],
    ['notifications', JSON.stringify(h.notifications)],
    ['tray', JSON.stringify(h.trays)],
    ['logs', JSON.stringify(h.logger.entries)],
    ['urls', h.urls.join('\n')],
    ['urls at the gateway', paper.proxy.received.map((r) => r.url).join('\n')],
  ];
  expect(h.urls.length).toBeGreaterThan(20);
  const dataFiles = files(h.dataDir);
  expect(dataFiles.some((f) => f.endsWith('journal.db'))).toBe(true);
  for (const f of dataFiles) haystacks.push([f, readFileSync(f).toString('latin1')]);
  for (const [where, text] of haystacks)
    for (const secret of secrets) expect(text.includes(secret), `${where} holds a key`).toBe(false);
  // The journal really holds the session (so the byte scan saw it).
  const journalBytes = dataFiles
    .filter((f) => /journal\.db/.test(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');
  expect(journalBytes).toContain(orderid);
  // The exported file is under the data dir, so the byte scan above covered it too.
  const saved = csv.ok ? (csv.value as { kind: string; path?: string }) : undefined;
  expect(saved?.kind).toBe('saved');
  expect(saved?.path && dataFiles.includes(saved.path)).toBe(true);
  expect(readFileSync(saved?.path ?? '', 'utf8')).toContain(orderid);
});
