// The guard's lock over time, through the core against the paper gateway: it holds across a restart
// (same data dir and keychain, so the same paper account), the IST day change starts new counters
// while a day-long lock holds until 09:15 of the next weekday, a cooling-off lock ends on time, and an
// early UNLOCK ends it and is journalled (without the key). A damaged guard file locks to be safe.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCore, usePaper, type Harness } from '../../support/core-harness.js';
import type { GuardView } from '../../../src-main/contract/index.js';
import { ManualClock } from '../../../src-main/gateway/index.js';
import { fill, guardState, order, setGuard, waitGuard } from '../../support/guard-harness.js';

const paper = usePaper();
const cores: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of cores.splice(0)) await h.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function core(options: Parameters<typeof startCore>[1] = {}) {
  const h = await startCore(paper, options);
  cores.push(h);
  return h;
}

/** Two orders with max orders 2: the second reaches the cap and locks (block). */
async function lockedByOrders(h: Harness, coolOffMinutes = 0) {
  await setGuard(h, { enabled: true, maxOrders: 2, action: 'block', coolOffMinutes });
  await fill(h, 'ITC', 'BUY', 2);
  await fill(h, 'ITC', 'BUY', 3);
  return waitGuard(h, (v) => expect(v.lock?.rule).toBe('maxOrders'));
}
const entry = (h: Harness) => h.core.router.invoke('orders.place', order('ITC', 'BUY', 1));

it('the lock holds across a restart; the counters too', async () => {
  const first = await core();
  const locked = await lockedByOrders(first);
  expect(locked.orders).toBe(2);
  await first.core.stop();
  cores.splice(cores.indexOf(first), 1);
  dirs.push(first.dataDir);

  const again = await core({ dataDir: first.dataDir, keychain: first.keychain });
  // Refused before any book is read: the lock is on disk.
  const refused = await entry(again);
  expect(refused).toMatchObject({ ok: false, error: { kind: 'risk' } });
  expect(!refused.ok && refused.error.message).toMatch(
    /^Account guard locked by the max orders per day until/,
  );
  expect((await guardState(again)).lock).toEqual(locked.lock);
});

/** A core whose clock starts at `iso` (IST); the harness's `clock` is that clock. */
async function coreAt(iso: string, options: Parameters<typeof startCore>[1] = {}) {
  const clock = new ManualClock(Date.parse(iso));
  const h = await core({ ...options, ports: { clock } });
  return { ...h, clock };
}

it('the IST day change starts new counters; a day-long lock holds until 09:15 of the next weekday', async () => {
  const h = await coreAt('2026-11-20T23:59:00+05:30');
  const locked = await lockedByOrders(h);
  expect(locked.lock?.until).toBe('2026-11-23T09:15:00.000+05:30');
  // Friday → Saturday 00:00 IST: a new day (the core's own timer), the lock still holds.
  const events = h.events.length;
  await h.clock.advance(60_000);
  const saturday = h.events
    .slice(events)
    .filter((e) => e.name === 'guard.state')
    .map((e) => e.payload as GuardView)
    .find((v) => v.day === '2026-11-21');
  expect(saturday).toMatchObject({ orders: 0, lock: locked.lock });
  expect(await entry(h)).toMatchObject({ ok: false, error: { kind: 'risk' } });
  await h.core.stop();
  cores.splice(cores.indexOf(h), 1);
  dirs.push(h.dataDir);

  // Monday 09:14:59: still locked after a restart; at 09:15 the lock ends on its own.
  const monday = await coreAt('2026-11-23T09:14:59+05:30', { dataDir: h.dataDir, keychain: h.keychain });
  expect((await guardState(monday)).lock).toEqual(locked.lock);
  await monday.clock.advance(1000);
  expect(monday.of('guard.state').at(-1)).toMatchObject({ day: '2026-11-23', lock: null });
  expect(await entry(monday)).toMatchObject({ ok: true });
});

it('a cooling-off lock ends after its minutes, and the rule does not lock again that day', async () => {
  const h = await core();
  const locked = await lockedByOrders(h, 30);
  expect(locked.lock?.until).toBe('2026-11-20T10:30:0' + locked.lock?.until.slice(18));
  expect(Date.parse(locked.lock!.until) - Date.parse(locked.lock!.since)).toBe(30 * 60_000);
  await h.clock.advance(30 * 60_000);
  expect((await guardState(h)).lock).toBeNull();
  expect(await entry(h)).toMatchObject({ ok: true });
  await h.core.pollNow();
  expect((await guardState(h)).lock).toBeNull();
});

it('UNLOCK ends the lock early and is journalled; without a lock it is refused', async () => {
  const h = await core();
  const locked = await lockedByOrders(h);
  const wrong = await h.core.router.invoke('guard.unlock', { confirm: 'unlock' });
  expect(wrong).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  const r = await h.core.router.invoke('guard.unlock', { confirm: 'UNLOCK' });
  expect(r, JSON.stringify(r)).toMatchObject({ ok: true, value: { lock: null } });
  expect(h.trays.at(-1)?.state).not.toBe('locked');
  const after = await entry(h);
  expect(after, JSON.stringify(after)).toMatchObject({ ok: true });
  const rows = await h.core.router.invoke('journal.query', {});
  const unlock = rows.ok ? rows.value.find((e) => e.operation === 'guardunlock') : undefined;
  expect(unlock).toMatchObject({ outcome: 'ok', request: { rule: 'maxOrders', until: locked.lock!.until } });
  const all = JSON.stringify(rows);
  expect(all).toContain('"operation":"guardunlock"');
  expect(all).toContain(locked.lock!.reason);
  expect(all).not.toMatch(/apikey/i);
  expect(await h.core.router.invoke('guard.unlock', { confirm: 'UNLOCK' })).toMatchObject({
    ok: false,
    error: { kind: 'conflict' },
  });
});

it('a damaged guard file is kept aside and, with the guard on, locks to be safe', async () => {
  const first = await core();
  await setGuard(first, { enabled: true, dailyLoss: 1000, action: 'block' });
  await first.core.stop();
  cores.splice(cores.indexOf(first), 1);
  dirs.push(first.dataDir);
  mkdirSync(join(first.dataDir, 'guard'), { recursive: true });
  writeFileSync(join(first.dataDir, 'guard', 'paper.json'), '{"version":1,"day":');

  const again = await core({ dataDir: first.dataDir, keychain: first.keychain });
  const v = await guardState(again);
  expect(v.lock).toMatchObject({ action: 'block', rule: 'dailyLoss' });
  expect(v.lock?.reason).toMatch(/saved state could not be read .*locked to be safe/);
  expect(readdirSync(join(first.dataDir, 'guard')).some((f) => f.startsWith('paper.json.damaged-'))).toBe(
    true,
  );
  expect(again.notifications.some((n) => n.title === 'Account guard: saved state damaged')).toBe(true);
});
