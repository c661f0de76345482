// Browser mode opens the desk through a private launch file, so the one-time token never appears in
// a process's arguments (`ps` shows every local user the opener's command line). Started in-process
// as `npm run web` does, with a fake xdg-open on PATH that records its arguments.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type RunningWeb } from '../../../src-main/web/cli.js';
import { LAUNCH_FILE } from '../../../src-main/web/open-browser.js';

const dir = mkdtempSync(join(tmpdir(), 'browser-launch-'));
const rendererDir = join(dir, 'renderer');
const bin = join(dir, 'bin');
const argvLog = join(dir, 'opener-argv');

beforeAll(() => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  copyFileSync(new URL('../../../src-renderer/index.html', import.meta.url), join(rendererDir, 'index.html'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  mkdirSync(bin);
  // The fake browser opener: its whole command line, one argument a line.
  writeFileSync(
    join(bin, 'xdg-open'),
    `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${argvLog}.tmp'\nmv '${argvLog}.tmp' '${argvLog}'\n`,
  );
  chmodSync(join(bin, 'xdg-open'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openerArgv(): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (!existsSync(argvLog)) {
    if (Date.now() > deadline) throw new Error('the opener was not run');
    await new Promise((r) => setTimeout(r, 20));
  }
  return readFileSync(argvLog, 'utf8').trimEnd().split('\n');
}

describe('browser mode opens the desk through a launch file', () => {
  it("the opener's arguments carry no token; the 0600 launch file does, and goes when OrderDesk stops", async () => {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    // A stale launch file from a run that crashed, and a link planted in its place must not be followed.
    const outside = join(dir, 'outside.html');
    writeFileSync(outside, 'not ours', { mode: 0o644 });
    symlinkSync(outside, join(dataDir, LAUNCH_FILE));

    const out: string[] = [];
    const started = await startWeb(
      ['--port', '0', '--data', dataDir, '--no-keychain', '--renderer', rendererDir],
      {
        env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, DISPLAY: ':99', HOME: dir },
        stdout: (t) => out.push(t),
        stderr: () => undefined,
      },
    );
    if (typeof started === 'number') throw new Error(`startWeb exited ${started}`);
    const web: RunningWeb = started;
    try {
      const token = new URL(web.host.url).searchParams.get('token') ?? '';
      expect(token).toMatch(/^[\w-]{43}$/);
      // The user who started it still sees the link (stdout is theirs alone), as Jupyter prints it.
      expect(out.join('')).toContain(`Open ${web.host.url}\n`);

      const argv = await openerArgv();
      expect(argv.join(' ')).not.toContain(token);
      expect(argv.slice(1)).toHaveLength(1);
      const launch = fileURLToPath(argv[1]!);
      expect(launch).toBe(join(dataDir, LAUNCH_FILE));

      const stat = lstatSync(launch);
      expect(stat.isFile()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o600);
      const html = readFileSync(launch, 'utf8');
      expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${web.host.url}">`);
      expect(html).toContain(`<a href="${web.host.url}">`);
      // The planted link was replaced, not written through.
      expect(readFileSync(outside, 'utf8')).toBe('not ours');
      expect(statSync(outside).mode & 0o777).toBe(0o644);
    } finally {
      await web.stop();
    }
    expect(existsSync(join(dataDir, LAUNCH_FILE))).toBe(false);
  });
});
