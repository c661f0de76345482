// The paper gateway as a child process of its own (src-main/paper/cli.ts), so a suite can SIGKILL it
// for real and start it again on the same port and data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once the gateway answers its ping; throws (the child killed) after 30 s. `extraArgs`: more
 * options (the test-only `--fault-place-delay-ms`).
 */
export async function startGatewayChild(
  port: number,
  dataDir: string,
  apiKey: string,
  extraArgs: readonly string[] = [],
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src-main/paper/cli.ts',
      '--port',
      String(port),
      '--data',
      dataDir,
      '--apikey',
      apiKey,
      ...extraArgs,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  for (const end = Date.now() + 30_000; Date.now() < end; await sleep(50)) {
    if (child.exitCode !== null) throw new Error(`paper gateway exited: ${err.slice(-400)}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/v1/ping`, { method: 'POST', body: '{}' }).then(
      () => true,
      () => false,
    );
    if (up) return child;
  }
  child.kill('SIGKILL');
  throw new Error('paper gateway did not answer within 30 s');
}

/** SIGKILL, resolved once the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** A gateway REST call with the key in the body, as the spec has it. */
export function gatewayApi(url: string, key: string) {
  return async (path: string, body: Record<string, unknown> = {}): Promise<unknown> =>
    (
      await fetch(`${url}/api/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apikey: key, ...body }),
      })
    ).json();
}
