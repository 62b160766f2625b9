/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { WEB_DIST } from '../../src/modules/web/web.routes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { startServer, type ServerProcess } from '../helpers/process.js';

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
/**
 * Words for programs that must never reach a person: error codes and field names (snake_case),
 * and JSON. Checked on pages whose text is all the app's own (not catalog data).
 */
const PROGRAM_WORDS = /\b[a-z]+_[a-z_]+\b|\{"|"success"|\bnull\b|\bundefined\b/;

export async function auditPage(
  page: Page,
  name: string,
  options: { plainWords?: boolean } = {},
): Promise<Violation[]> {
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
  if (options.plainWords === true) {
    const text = await page.evaluate(() => document.body.innerText);
    const leaked = PROGRAM_WORDS.exec(text);
    if (leaked !== null) {
      found.push({
        id: 'program-words',
        impact: 'serious',
        help: `"${leaked[0]}" is shown to a person`,
        targets: [],
      });
    }
  }
  if (original !== null) await page.setViewportSize(original);
  return found;
}

/** A real server on a fresh SQLite database, and Chromium, for one test file. */
export function browserApp(): {
  base: () => string;
  page: () => Page;
  audit: (name: string, options?: { plainWords?: boolean }) => Promise<void>;
  problems: Record<string, unknown[]>;
} {
  let server: ServerProcess | undefined;
  let database: TestDatabase | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const problems: Record<string, unknown[]> = {};
  beforeAll(async () => {
    if (!browserPresent) throw new Error(`E2E_REQUIRED=1 but there is no Chromium at ${CHROMIUM}.`);
    ensureWebBuilt();
    database = await createTestDatabase('sqlite');
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info' });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.baseUrl,
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 120_000);
  // Only what was started is stopped: a failed start reports its own error, not a second one.
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the browser journey did not start');
    return value;
  };
  return {
    base: () => started(server).baseUrl,
    page: () => started(page),
    audit: async (name, options) => {
      const violations = await auditPage(started(page), name, options);
      if (violations.length > 0) problems[name] = violations;
    },
    problems,
  };
}

/** Whether the browser journeys run: skipped only where Chromium is missing and not required. */
export const skipBrowser = !browserPresent && !browserRequired;
if (skipBrowser) {
  process.stderr.write(
    `Skipping the browser journeys: no Chromium at ${CHROMIUM} (apt-get install chromium).\n`,
  );
}
