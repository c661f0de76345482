// keytar for the core's KeytarLoader port. Packaged, the native module lives outside the asar archive
// (electron-builder asarUnpack), so it is required from app.asar.unpacked by path; in a dev run it
// resolves from node_modules as usual.
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type KeytarLoaderFn = () => Promise<unknown>;

export function keytarModulePath(o: { isPackaged: boolean; resourcesPath: string }): string {
  return o.isPackaged ? join(o.resourcesPath, 'app.asar.unpacked', 'node_modules', 'keytar') : 'keytar';
}

/** A loader that requires keytar when the core first needs it (a broken build degrades, not crashes). */
export function electronKeytarLoader(
  o: { isPackaged: boolean; resourcesPath: string },
  requireFn: (id: string) => unknown = createRequire(import.meta.url),
): KeytarLoaderFn {
  return async () => requireFn(keytarModulePath(o));
}
