// npm run test:electron: the Electron suite (test/electron/*.spec.ts: window, preload, protocol, tray,
// notifications, keychain inside Electron). Where no Electron binary exists it says so and exits 0: the
// unit tests cover the same code with fakes, and this suite is the part only a real Electron can check.
// On Linux without a display it runs itself again under xvfb-run (a virtual display) when installed.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = electronBinary();
if (!binary.ok) {
  console.log(`electron suite: not run (no Electron binary: ${binary.reason})`);
  process.exit(0);
}
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  const xvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' });
  if (xvfb.status !== 0 || process.env.ORDERDESK_UNDER_XVFB) {
    console.log('electron suite: not run (no display, and no xvfb-run: apt-get install xvfb)');
    process.exit(0);
  }
  const again = spawnSync('xvfb-run', ['-a', process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, ORDERDESK_UNDER_XVFB: '1' },
  });
  process.exit(again.status ?? 1);
}
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, ELECTRON_BINARY: binary.path };
// A dev server URL in the environment would make the app load it instead of the built bundle.
delete env.ELECTRON_RENDERER_URL;
const run = (cmd, args) => spawnSync(join(bin, cmd), args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
// The suite launches the built app (out/), as a user would.
const built = run('electron-vite', ['build', '--logLevel', 'warn']);
if (built !== 0) process.exit(built);
process.exit(run('vitest', ['run', '--config', 'test/electron/vitest.config.ts']));
