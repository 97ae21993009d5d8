// Lint rules for the codebase (run by `npm run lint` and .ci/run). Formatting is prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginBoundaries from './eslint-rules/plugin-boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'var/**', 'bench/results/**', 'docs/**'] },
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
    },
  },
  {
    // A plugin imports another plugin only through its index.ts (docs/architecture.md, ADR 0007).
    files: ['plugins/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'cli/**/*.ts', 'host/**/*.ts', 'kernel/**/*.ts'],
    plugins: { crm: { rules: { 'plugin-boundaries': pluginBoundaries } } },
    rules: { 'crm/plugin-boundaries': 'error' },
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
