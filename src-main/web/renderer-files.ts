// The built renderer (out/renderer), read once at start: only files that were there are ever served,
// so no request path can reach anything else on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { mimeType } from '../core/mime-type.js';
import { webIndexHtml } from './page-policy.js';

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

export class RendererFilesError extends Error {
  override name = 'RendererFilesError';
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** URL path (`/assets/index-x.js`) → file. index.html is served rewritten for browser mode. */
export function loadRendererFiles(
  root: string,
  extra: Record<string, StaticFile> = {},
): Map<string, StaticFile> {
  let files: string[];
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
    files = walk(root);
  } catch {
    throw new RendererFilesError(`no built renderer at ${root}: run npx electron-vite build first`);
  }
  const map = new Map<string, StaticFile>();
  for (const file of files) {
    const urlPath = `/${relative(root, file).split(sep).join('/')}`;
    const contentType = mimeType(file);
    let body = readFileSync(file);
    if (urlPath === '/index.html') body = Buffer.from(webIndexHtml(body.toString('utf8')));
    map.set(urlPath, { body, contentType });
  }
  if (!map.has('/index.html'))
    throw new RendererFilesError(`no index.html in ${root}: run npx electron-vite build first`);
  for (const [path, file] of Object.entries(extra)) map.set(path, file);
  return map;
}

export function staticFile(body: string | Buffer, path: string): StaticFile {
  return {
    body: typeof body === 'string' ? Buffer.from(body) : body,
    contentType: mimeType(path),
  };
}
