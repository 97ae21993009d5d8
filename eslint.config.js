// Lint rules for the codebase (run by `npm run lint` and .ci/run). Formatting is prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginBoundaries from './eslint-rules/plugin-boundaries.js';
import shortNames from './eslint-rules/short-names.js';

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'dist.*/**', 'test-artifacts/**', 'var/**', 'bench/results/**', 'docs/**'],
  },
  // The project's own rules (eslint-rules/), enabled per folder below.
  { plugins: { crm: { rules: { 'plugin-boundaries': pluginBoundaries, 'short-names': shortNames } } } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
      // No line over 140 characters (prettier wraps code at 120 but leaves long strings and comments alone):
      // break strings by concatenation or template pieces, and reword comments.
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // A plugin imports another plugin only through its index.ts (docs/architecture.md, ADR 0007).
    files: ['plugins/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'cli/**/*.ts', 'host/**/*.ts', 'kernel/**/*.ts'],
    rules: { 'crm/plugin-boundaries': 'error' },
  },
  {
    // No one-character names (but i, j, k, _) in functions longer than 15 lines (eslint-rules/short-names.js).
    files: ['plugins/**/*.{ts,js}', 'kernel/**/*.ts', 'host/**/*.ts', 'cli/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    rules: { 'crm/short-names': 'error' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    // Tests read loosely typed API answers; `any` there is a reading aid, not a type hole in the service.
    rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Pages' browser scripts: plain scripts, no build step.
    files: ['plugins/*/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        ['window', 'document', 'fetch', 'URLSearchParams', 'performance', 'SwaggerUIBundle'].map((g) => [
          g,
          'readonly',
        ]),
      ),
    },
  },
  {
    files: ['bin/**/*.mjs', 'cli/**/*.mjs', 'bench/**/*.mjs', '*.js', 'eslint-rules/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'URL', 'fetch', 'setTimeout', 'clearTimeout', 'performance', 'Buffer'].map((g) => [
          g,
          'readonly',
        ]),
      ),
    },
  },
);
