import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { RENDERER_ALIASES } from './renderer-aliases.js';

const COMPONENT_TESTS = 'test/component/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, COMPONENT_TESTS],
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
          include: [COMPONENT_TESTS],
          environment: 'jsdom',
          setupFiles: ['test/component/setup.ts'],
        },
      },
    ],
  },
});
