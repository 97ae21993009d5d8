/**
 * Browser tests with playwright-core driving the system Chromium (Debian package `chromium`). Without
 * one the tests are skipped with a message, except in CI (`CI=true`), where that is a failure.
 * Screenshots go to test-artifacts/ (git-ignored); with `CRM_DOC_IMAGES=1` the ones docs/web.md shows
 * are copied to docs/images/.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(root, 'test-artifacts');
const DOC_IMAGES = path.join(root, 'docs/images');

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/**
 * Launches Chromium, or skips the calling suite (locally) / fails it (CI) when there is none.
 * Call from a `before` hook with its mocha context.
 */
export async function launchOrSkip(ctx: Mocha.Context): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    const message = 'No Chromium found (install the Debian package chromium, or set CHROMIUM_PATH)';
    if (process.env.CI === 'true') throw new Error(`${message}: browser tests cannot be skipped in CI`);
    console.warn(`      browser tests skipped: ${message}`);
    ctx.skip();
  }
  return chromium.launch({ executablePath, args: ['--disable-dev-shm-usage'] });
}

/** Saves a screenshot of the viewport as test-artifacts/<name>.png (and docs/images/ when asked). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (process.env.CRM_DOC_IMAGES === '1') {
    mkdirSync(DOC_IMAGES, { recursive: true });
    copyFileSync(file, path.join(DOC_IMAGES, `${name}.png`));
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page (evaluated by the driver, so the page's CSP does not block it). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe.run();
    return result.violations;
  })) as Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `${what}: accessibility`).to.deep.equal([]);
}

/** Collects Content-Security-Policy violations and page errors the browser reports. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}
