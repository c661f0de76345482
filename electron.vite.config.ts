import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

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
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    build: {
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
    plugins: [svelte()],
  },
});
