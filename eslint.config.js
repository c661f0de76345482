import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import layers from './eslint-rules/layers.js';

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // test/support/component holds Svelte fixtures for the component tests.
    files: ['src-renderer/**/*.svelte', 'src-renderer/**/*.svelte.ts', 'test/support/component/**/*.svelte'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  {
    // Browser mode's page bridge: a plain script the web host serves to the page as is.
    files: ['src-main/web/page/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // Architecture rule 2: who may import whom, by resolved path (eslint-rules/layers.js). Tests,
    // benchmarks and scripts are outside it.
    files: ['src-main/**/*.{ts,js}', 'src-renderer/**/*.{ts,js,svelte}'],
    plugins: { orderdesk: layers },
    rules: { 'orderdesk/layers': 'error' },
  },
);
