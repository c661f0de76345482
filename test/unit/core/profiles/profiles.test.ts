import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../src-main/contract/index.js';
import { createProfiles, type Profiles } from '../../../../src-main/core/profiles/index.js';
import {
  createMemoryLogger,
  createSecretStore,
  type SecretStore,
} from '../../../../src-main/core/secrets/index.js';
import { createSettingsStore, type SettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let settings: SettingsStore;
let secrets: SecretStore;
let profiles: Profiles;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-profiles-'));
  settings = createSettingsStore({ path: join(dir, 'settings.json') });
  await settings.load();
  secrets = createSecretStore({
    service: 'OrderDesk',
    keytar: null,
    paths: { dataDir: dir },
    logger: createMemoryLogger(),
  });
  profiles = createProfiles({ settings, secrets });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const broker = {
  name: 'Zerodha via OpenAlgo',
  baseUrl: 'https://algo.example.in',
  strategy: 'Desk',
  rateLimitPerSecond: 8,
};

describe('profiles', () => {
  it('starts with the embedded paper profile, active, its URL filled in at run time', async () => {
    expect(await profiles.list()).toEqual([
      expect.objectContaining({ id: 'paper', kind: 'paper', active: true, hasKey: false, baseUrl: '' }),
    ]);
    profiles.setEmbeddedBaseUrl('http://127.0.0.1:53117/');
    expect(profiles.active()).toMatchObject({ id: 'paper', baseUrl: 'http://127.0.0.1:53117' });
    // The run-time URL is never persisted.
    expect(settings.get().profiles[0]?.baseUrl).toBe('');
    expect(() => profiles.setEmbeddedBaseUrl('file:///etc')).toThrow(/http/);
    // Not a URL at all: the same typed refusal, not a TypeError from the URL parser.
    expect(() => profiles.setEmbeddedBaseUrl('not a url')).toThrow(
      expect.objectContaining({ kind: 'invalid_input' }),
    );
  });

  it('adds a gateway profile with a generated id and persists it', async () => {
    const p = await profiles.add(broker);
    expect(p).toEqual({
      id: expect.stringMatching(/^zerodha-via-openalgo-[0-9a-f]{6}$/),
      kind: 'gateway',
      ...broker,
    });
    const reloaded = createSettingsStore({ path: join(dir, 'settings.json') });
    expect((await reloaded.load()).profiles.map((x) => x.id)).toEqual(['paper', p.id]);
  });

  it('accepts a caller-chosen id once', async () => {
    expect((await profiles.add({ ...broker, id: 'my-gw' })).id).toBe('my-gw');
    await expect(profiles.add({ ...broker, id: 'my-gw' })).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/already used/),
    });
    await expect(profiles.add({ ...broker, id: 'paper' })).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/reserved/),
    });
  });

  it.each([
    [{ ...broker, baseUrl: '' }, /baseUrl is required/],
    [{ ...broker, baseUrl: 'ftp://x' }, /http\(s\) URL/],
    [{ ...broker, baseUrl: 'https://user:pw@x.in' }, /without credentials/],
    [{ ...broker, name: ' ' }, /name cannot be empty/],
    [{ ...broker, rateLimitPerSecond: 0 }, /rateLimitPerSecond/],
    [{ ...broker, apikey: 'k' }, /apikey/],
  ])('refuses an invalid new profile %#', async (input, message) => {
    await expect(profiles.add(input)).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(message),
    });
    expect(settings.get().profiles).toHaveLength(1);
  });

  it('updates a profile; the paper URL cannot be changed', async () => {
    const p = await profiles.add(broker);
    expect(await profiles.update(p.id, { name: 'Renamed', rateLimitPerSecond: 3 })).toMatchObject({
      profile: { id: p.id, name: 'Renamed', rateLimitPerSecond: 3, baseUrl: broker.baseUrl },
      keyCleared: false,
    });
    expect(await profiles.update('paper', { strategy: 'Practice' })).toMatchObject({
      profile: { strategy: 'Practice' },
    });
    await expect(profiles.update('paper', { baseUrl: 'https://x.in' })).rejects.toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/paper gateway's URL/),
    });
    await expect(profiles.update('missing', { name: 'x' })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'no profile missing',
    });
  });

  it('switches the active profile, persists it and notifies once', async () => {
    const p = await profiles.add(broker);
    const seen: Profile[] = [];
    profiles.onSwitch((x) => seen.push(x));
    expect((await profiles.switchTo(p.id)).id).toBe(p.id);
    await profiles.switchTo(p.id);
    expect(seen.map((x) => x.id)).toEqual([p.id]);
    expect(profiles.active().id).toBe(p.id);
    expect((await createSettingsStore({ path: join(dir, 'settings.json') }).load()).activeProfileId).toBe(
      p.id,
    );
    await expect(profiles.switchTo('nope')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('keeps each profile’s key apart', async () => {
    const p = await profiles.add(broker);
    await secrets.set('paper', 'paper-key');
    await secrets.set(p.id, 'broker-key');
    const list = await profiles.list();
    expect(list.map((x) => [x.id, x.hasKey])).toEqual([
      ['paper', true],
      [p.id, true],
    ]);
    expect(await secrets.revealForGatewayClient(p.id)).toBe('broker-key');
  });

  it('removes a profile with its key; removing the active one returns to paper', async () => {
    const p = await profiles.add(broker);
    await secrets.set(p.id, 'broker-key');
    await profiles.switchTo(p.id);
    const seen: string[] = [];
    profiles.onSwitch((x) => seen.push(x.id));
    await profiles.remove(p.id);
    expect(seen).toEqual(['paper']);
    expect(profiles.active().id).toBe('paper');
    expect(await secrets.has(p.id)).toBe(false);
    expect(profiles.get(p.id)).toBeUndefined();
    await expect(profiles.remove('paper')).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/cannot be removed/),
    });
    await expect(profiles.remove('gone')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('never reuses an id, so a re-added profile cannot see old journal or watch data', async () => {
    const a = await profiles.add(broker);
    await profiles.remove(a.id);
    const b = await profiles.add(broker);
    expect(b.id).not.toBe(a.id);
  });
});
