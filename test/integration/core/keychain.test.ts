// The secret store against a real OS keychain: gnome-keyring in a private D-Bus session started by
// scripts/with-keyring.sh, and the real failure when there is no session bus at all.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
const withKeyring = join(root, 'scripts/with-keyring.sh');
const fixture = join(root, 'test/support/children/keychain-roundtrip.ts');
const child = [process.execPath, '--import', 'tsx', fixture];

interface Report {
  status: { backend: string; persistent: boolean; warning?: string };
  hasAfterSet: boolean;
  revealed: boolean;
  secondInstance: boolean;
  replaced: boolean;
  hasAfterClear: boolean;
  revealAfterClear: string | null;
  plaintextOnDisk: boolean;
  leakedToLog: boolean;
  finalStatus: { backend: string };
}

async function report(cmd: string[], env: NodeJS.ProcessEnv = process.env): Promise<Report> {
  const [file, ...args] = cmd;
  const { stdout } = await run(file ?? '', args, { cwd: root, env, timeout: 60_000 });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Report;
}

// No session bus and no display: what a user on a bare server or a minimal WM sees. XDG_RUNTIME_DIR
// points at an empty directory so libdbus cannot find a real user bus at $XDG_RUNTIME_DIR/bus.
let emptyRuntime: string;
function noBusEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: emptyRuntime };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
}

beforeAll(async () => {
  emptyRuntime = await mkdtemp(join(tmpdir(), 'orderdesk-nobus-'));
});
afterAll(async () => {
  await rm(emptyRuntime, { recursive: true, force: true });
});

describe('keychain (real gnome-keyring over D-Bus)', () => {
  it('has the tools it needs (CI installs dbus and gnome-keyring)', () => {
    // Fails, never skips: a missing keyring would otherwise hide the only real keychain test.
    for (const tool of ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
      expect(found, `${tool} not found: apt-get install dbus gnome-keyring libsecret-1-dev`).toBe(true);
    }
  });

  it('sets, reads, replaces and clears a key in the keychain', async () => {
    const r = await report([withKeyring, ...child]);
    expect(r.status).toEqual({ backend: 'keychain', persistent: true });
    expect(r).toMatchObject({
      hasAfterSet: true,
      revealed: true,
      secondInstance: true,
      replaced: true,
      hasAfterClear: false,
      revealAfterClear: null,
      plaintextOnDisk: false,
      leakedToLog: false,
      finalStatus: { backend: 'keychain' },
    });
  });

  it('without a D-Bus session falls back to memory with a warning, never crashing', async () => {
    const r = await report(child, noBusEnv());
    expect(r.status.backend).toBe('memory');
    expect(r.status.persistent).toBe(false);
    expect(r.status.warning).toMatch(/D-Bus|dbus|org\.freedesktop/i);
    expect(r.status.warning).toMatch(/memory only/);
    expect(r).toMatchObject({ hasAfterSet: true, revealed: true, replaced: true, hasAfterClear: false });
    expect(r.plaintextOnDisk).toBe(false);
  });

  it('without a D-Bus session falls back to safeStorage when the shell provides it', async () => {
    const r = await report([...child, 'fake-safe-storage'], noBusEnv());
    expect(r.status).toMatchObject({ backend: 'safe-storage', persistent: true });
    expect(r.status.warning).toMatch(/keychain unavailable/);
    expect(r).toMatchObject({
      hasAfterSet: true,
      revealed: true,
      secondInstance: true,
      replaced: true,
      hasAfterClear: false,
      plaintextOnDisk: false,
    });
  });

  it('the script refuses to run without a command', () => {
    const r = spawnSync(withKeyring, [], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/usage/);
  });
});
