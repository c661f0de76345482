// The packaging check: electron-builder builds the unpacked Linux app directory (`--dir`) from the
// real electron-builder.yml against a stand-in Electron distribution (a stub executable carrying
// Electron's fuse wire, so the fuses step runs for real), then this test reads what it produced:
// what the asar holds, which natives sit unpacked, and that nothing but production code ships.
// Needs `out/` (npm test builds it first). No download: electronDist and electronVersion are given.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as typeof import('@electron/asar');
const { build, Platform } = require('electron-builder') as typeof import('electron-builder');

const ROOT = join(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;

// @electron/fuses finds the wire after this sentinel: version 1, 8 fuses, then one byte per fuse
// ('0' off, '1' on). The stub starts with Electron's defaults for a fresh binary.
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const OFF = 0x30;
const ON = 0x31;
const FUSE_NAMES = [
  'RunAsNode',
  'EnableCookieEncryption',
  'EnableNodeOptionsEnvironmentVariable',
  'EnableNodeCliInspectArguments',
  'EnableEmbeddedAsarIntegrityValidation',
  'OnlyLoadAppFromAsar',
  'LoadBrowserProcessSpecificV8Snapshot',
  'GrantFileProtocolExtraPrivileges',
] as const;
const ELECTRON_DEFAULT_WIRE = [ON, OFF, ON, ON, OFF, OFF, OFF, ON];

/** A directory electron-builder accepts as an unpacked Electron: an `electron` stub with a fuse wire. */
function standInElectron(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, 'electron');
  const wire = Buffer.from([1, FUSE_NAMES.length, ...ELECTRON_DEFAULT_WIRE]);
  writeFileSync(exe, Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.from(SENTINEL), wire]));
  chmodSync(exe, 0o755);
  writeFileSync(join(dir, 'version'), ELECTRON_VERSION);
}

function fusesOf(exe: string): Record<string, boolean> {
  const bin = readFileSync(exe);
  const at = bin.indexOf(SENTINEL) + SENTINEL.length;
  const count = bin[at + 1] ?? 0;
  return Object.fromEntries(FUSE_NAMES.slice(0, count).map((n, i) => [n, bin[at + 2 + i] === ON]));
}

/**
 * Every package a production install has, as name@version: the dependencies' closure, resolved as
 * Node would. (electron-builder lays the tree out again, so paths differ; name@version does not.)
 */
function productionPackages(): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean): void => {
    let dir = fromDir;
    for (;;) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) {
        if (seen.has(candidate)) return;
        seen.add(candidate);
        const pkg = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')) as PackageJson;
        found.add(`${pkg.name}@${pkg.version}`);
        for (const d of Object.keys(pkg.dependencies ?? {})) visit(d, candidate, false);
        for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(d, candidate, true);
        return;
      }
      if (dir === ROOT) break;
      dir = dirname(dir);
    }
    if (!optional)
      throw new Error(`${name} is not installed (needed from ${relative(ROOT, fromDir) || '.'})`);
  };
  for (const d of Object.keys(PKG.dependencies)) visit(d, ROOT, false);
  for (const d of Object.keys(PKG.optionalDependencies ?? {})) visit(d, ROOT, true);
  return found;
}

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The package.json of each package directory (node_modules/a, node_modules/@s/b, nested too). */
function packageJsonPaths(paths: string[]): string[] {
  return paths.filter((p) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(p));
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p, base) : [relative(base, p)];
  });
}

const SHIPPED_JUNK = [
  { what: 'a source map', test: (p: string) => p.endsWith('.map') },
  { what: 'TypeScript source', test: (p: string) => /\.(ts|mts|cts|tsx)$/.test(p) },
  { what: 'a test/bench folder', test: (p: string) => /(^|\/)(test|tests|__tests__|bench|stress)\//.test(p) },
];

let work: string;
let appDir: string;
let inAsar: string[];
let unpacked: string[];
let buildMs: number;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/index.js')))
    throw new Error('out/ is not built: run `npm run build` (npm test does) before the packaging check');
  work = mkdtempSync(join(tmpdir(), 'orderdesk-package-'));
  standInElectron(join(work, 'electron-dist'));
  const started = Date.now();
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    config: {
      // Everything else comes from electron-builder.yml. The stand-in replaces the download; the
      // native rebuild for Electron's ABI needs Electron's headers (a download) so it is left to
      // `npm run dist`.
      electronDist: join(work, 'electron-dist'),
      electronVersion: ELECTRON_VERSION,
      npmRebuild: false,
      directories: { output: join(work, 'dist'), buildResources: 'resources' },
    },
  });
  buildMs = Date.now() - started;
  appDir = join(work, 'dist/linux-unpacked');
  unpacked = walk(join(appDir, 'resources/app.asar.unpacked'));
  // The asar's index also lists the unpacked files (flagged); keep only what is inside the archive.
  const outside = new Set(unpacked);
  inAsar = asar
    .listPackage(join(appDir, 'resources/app.asar'), { isPack: false })
    .map((p) => p.slice(1))
    .filter((p) => !outside.has(p));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('packaged app directory (electron-builder --dir, stand-in Electron)', () => {
  it('builds in bounded time and names the executable after the product', () => {
    expect(buildMs).toBeLessThan(60_000);
    expect(existsSync(join(appDir, 'orderdesk'))).toBe(true);
  });

  it('the asar holds the built app, its resources and package.json, and production modules only', () => {
    const own = inAsar.filter((p) => !p.startsWith('node_modules'));
    const tops = new Set(
      own.map((p) =>
        p
          .split('/')
          .slice(0, p.startsWith('out/') ? 2 : 1)
          .join('/'),
      ),
    );
    expect([...tops].sort()).toEqual([
      'out',
      'out/main',
      'out/preload',
      'out/renderer',
      'package.json',
      'resources',
    ]);
    for (const f of [
      'out/main/index.js',
      'out/preload/preload.cjs',
      'out/renderer/index.html',
      'resources/icon.png',
    ])
      expect(inAsar, f).toContain(f);
    for (const state of ['live', 'paper', 'offline', 'key-problem', 'paused', 'alert'])
      expect(inAsar).toContain(`resources/tray/${state}@2x.png`);
    const shippedPkg = JSON.parse(
      asar.extractFile(join(appDir, 'resources/app.asar'), 'package.json').toString('utf8'),
    ) as Record<string, unknown>;
    expect(shippedPkg.main).toBe('./out/main/index.js');
    expect(shippedPkg.devDependencies).toBeUndefined();
  });

  it('no devDependency and no package outside the production closure is packed', () => {
    const production = productionPackages();
    const archive = join(appDir, 'resources/app.asar');
    const read = (p: string): PackageJson =>
      JSON.parse(
        unpacked.includes(p)
          ? readFileSync(join(appDir, 'resources/app.asar.unpacked', p), 'utf8')
          : asar.extractFile(archive, p).toString('utf8'),
      ) as PackageJson;
    const packed = packageJsonPaths([...inAsar, ...unpacked])
      .map(read)
      // A package.json deeper in a package (dist/cjs/package.json: {"type": ...}) names no package.
      .filter((p) => p.name && p.version)
      .map((p) => `${p.name}@${p.version}`);
    expect(packed.length).toBeGreaterThan(10);
    expect([...new Set(packed)].filter((p) => !production.has(p))).toEqual([]);
    const packedNames = new Set(packed.map((p) => p.slice(0, p.lastIndexOf('@'))));
    const productionNames = new Set([...production].map((p) => p.slice(0, p.lastIndexOf('@'))));
    for (const d of Object.keys(PKG.devDependencies).filter((n) => !productionNames.has(n)))
      expect(packedNames.has(d), d).toBe(false);
    for (const d of Object.keys(PKG.dependencies)) expect(packedNames.has(d), d).toBe(true);
  });

  it('keytar and better-sqlite3 are unpacked with their native binaries; no native code inside the asar', () => {
    const natives = unpacked.filter((p) => p.endsWith('.node'));
    expect(natives).toContain('node_modules/keytar/build/Release/keytar.node');
    expect(natives).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(inAsar.filter((p) => p.endsWith('.node'))).toEqual([]);
  });

  it('ships no source maps, TypeScript sources, tests, benches or stress runs', () => {
    for (const { what, test } of SHIPPED_JUNK) {
      expect(inAsar.filter(test), `${what} in app.asar`).toEqual([]);
      expect(unpacked.filter(test), `${what} unpacked`).toEqual([]);
    }
  });

  it('flips the fuses electron-builder.yml asks for', () => {
    expect(fusesOf(join(appDir, 'orderdesk'))).toEqual({
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      LoadBrowserProcessSpecificV8Snapshot: false,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('nothing phones home: no updater, no crash upload, no telemetry, no remote URL the app could call', () => {
    expect(existsSync(join(appDir, 'resources/app-update.yml'))).toBe(false);
    const updaters = ['electron-updater', 'update-electron-app', '@sentry', 'electron-log'];
    for (const u of updaters)
      expect(
        inAsar.some((p) => p.startsWith(`node_modules/${u}/`)),
        u,
      ).toBe(false);
    const archive = join(appDir, 'resources/app.asar');
    const code = inAsar
      .filter((p) => p.startsWith('out/') && /\.(js|cjs|html)$/.test(p))
      .map((p) => ({ p, text: asar.extractFile(archive, p).toString('utf8') }));
    expect(code.length).toBeGreaterThan(5);
    const forbidden =
      /autoUpdater|electron-updater|crashReporter|update\.electronjs\.org|sentry|telemetry|analytics/i;
    for (const { p, text } of code) expect(forbidden.exec(text)?.[0], p).toBeUndefined();
    // URLs that are text, not requests: Svelte's error-doc links, XML namespaces, the chart
    // library's attribution link (a link the window guards never open in-app), the profile field's
    // placeholder and its help text. Any other host in the bundle would be an endpoint to explain.
    const textOnly = new Set([
      'svelte.dev',
      'www.w3.org',
      'www.tradingview.com',
      'developer.mozilla.org',
      'www.apache.org',
      '127.0.0.1',
      'host',
    ]);
    const hosts = new Set(
      code.flatMap(({ text }) => [...text.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => m[1])),
    );
    expect([...hosts].filter((h) => h && !textOnly.has(h.toLowerCase()))).toEqual([]);
  });
});
