// npm run web's arguments.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEB_PORT, parseWebArgs } from '../../../src-main/web/cli.js';

describe('parseWebArgs', () => {
  it('defaults: the fixed port, the desktop data dir, open a browser, use the keychain', () => {
    const r = parseWebArgs([], {});
    expect(r).toMatchObject({
      ok: true,
      args: {
        port: DEFAULT_WEB_PORT,
        dataDir: join(homedir(), '.config', 'OrderDesk'),
        open: true,
        keychain: true,
      },
    });
    if (r.ok) expect(r.args.rendererDir).toBe(resolve('out/renderer'));
  });

  it('ORDERDESK_DATA_DIR, and CI never opens a browser', () => {
    const r = parseWebArgs([], { ORDERDESK_DATA_DIR: '/tmp/od', CI: 'true' });
    expect(r).toMatchObject({ ok: true, args: { dataDir: '/tmp/od', open: false } });
  });

  it('reads every flag, with a space or an equals sign', () => {
    const r = parseWebArgs(
      ['--port=0', '--data', 'rel/dir', '--no-open', '--no-keychain', '--renderer', '/r'],
      {},
    );
    expect(r).toEqual({
      ok: true,
      args: { port: 0, dataDir: resolve('rel/dir'), open: false, keychain: false, rendererDir: '/r' },
    });
  });

  it('refuses bad ports, missing values and unknown arguments with the usage', () => {
    for (const argv of [
      ['--port', '70000'],
      ['--port', 'x'],
      ['--port'],
      ['--data'],
      ['--apikey', 'k'],
      ['serve'],
    ]) {
      const r = parseWebArgs(argv, {});
      expect(r.ok, argv.join(' ')).toBe(false);
      if (!r.ok) expect(r.message).toContain('usage: npm run web');
    }
    expect(parseWebArgs(['--help'], {})).toMatchObject({ ok: false, help: true });
  });
});
