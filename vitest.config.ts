// The test projects (npm run test:<name>; npm test runs them all, one group after another): unit and
// integration in Node, component in jsdom with Svelte, e2e driving browser mode in Chromium, packaging
// over the built app. test/electron has its own config (npm run test:electron).
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { RENDERER_ALIASES } from './renderer-aliases.js';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The renderer's logic and components: Svelte compiled for the browser (svelteTesting adds the
        // `browser` condition, without which Svelte's server build refuses mount), in jsdom.
        extends: true,
        plugins: [svelte({ configFile: resolve('svelte.config.js') }), svelteTesting()],
        resolve: { alias: RENDERER_ALIASES },
        test: {
          name: 'component',
          include: ['test/component/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['test/support/component/setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Cores, paper gateways and proxies on loopback ports of their own, some in child processes.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Each file starts its own host (own data dir, port 0) and Chromium, one file at a time: two
        // hosts and two Chromiums on two cores starve the timing-bound steps (key tests, close all).
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
      {
        // Reads out/ (npm test builds it first); electron-builder packs the app directory.
        extends: true,
        test: {
          name: 'packaging',
          include: ['test/packaging/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
