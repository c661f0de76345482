// settings.update through the router tells every listener (other windows, the shell) the saved
// settings with a settings.changed event; a refused update changes nothing and says nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { ManualClock } from '../../../src-main/gateway/index.js';

let dataDir: string;
let core: Core;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'settings-changed-'));
  core = createCore({
    paths: { dataDir },
    logger: createMemoryLogger(),
    notifier: { notify: () => undefined },
    tray: { update: () => undefined },
    clock: new ManualClock(1_000_000),
    keytar: null,
    // Nothing here talks to a gateway: any request is a test failure.
    fetch: async () => {
      throw new Error('no gateway in this test');
    },
    startPaperGateway: async () => ({ url: 'http://paper.invalid', stop: async () => undefined }),
    gateway: { retry: { maxRetries: 0 }, rateLimit: 1000 },
  });
  await core.start();
});
afterEach(async () => {
  await core.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('settings.changed', () => {
  it('carries the saved settings after an update, with the next seq', async () => {
    const seen: { settings: { confirmations: { place: boolean } }; seq: number }[] = [];
    core.events.on('settings.changed', (e) => seen.push(e));
    const r = await core.router.invoke('settings.update', { confirmations: { place: false } });
    expect(r.ok).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.settings.confirmations).toEqual({ place: false, modify: true, cancel: true });
    const got = await core.router.invoke('settings.get');
    expect(got.ok && got.value).toEqual(seen[0]?.settings);
  });

  it('is not sent for a refused update', async () => {
    let count = 0;
    core.events.on('settings.changed', () => count++);
    const r = await core.router.invoke('settings.update', { risk: { maxQuantityPerOrder: -1 } });
    expect(r.ok).toBe(false);
    expect(count).toBe(0);
  });
});
