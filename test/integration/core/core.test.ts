// createCore as a composition root builds it: the embedded paper gateway (composition/paper-port)
// started in-process on a free loopback port with its data under dataDir/paper, the system clock,
// the memory secret tier.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { embeddedPaperGateway } from '../../../src-main/composition/paper-port.js';
import { createCore, type Core } from '../../../src-main/core/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';

let dataDir: string;
let core: Core;
const trays: { state: string; mode: string; tooltip: string }[] = [];
const logger = createMemoryLogger();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'core-default-'));
  core = createCore({
    paths: { dataDir },
    logger,
    notifier: { notify: () => undefined },
    tray: { update: (t) => trays.push(t) },
    keytar: null,
    startPaperGateway: embeddedPaperGateway,
  });
  await core.start();
});
afterAll(async () => {
  await core?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('starts the paper gateway for the default profile and trades through it', async () => {
  const profiles = await core.router.invoke('profiles.list');
  expect(profiles.ok && profiles.value.activeProfileId).toBe('paper');
  const paper = profiles.ok ? profiles.value.profiles[0] : undefined;
  expect(paper?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(paper?.hasKey).toBe(true);
  expect(existsSync(join(dataDir, 'paper'))).toBe(true);

  const funds = await core.router.invoke('books.funds');
  expect(funds).toMatchObject({ ok: true, value: { availableCash: expect.stringMatching(/^\d+\.\d{2}$/) } });
  const placed = await core.router.invoke('orders.place', {
    symbol: 'SBIN',
    exchange: 'NSE',
    action: 'BUY',
    quantity: 1,
  });
  expect(placed).toMatchObject({ ok: true, value: { orderid: expect.stringMatching(/^\d+$/) } });
  await core.pollNow();
  const book = await core.router.invoke('books.orders');
  expect(book.ok && book.value.orders).toHaveLength(1);
  expect(await core.router.invoke('apiKey.test')).toMatchObject({ ok: true, value: { profileId: 'paper' } });
  // The day's MTM in en-IN rupees, after the profile's name.
  expect(trays.at(-1)).toMatchObject({
    state: 'idle',
    mode: 'paper',
    tooltip: expect.stringMatching(/^OrderDesk · Paper \(simulated\) · MTM -?₹\d[\d,]*\.\d\d$/),
  });
});

it('switches to a gateway profile without a key and back', async () => {
  const events: string[] = [];
  const off = core.events.onAny((name, payload) => {
    if (name === 'session.connection') events.push((payload as { state: string }).state);
  });
  await core.router.invoke('profiles.add', { id: 'remote', name: 'Remote', baseUrl: 'http://127.0.0.1:9' });
  await core.router.invoke('profiles.switch', { id: 'remote' });
  await core.pollNow();
  expect(await core.router.invoke('books.funds')).toMatchObject({
    ok: false,
    error: { kind: 'no_key' },
  });
  expect(events.at(-1)).toBe('no_key');
  expect(trays.at(-1)).toMatchObject({ state: 'key-problem', mode: 'live' });
  await core.router.invoke('profiles.switch', { id: 'paper' });
  await core.pollNow();
  expect(await core.router.invoke('books.funds')).toMatchObject({ ok: true });
  expect(events.at(-1)).toBe('connected');
  off();
});
