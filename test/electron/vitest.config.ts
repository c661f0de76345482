// The Electron suite (npm run test:electron): separate from the unit run, which never includes *.spec.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/electron/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One Electron app at a time: they are heavy, and each holds its data dir's lock.
    fileParallelism: false,
  },
});
