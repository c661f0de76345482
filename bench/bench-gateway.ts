// The desk under a bench trades through the bench's own paper gateway: a profile for it with the
// gateway's key, switched to, and connected.
import type { Page } from 'playwright-core';
import { invoke } from '../test/support/desk-harness.js';

export async function useBenchGateway(page: Page, url: string, key: string): Promise<void> {
  const list = await invoke<{ profiles: { id: string; name: string }[] }>(page, 'profiles.add', {
    name: 'Bench gateway',
    baseUrl: url,
  });
  const id = list.profiles.find((p) => p.name === 'Bench gateway')!.id;
  await invoke(page, 'apiKey.set', { key, profileId: id });
  await invoke(page, 'profiles.switch', { id });
  await page
    .getByTestId('connection')
    .and(page.locator('[data-state="connected"]'))
    .waitFor({ timeout: 20_000 });
}
