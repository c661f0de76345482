// The bundle's Content-Types: one table, so app:// and browser mode serve a file alike.
import { describe, expect, it } from 'vitest';
import { mimeType } from '../../../src-main/core/mime-type.js';
import { staticFile } from '../../../src-main/web/renderer-files.js';

describe('mimeType', () => {
  it('knows the bundle types and serves anything else as opaque bytes', () => {
    expect(mimeType('a.svg')).toBe('image/svg+xml');
    expect(mimeType('A.PNG')).toBe('image/png');
    expect(mimeType('a.json')).toBe('application/json');
    expect(mimeType('a.wasm')).toBe('application/wasm');
    expect(mimeType('a.exe')).toBe('application/octet-stream');
    expect(mimeType('noext')).toBe('application/octet-stream');
  });

  it('is what browser mode serves a file as', () => {
    for (const name of ['index.html', 'a.js', 'a.css', 'a.woff2', 'a.wasm', 'a.jpg', 'a.ttf', 'a.exe'])
      expect(staticFile('', name).contentType, name).toBe(mimeType(name));
  });
});
