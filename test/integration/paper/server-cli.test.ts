// `npm run paper` as a child process: prints its URL and a fresh key, answers ping with it, keeps
// only a hash on disk, reuses it after a restart, and rejects bad flags with exit code 2.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'paper-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  // Each CLI runs in its own process group (npx → tsx → node): kill whatever is left of each.
  for (const c of children) if (c.pid !== undefined) signalGroup(c.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Signals a whole process group; false when it no longer exists. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  child: ChildProcess;
  url: string;
  key: string | undefined;
  lines: string[];
}

// `npx tsx` as a user runs it; node with the tsx loader where the exit code matters: npx reports a
// forwarded signal as its own death, and the tsx CLI relays signals to its node child and SIGKILLs
// it (exit 143) when the child does not acknowledge within 30 ms, which a loaded machine can miss.
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
function startCli(args: string[], direct = false): Promise<Started> {
  const [cmd, pre] = direct ? [process.execPath, ['--import', 'tsx']] : ['npx', ['tsx']];
  const child = spawn(cmd, [...pre, 'src-main/paper/cli.ts', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, API_RATE_LIMIT: '100' },
    // Its own process group, so a stop reaches npx, tsx and node alike and none is orphaned.
    detached: true,
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let url: string | undefined;
    let key: string | undefined;
    const timer = setTimeout(
      () => reject(new Error(`CLI did not start: ${lines.join('\n')} ${stderr}`)),
      20_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const l = /^Listening on (http:\/\/\S+)$/.exec(line);
      if (l) url = l[1];
      const k = /^API key: (\S+)$/.exec(line);
      if (k) key = k[1];
      // The key line follows the URL line directly, or a note that a key exists does.
      if (url && (key || /already exists/.test(line))) {
        clearTimeout(timer);
        resolve({ child, url, key, lines });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited ${code}: ${stderr}`));
    });
  });
}

/** SIGTERM to the CLI's process group (only once it printed its URL); resolves with the exit code once the whole group is gone. */
async function stopCli(s: Started): Promise<number | null> {
  const pid = s.child.pid!;
  const exited = new Promise<number | null>((r) => s.child.on('exit', (code) => r(code)));
  signalGroup(pid, 'SIGTERM');
  const code = await exited;
  const deadline = Date.now() + 10_000;
  while (signalGroup(pid, 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return code;
}

async function ping(url: string, apikey: string): Promise<number> {
  const r = await fetch(`${url}/api/v1/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey }),
  });
  return r.status;
}

describe('paper CLI', () => {
  let key = '';

  it('first start prints the URL and a new 64-hex key that works', async () => {
    const s = await startCli(['--port', '0', '--data', dataDir]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.key).toMatch(/^[0-9a-f]{64}$/);
    key = s.key!;
    expect(await ping(s.url, key)).toBe(200);
    expect(await ping(s.url, 'wrong')).toBe(403);
    await stopCli(s);
  });

  it('the data dir holds no plaintext key', () => {
    for (const f of readdirSync(dataDir)) {
      const content = readFileSync(join(dataDir, f)).toString('latin1');
      expect(content.includes(key), f).toBe(false);
    }
    const store = JSON.parse(readFileSync(join(dataDir, 'keys.json'), 'utf8')) as {
      keys: { hash: string }[];
    };
    expect(store.keys).toHaveLength(1);
    expect(store.keys[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a restart on the same dir reuses the key without printing it', async () => {
    const s = await startCli(['--port', '0', '--data', dataDir], true);
    expect(s.key).toBeUndefined();
    expect(s.lines.join('\n')).not.toContain(key);
    expect(await ping(s.url, key)).toBe(200);
    expect(await stopCli(s)).toBe(0);
  });

  it('--apikey adds that key, and both keys work', async () => {
    const mine = 'my-own-test-key-123';
    const s = await startCli(['--port', '0', '--data', dataDir, '--apikey', mine]);
    expect(s.key).toBe(mine);
    expect(await ping(s.url, mine)).toBe(200);
    expect(await ping(s.url, key)).toBe(200);
    await stopCli(s);
  });

  it.each([['--port', 'abc'], ['--bogus'], ['--port', '70000']])(
    'bad flags %j exit 2 with usage',
    async (...args) => {
      const child = spawn(TSX, ['src-main/paper/cli.ts', ...args, '--data', dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code).toBe(2);
      expect(err).toMatch(/Usage: npm run paper/);
    },
  );
});
