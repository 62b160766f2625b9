import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import staticFiles from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build:web` (run by `npm install`) writes the web app. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/**
 * The web app's own sections. Every path under them is a page of the app, so a reload or a
 * shared link gets the app shell; everything else (the API, /docs, /openapi.json, health checks,
 * images) keeps its meaning, and unknown paths stay JSON 404s.
 */
export const APP_PATHS = ['/catalog/*', '/requests/*', '/play', '/play/*', '/leaderboard'];

const NOT_BUILT =
  '<!doctype html><html lang="en"><title>Bazaar</title><p>The web app has not been built: ' +
  'run <code>npm run build:web</code> (or <code>npm install</code>) and restart.</p></html>';

/** Whether a request for `/` is a browser asking for a page rather than a client asking for data. */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

let shell: string | null | undefined;
function readShell(): string | null {
  if (shell === undefined) {
    try {
      shell = readFileSync(`${WEB_DIST}index.html`, 'utf8');
    } catch {
      shell = null;
    }
  }
  return shell;
}

/**
 * Answers with the app's HTML. The shell names the hashed asset files of the current build, so
 * it is revalidated on every load (`no-cache`) while the assets are cached for a year.
 */
export function sendAppShell(reply: FastifyReply): FastifyReply {
  const html = readShell();
  return reply
    .code(html === null ? 503 : 200)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(html ?? NOT_BUILT);
}

export const webRoutes: FastifyPluginAsync = async (app: FastifyInstance) => {
  if (readShell() !== null) {
    await app.register(staticFiles, {
      root: `${WEB_DIST}assets`,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      // File names carry a content hash: a changed file gets a new name, so caching never goes stale.
      immutable: true,
      maxAge: '365d',
    });
  }

  const hide = { schema: { hide: true } };
  // `/` belongs to the home module, which gives browsers the shell through `sendAppShell`.
  for (const path of APP_PATHS) app.get(path, hide, (_request, reply) => sendAppShell(reply));
};
