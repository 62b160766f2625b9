/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { WEB_DIST } from '../../src/modules/web/web.routes.js';

/** Debian's Chromium; Playwright's own browser download is not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** CI sets E2E_REQUIRED=1: there a missing browser fails the suite instead of skipping it. */
export const browserRequired = process.env.E2E_REQUIRED === '1';
export const browserPresent = existsSync(CHROMIUM);

export const ARTIFACTS = resolve('test-artifacts/e2e');
export const WIDTHS = { desktop: 1280, phone: 375 } as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Builds the web app when web/dist is missing or older than its sources, so tests never see a stale build. */
export function ensureWebBuilt(): void {
  const shell = join(WEB_DIST, 'index.html');
  const sources = Math.max(
    newestChange('web/src'),
    newestChange('web/index.html'),
    newestChange('vite.config.ts'),
  );
  if (existsSync(shell) && statSync(shell).mtimeMs >= sources) return;
  // In its own process: Vitest's NODE_ENV=test would otherwise give a development build.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Checks the page as it is now at both widths: axe-core's WCAG 2 A/AA rules (serious and critical
 * violations are returned) and a full-page screenshot per width in test-artifacts/e2e.
 */
export async function auditPage(page: Page, name: string): Promise<Violation[]> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const found: Violation[] = [];
  const original = page.viewportSize();
  for (const [label, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => document.fonts.ready);
    // Evaluated, not added as a <script>: the service's Content-Security-Policy refuses inline
    // scripts, and the app is audited under the policy it really runs with.
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{
              violations: {
                id: string;
                impact: string | null;
                help: string;
                nodes: { target: string[] }[];
              }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: {
          type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    });
    found.push(
      ...violations
        .filter((violation) => ['serious', 'critical'].includes(violation.impact))
        .map((violation) => ({ ...violation, id: `${label}: ${violation.id}` })),
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    if (overflow > 0) {
      found.push({
        id: `${label}: horizontal-scroll`,
        impact: 'serious',
        help: `${overflow}px wider than the screen`,
        targets: [],
      });
    }
    // Long lists are cut at 4000 px: enough to judge the page, small enough to look at.
    const height = Math.min(4000, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.screenshot({
      path: join(ARTIFACTS, `${name}-${label}.png`),
      fullPage: true,
      clip: { x: 0, y: 0, width, height },
    });
  }
  if (original !== null) await page.setViewportSize(original);
  return found;
}
