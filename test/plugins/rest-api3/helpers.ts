import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootTestKernel, type TestKernel } from '../../../host/testing';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
export const GOLDEN = path.join(FIXTURES, 'golden');

export const BASE_PLUGINS = [
  'entity-core',
  'api3',
  'format-json',
  'format-xml',
  'rest-api3',
  'system',
  'test-auth',
  'test-things',
];

/** Boots the binding with the test auth and TestThing fixtures. */
export function bootRest(opts: { plugins?: string[]; config?: Record<string, unknown> } = {}): Promise<TestKernel> {
  return bootTestKernel({
    plugins: opts.plugins ?? BASE_PLUGINS,
    pluginDirs: [path.join(FIXTURES, 'plugins', 'rest-api3')],
    config: opts.config,
    logLevel: 'info',
  });
}

/** Headers of a caller holding `access CRM` over a CSRF-resistant flow. */
export const USER = { 'x-test-perms': 'access CRM', 'x-test-flow': 'param' };

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';

/** Compares with `test/fixtures/golden/<name>`; `UPDATE_GOLDEN=1` (re)writes the file instead. */
export function golden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`Golden file ${name} is missing; run with UPDATE_GOLDEN=1 and review it`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual, `golden ${name}`).to.equal(readFileSync(file, 'utf8'));
}
