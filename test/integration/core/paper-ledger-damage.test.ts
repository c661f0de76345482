// The embedded paper gateway's ledger damaged at rest (cut short): OrderDesk still starts, the paper
// profile is unavailable with the file named and why, orders there are refused as `storage`, a live
// profile still trades, and "reset the paper account" keeps the damaged ledger aside and starts the
// paper gateway afresh, after which paper orders go through. Random bytes over a page in the middle
// of the ledger are found at start too (its quick check), not at the next order.
import { existsSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { embeddedPaperGateway } from '../../../src-main/composition/paper-port.js';
import { damageMiddlePage } from '../../support/damage.js';
import { sbinMarketBuy } from '../../support/orders.js';
import { LIMITS, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();
const order = sbinMarketBuy(1);

const ports = { startPaperGateway: embeddedPaperGateway };

/** A data dir whose paper ledger holds SBIN buys of `quantities`, placed through a core now stopped. */
async function ledgerOf(quantities: number[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'paper-ledger-'));
  const first = await startCore(paper, { dataDir, ports });
  try {
    await first.core.router.invoke('settings.update', LIMITS);
    for (const quantity of quantities) {
      const r = await first.core.router.invoke('orders.place', { ...order, quantity });
      expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    }
  } finally {
    await first.core.stop();
  }
  return { dataDir, first, ledger: join(dataDir, 'paper', 'paper.db') };
}

it('a truncated paper ledger: the core starts, paper unavailable (file named), live works, reset works', async () => {
  const { dataDir, first, ledger } = await ledgerOf([1]);
  truncateSync(ledger, Math.floor(statSync(ledger).size * 0.6));

  const h = await startCore(paper, { dataDir, keychain: first.keychain, ports });
  try {
    const snap = await h.core.router.invoke('session.snapshot');
    if (!snap.ok) throw new Error(JSON.stringify(snap.error));
    expect(snap.value.profile.id).toBe('paper');
    expect(snap.value.storage?.paper).toMatchObject({ file: ledger, reason: 'the file is damaged' });
    expect(snap.value.storage?.paper?.message).toContain('Reset the paper account');
    const refused = await h.core.router.invoke('orders.place', order);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'storage' } });
    expect(!refused.ok && refused.error.message).toContain(ledger);

    // A live profile (the shared test gateway) trades meanwhile.
    await h.core.router.invoke('profiles.add', { id: 'live', name: 'Live', baseUrl: paper.proxy.url });
    const key = 'b'.repeat(64);
    paper.gw.gateway.keys.add(key);
    await h.core.router.invoke('apiKey.set', { profileId: 'live', key });
    await h.core.router.invoke('profiles.switch', { id: 'live' });
    await h.core.router.invoke('settings.update', LIMITS);
    expect(await h.core.router.invoke('orders.place', { ...order, quantity: 2 })).toMatchObject({ ok: true });

    // Back on paper: reset the paper account, then paper orders go through.
    await h.core.router.invoke('profiles.switch', { id: 'paper' });
    const reset = await h.core.router.invoke('profiles.resetPaper');
    if (!reset.ok) throw new Error(JSON.stringify(reset.error));
    expect(reset.value.backupPath).toMatch(/paper\.db\.corrupt-\d+$/);
    expect(existsSync(reset.value.backupPath)).toBe(true);
    expect(h.of('session.storage').at(-1)?.paper).toBeUndefined();
    const placed = await h.core.router.invoke('orders.place', { ...order, quantity: 3 });
    expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
    const again = await h.core.router.invoke('profiles.resetPaper');
    expect(again).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  } finally {
    await h.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('random bytes over a middle page of the ledger: found at start, paper unavailable (file named)', async () => {
  const { dataDir, first, ledger } = await ledgerOf([1, 2, 3]);
  expect(damageMiddlePage(ledger, 11)).toBeGreaterThan(8);

  const h = await startCore(paper, { dataDir, keychain: first.keychain, ports });
  try {
    const snap = await h.core.router.invoke('session.snapshot');
    if (!snap.ok) throw new Error(JSON.stringify(snap.error));
    expect(snap.value.storage?.paper).toMatchObject({ file: ledger, reason: 'the file is damaged' });
    // A read while unavailable says why in words (not "[redacted]" over the word unavailable).
    const read = await h.core.router.invoke('market.quotes', { exchange: 'NSE', symbol: 'SBIN' });
    expect(!read.ok && read.error.message).toContain(
      `The paper account is unavailable: its ledger ${ledger}`,
    );
    const reset = await h.core.router.invoke('profiles.resetPaper');
    expect(reset).toMatchObject({ ok: true });
    const placed = await h.core.router.invoke('orders.place', { ...order, quantity: 7 });
    expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
  } finally {
    await h.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
