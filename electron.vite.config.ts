import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { RENDERER_ALIASES } from './renderer-aliases.js';

export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve('src-main/index.ts') },
      // Native modules are loaded from node_modules at run time, never bundled.
      rollupOptions: { external: ['better-sqlite3', 'keytar'] },
    },
  },
  preload: {
    build: {
      lib: { entry: resolve('src-main/preload.ts') },
      // A sandboxed preload cannot be an ES module: emit one CommonJS file.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    resolve: { alias: RENDERER_ALIASES },
    build: {
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
    // The renderer root is src-renderer/; point the plugin at the project's svelte.config.js (the one
    // svelte-check reads) so the build preprocesses exactly as the type check does.
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
  },
});
