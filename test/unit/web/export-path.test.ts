// Browser mode's save path: under the data dir's exports/, a plain file name, never overwriting.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportsSavePath } from '../../../src-main/web/export-path.js';

const dataDir = mkdtempSync(join(tmpdir(), 'exports-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const choose = exportsSavePath(dataDir);
const exportsDir = join(dataDir, 'exports');

describe('exportsSavePath', () => {
  it('answers <data dir>/exports/<name>', async () => {
    expect(await choose('orderdesk-journal-paper-2026-11-23.csv')).toBe(
      join(exportsDir, 'orderdesk-journal-paper-2026-11-23.csv'),
    );
  });

  it('never overwrites: name (2).csv, name (3).csv', async () => {
    writeFileSync(join(exportsDir, 'j.csv'), 'a');
    expect(await choose('j.csv')).toBe(join(exportsDir, 'j (2).csv'));
    writeFileSync(join(exportsDir, 'j (2).csv'), 'b');
    expect(await choose('j.csv')).toBe(join(exportsDir, 'j (3).csv'));
  });

  it('keeps only a file name: no way out of exports/', async () => {
    expect(await choose('../../etc/passwd')).toBe(join(exportsDir, 'passwd'));
    expect(await choose('/tmp/x.csv')).toBe(join(exportsDir, 'x.csv'));
    expect(await choose('..')).toBe(join(exportsDir, 'export'));
    expect(await choose('.bashrc')).toBe(join(exportsDir, 'bashrc'));
  });
});
