// The desk end to end, a gateway that is down when the desk loads and comes up later: the watchlist's
// quote watch is refused at load (the offline banner says so, the list stays quiet); once it answers and
// the desk shows connected, the watch is asked again by itself: every row priced, no error left.
// Screenshots: desk-watch-retry-down-1280 (no resize there: a remount would ask again by itself),
// desk-watch-retry-up at 1280×720 and 420 px wide.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesList } from '../../src-main/contract/index.js';
import {
  SHOTS,
  invoke,
  openDesk,
  startPaper,
  tempDir,
  type Desk,
  type PaperProcess,
} from '../support/desk-harness.js';

const KEY = '0123456789abcdef'.repeat(4);

let desk: Desk;
let paperDir: string;
let gateway: PaperProcess | undefined;

beforeAll(async () => {
  paperDir = tempDir('desk-watch-retry-paper');
  desk = await openDesk('desk-watch-retry');
});

afterAll(async () => {
  await gateway?.stop();
  await desk?.stop();
  rmSync(paperDir, { recursive: true, force: true });
});

describe('a gateway down at load, up later', { timeout: 120_000 }, () => {
  it('the refused watchlist watch is asked again once connected: prices, no red error', async () => {
    const { page } = desk;
    // A port the gateway will listen on later: taken once, then let go.
    const first = await startPaper(paperDir, KEY);
    const { port, url } = first;
    await first.stop();

    const added = await invoke<ProfilesList>(page, 'profiles.add', { name: 'Late gateway', baseUrl: url });
    const id = added.profiles.find((p) => p.name === 'Late gateway')?.id;
    expect(id).toBeDefined();
    await invoke(page, 'apiKey.set', { key: KEY, profileId: id });
    await invoke(page, 'profiles.switch', { id });
    // The desk loads while its gateway is down.
    await page.reload();
    const connection = () => page.getByTestId('connection').getAttribute('data-state');
    await expect.poll(connection, { timeout: 30_000 }).toBe('disconnected');
    const list = page.locator('#watchlist-panel');
    // The refusal is the gateway's, not the list's: the banner says it once, the list stays quiet.
    await page.getByTestId('banner-offline').waitFor({ timeout: 20_000 });
    expect(await list.locator('.note.bad, tr.err').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'desk-watch-retry-down-1280.png') });

    gateway = await startPaper(paperDir, KEY, port);
    await expect.poll(connection, { timeout: 40_000 }).toBe('connected');
    await expect
      .poll(async () => (await list.locator('td.ltp').allTextContents()).every((t) => /\d/.test(t)), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await list.locator('.note.bad, tr.err').count()).toBe(0);
    await desk.shots('watch-retry-up');
  });
});
