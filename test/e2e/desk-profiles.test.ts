// The desk end to end, profiles and keys: a live profile added from the status bar's Profiles and API
// keys dialog, a wrong key set, tested (the gateway's refusal in its words, the red key banner) and
// cleared; then a live profile on a standalone paper gateway that is stopped (the offline banner with
// since when) and restarted on the same port (connected again). Screenshots at 1280×720 and 420 px.
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk, startPaper, tempDir, type Desk, type PaperProcess } from '../support/desk-harness.js';

const WRONG_KEY = 'f'.repeat(64);
const GOOD_KEY = '0123456789abcdef'.repeat(4);
/** What a 64-hex API key looks like; no frame to the page may hold one. */
const KEY_SHAPE = /[0-9a-f]{64}/i;

let desk: Desk;
let page: Page;

beforeAll(async () => {
  desk = await openDesk('desk-profiles');
  page = desk.page;
});

afterAll(async () => {
  await desk?.stop();
});

async function openProfiles(): Promise<void> {
  await page.getByTestId('profile').click();
  await page.getByRole('dialog', { name: 'Profiles and API keys' }).waitFor();
}

async function closeProfiles(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Adds a gateway profile by name and URL through the dialog; it becomes the active one. */
async function addProfile(name: string, url: string): Promise<void> {
  await openProfiles();
  await page.getByTestId('profile-name').fill(name);
  await page.getByTestId('profile-url').fill(url);
  await page.getByTestId('profile-add').click();
  await expect.poll(() => page.getByTestId('mode').textContent(), { timeout: 10_000 }).toBe('LIVE');
  await expect.poll(() => page.getByTestId('profile').textContent()).toContain(name);
}

async function typeKey(key: string): Promise<void> {
  // Typed as a trader pastes it, then sent by Enter from the field.
  await page.getByTestId('key-input').fill(key);
  await page.getByTestId('key-input').press('Enter');
  await expect.poll(() => page.getByTestId('key-input').inputValue()).toBe('');
  await expect.poll(() => page.getByTestId('key-status').getAttribute('data-present')).toBe('true');
}

const connection = () => page.getByTestId('connection').getAttribute('data-state');

describe('key set, test and clear on a live profile', { timeout: 60_000 }, () => {
  it('a live profile on the paper gateway URL turns the desk LIVE, with no key: the red key banner', async () => {
    await addProfile('Wrong key gateway', await desk.paperUrl());
    await expect.poll(() => page.getByTestId('key-status').textContent()).toContain('no key stored');
    await closeProfiles();
    await expect.poll(connection, { timeout: 15_000 }).toBe('no_key');
    await expect
      .poll(() => page.getByTestId('banner-key').textContent())
      .toContain('No API key for this profile · Settings ▸ Profiles');
    expect(await page.getByTestId('status-bar').getAttribute('data-mode')).toBe('LIVE');
    await desk.shots('live-no-key');
  });

  it('a wrong key is sent write-only and cleared from the field; the test shows the gateway refusal', async () => {
    await page.getByRole('button', { name: 'Open Profiles', exact: true }).click();
    await page.getByRole('dialog', { name: 'Profiles and API keys' }).waitFor();
    await typeKey(WRONG_KEY);
    await page.getByTestId('key-test').click();
    const result = page.getByTestId('key-test-result');
    await expect.poll(() => result.getAttribute('data-ok'), { timeout: 10_000 }).toBe('false');
    expect(await result.textContent()).toMatch(/Gateway refused: .*Invalid openalgo apikey/);
    await desk.shots('key-refused');
    await closeProfiles();
    await expect.poll(connection, { timeout: 15_000 }).toBe('unauthorised');
    await expect
      .poll(() => page.getByTestId('banner-key').textContent())
      .toContain('API key rejected by the gateway · Settings ▸ Profiles');
    expect(await page.getByTestId('connection').textContent()).toContain('key rejected');
    expect(await page.getByTestId('key').getAttribute('data-state')).toBe('problem');
    await desk.shots('key-rejected-banner');
  });

  it('clear removes the key: no key stored, Test and Clear disabled; back to paper is one click', async () => {
    await openProfiles();
    await page.getByTestId('key-clear').click();
    await expect.poll(() => page.getByTestId('key-status').getAttribute('data-present')).toBe('false');
    expect(await page.getByTestId('key-status').textContent()).toContain('no key stored');
    expect(await page.getByTestId('key-test').isDisabled()).toBe(true);
    expect(await page.getByTestId('key-clear').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Use paper' }).click();
    await expect.poll(() => page.getByTestId('mode').textContent(), { timeout: 10_000 }).toBe('PAPER');
    await closeProfiles();
    await expect.poll(connection, { timeout: 15_000 }).toBe('connected');
    expect(await page.getByTestId('banner-key').count()).toBe(0);
  });
});

describe('a stopped gateway shows the offline state and recovers', { timeout: 60_000 }, () => {
  let paperDir: string;
  let gateway: PaperProcess;

  beforeAll(async () => {
    paperDir = tempDir('desk-paper');
    gateway = await startPaper(paperDir, GOOD_KEY);
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(paperDir, { recursive: true, force: true });
  });

  it('a live profile on a standalone gateway with its right key: the test passes, connected', async () => {
    await addProfile('Standalone gateway', gateway.url);
    await typeKey(GOOD_KEY);
    await page.getByTestId('key-test').click();
    await expect
      .poll(() => page.getByTestId('key-test-result').getAttribute('data-ok'), { timeout: 10_000 })
      .toBe('true');
    expect(await page.getByTestId('key-test-result').textContent()).toContain('Gateway accepted the key');
    await closeProfiles();
    await expect.poll(connection, { timeout: 15_000 }).toBe('connected');
  });

  it('the gateway stops: the amber banner says since when, retrying', async () => {
    await gateway.stop();
    await expect.poll(connection, { timeout: 20_000 }).toBe('disconnected');
    const banner = page.getByTestId('banner-offline');
    expect(await banner.textContent()).toMatch(/Gateway unreachable since \d\d:\d\d:\d\d IST · retrying/);
    expect(await page.getByTestId('connection').textContent()).toContain('gateway unreachable');
    await desk.shots('offline');
  });

  it('restarted on the same port, the desk is connected again and the banner leaves', async () => {
    gateway = await startPaper(paperDir, GOOD_KEY, gateway.port);
    await expect.poll(connection, { timeout: 40_000 }).toBe('connected');
    expect(await page.getByTestId('banner-offline').count()).toBe(0);
    await desk.shots('recovered');
  });

  it('no frame the page received holds a key, and the page logged no error', () => {
    expect(desk.framesToPage.length).toBeGreaterThan(0);
    expect(desk.framesToPage.filter((f) => KEY_SHAPE.test(f))).toEqual([]);
    expect(desk.problems).toEqual([]);
  });
});
