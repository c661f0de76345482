// A key saved before keys were bound to their gateway's origin (a bare value in the keychain, no
// origin) is bound at the next start to the origin of its profile's base URL then, where the trader
// entered it; from then on the key goes only there. A hostile gateway (a local echo server) counts the
// requests that reached it carrying the key after settings.json is pointed at it by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../../../src-main/cli/cli.js';
import { PAPER_PROFILE, Settings } from '../../../src-main/contract/index.js';
import { useEchoGateway } from '../../support/echo-gateway.js';
import { fakeKeytar } from '../../support/secret-fakes.js';
import {
  editProfile,
  startCore,
  testKey as legacyKey,
  usePaper,
  type Harness,
} from '../../support/core-harness.js';

const paper = usePaper();
const echo = useEchoGateway();

/**
 * A data dir whose settings hold a 'broker' profile on the paper gateway (active) and whose keychain
 * holds its key as an earlier OrderDesk stored it: the bare value, no origin.
 */
async function legacyDataDir(key: string): Promise<Harness> {
  const first = await startCore(paper);
  paper.gw.gateway.keys.add(key);
  await first.core.router.invoke('profiles.add', { id: 'broker', name: 'Broker', baseUrl: paper.proxy.url });
  await first.core.router.invoke('profiles.switch', { id: 'broker' });
  await first.core.stop();
  first.keychain.items.set('OrderDesk/broker', key);
  onTestFinished(() => rmSync(first.dataDir, { recursive: true, force: true }));
  return first;
}

describe('a key saved before keys were bound to an origin', () => {
  it('is bound at start to its profile origin: it works there, and is not sent after a hand edit', async () => {
    const key = legacyKey('legacy-a');
    const first = await legacyDataDir(key);

    // The start after the upgrade: the key still works on the gateway it was entered for.
    const second = await startCore(paper, { dataDir: first.dataDir, keychain: first.keychain });
    try {
      const test = await second.core.router.invoke('apiKey.test');
      expect(test, JSON.stringify(test)).toMatchObject({ ok: true });
      expect(await second.core.router.invoke('books.funds')).toMatchObject({ ok: true });
    } finally {
      await second.stop();
    }

    // settings.json pointed at another origin by hand; the next start must not send the key there.
    editProfile(first.dataDir, 'broker', { baseUrl: echo.url });
    const third = await startCore(paper, { dataDir: first.dataDir, keychain: first.keychain });
    try {
      await third.core.pollNow();
      const test = await third.core.router.invoke('apiKey.test');
      await third.core.router.invoke('books.orders');
      await third.core.router.invoke('market.quotes', { symbol: 'SBIN', exchange: 'NSE' });
      expect(echo.carrying(key)).toHaveLength(0);
      expect(test).toMatchObject({ ok: false, error: { kind: 'no_key' } });
      expect(!test.ok && test.error.message).toMatch(/entered for .*enter the key again/i);
    } finally {
      await third.stop();
    }
  });

  it('a keychain that refuses the write at start: the key still works there, the log says why', async () => {
    const key = legacyKey('legacy-b');
    const first = await legacyDataDir(key);
    // The same keychain content, but writes other than the probe now fail.
    const refusing = fakeKeytar({ failSetAfterProbe: 'The name org.freedesktop.secrets was not provided' });
    for (const [k, v] of first.keychain.items) refusing.items.set(k, v);

    const second = await startCore(paper, { dataDir: first.dataDir, keychain: refusing });
    try {
      expect(await second.core.router.invoke('apiKey.test')).toMatchObject({ ok: true });
      const said = second.logger.entries.filter((e) => e.level === 'warn' && /address/.test(e.message));
      expect(said.map((e) => e.message)).toEqual([
        expect.stringMatching(
          /could not be saved with the address.*sent only to .*127\.0\.0\.1.*next start/i,
        ),
      ]);
      expect(JSON.stringify(second.logger.entries).toLowerCase()).not.toContain(key.slice(0, 12));
      // Nothing was written: the next start tries again.
      expect(refusing.items.get('OrderDesk/broker')).toBe(key);
    } finally {
      await second.stop();
    }
  });
});

describe('the CLI and a key saved before keys were bound', () => {
  it('--url elsewhere does not get the key; the saved address still does', async () => {
    const key = legacyKey('legacy-c');
    paper.gw.gateway.keys.add(key);
    const dir = mkdtempSync(join(tmpdir(), 'cli-legacy-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const settings = Settings.parse({
      profiles: [PAPER_PROFILE, { id: 'remote', name: 'Remote desk', baseUrl: paper.proxy.url }],
      activeProfileId: 'paper',
    });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
    const keychain = fakeKeytar();
    keychain.items.set('OrderDesk/remote', key);
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      env: { ORDERDESK_DATA_DIR: dir },
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      keytar: async () => keychain.keytar,
    };

    // A read (straight through the gateway client) and an order (through a core) to another origin.
    expect(await runCli(['--profile', 'remote', '--url', echo.url, 'funds'], io)).toBe(1);
    expect(JSON.parse(err.join(''))).toMatchObject({ kind: 'no_key', message: /enter the key again/ });
    err.length = 0;
    const order = [
      'exchange=NSE',
      'symbol=SBIN',
      'action=BUY',
      'quantity=1',
      'pricetype=MARKET',
      'product=MIS',
    ];
    expect(await runCli(['--profile', 'remote', '--url', echo.url, 'placeorder', ...order], io)).toBe(1);
    expect(echo.carrying(key)).toHaveLength(0);

    expect(await runCli(['--profile', 'remote', 'funds'], io), err.join('')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ status: 'success' });
  });
});
