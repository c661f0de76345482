// `npm start` where Electron cannot run (no binary here; no display forced): one line saying so,
// then browser mode, which builds the renderer and prints its link.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startWebProcess, type WebProcess } from '../support/web-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'start-e2e-'));
let web: WebProcess | undefined;
afterAll(async () => {
  await web?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start without Electron', () => {
  it('says why in one line and starts browser mode, which serves the desk', async () => {
    const env = { ...process.env };
    delete env['DISPLAY'];
    delete env['WAYLAND_DISPLAY'];
    web = await startWebProcess(['--port', '0', '--data', dataDir, '--no-open', '--no-keychain'], {
      via: ['bash', join(ROOT, 'scripts', 'start.sh')],
      env,
      timeoutMs: 90_000,
    });
    expect(web.stdout[0]).toMatch(
      /^Electron cannot run here \((no Electron binary installed|no display)\); starting browser mode instead\.$/,
    );
    expect(web.stdout.slice(1, 3)).toEqual([
      `OrderDesk (browser mode) · data in ${dataDir}`,
      expect.stringMatching(/^Open http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/),
    ]);
    const r = await fetch(web.url, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('set-cookie')).toMatch(/^orderdesk_session_\d+=/);
    // SIGTERM to the group: the host stops cleanly (exit 0) and releases the data dir.
    expect(await web.stop()).toBe(0);
    web = undefined;
  });
});
