// Something a test file (or describe block) starts once before its tests and stops after them.
import { afterAll, beforeAll } from 'vitest';

/**
 * Starts `start()` in beforeAll and stops it in afterAll (if it started). The returned object is
 * filled in once started, so read it only inside tests and hooks.
 */
export function useStarted<T extends { stop(): Promise<void> }>(start: () => Promise<T>): T {
  const handle = {} as T;
  let started = false;
  beforeAll(async () => {
    Object.assign(handle, await start());
    started = true;
  });
  afterAll(async () => {
    if (started) await handle.stop();
  });
  return handle;
}
