import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import staticFiles from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { PAGES, matchPage } from './web.pages.js';

/** Where `npm run build:web` (run by `npm install`) writes the web app. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** Paths that belong to programs: a browser asking for one of them still gets JSON or a file. */
const MACHINE_PATHS =
  /^\/(?:api|assets|images|docs|mcp)(?:\/|$)|^\/(?:openapi\.json|healthz|readyz|llms\.txt)$/;

const NOT_BUILT =
  '<!doctype html><html lang="en"><title>Bazaar</title><p>The web app has not been built: ' +
  'run <code>npm run build:web</code> (or <code>npm install</code>) and restart.</p></html>';

/**
 * Whether a request for `/` is a browser asking for a page rather than a client asking for data:
 * it names `text/html` in `Accept`, and does not prefer JSON to it: a higher `q` decides, and
 * between equal ones the type named first (`application/json, text/html;q=0.9` and
 * `application/json, text/html` are clients wanting JSON; a browser names `text/html` first).
 * A wildcard alone (curl's `*\/*`) asks for data.
 */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('text/html')) return false;
  const html = quality(accept, 'text/html');
  const json = quality(accept, 'application/json');
  return html.q > 0 && (html.q > json.q || (html.q === json.q && html.at < json.at));
}

/** The `q` an Accept header gives one media type by name, and its place (q 0 when not named). */
function quality(accept: string, type: string): { q: number; at: number } {
  for (const [at, range] of accept.split(',').entries()) {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim());
    if (name.toLowerCase() !== type) continue;
    const q = parameters.find((parameter) => /^q\s*=/i.test(parameter));
    const value = q === undefined ? 1 : Number(q.split('=')[1]);
    return { q: Number.isFinite(value) ? value : 0, at };
  }
  return { q: 0, at: Infinity };
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
export function sendAppShell(reply: FastifyReply, status = 200): FastifyReply {
  const html = readShell();
  return reply
    .code(html === null ? 503 : status)
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
      // Only the build's files: a dotfile left in the folder (an editor's, a tool's) is not served.
      dotfiles: 'ignore',
      // File names carry a content hash: a changed file gets a new name, so caching never goes stale.
      immutable: true,
      maxAge: '365d',
    });
  }

  const hide = { schema: { hide: true } };
  // `/` belongs to the home module, which gives browsers the shell through `sendAppShell`. A
  // reload or a shared link of any other page gets the app, which draws the page.
  for (const path of Object.values(PAGES)) {
    if (path !== '/') app.get(path, hide, (_request, reply) => sendAppShell(reply));
  }
};

/**
 * For a path no route serves: a browser asking for a page gets the app with status 404, which
 * shows its own "page not found" with the ways onward. Programs (anything that does not ask for
 * HTML) and machine paths get the JSON 404 as before.
 */
export function sendNotFoundPage(
  request: FastifyRequest,
  reply: FastifyReply,
  beforeSending?: () => void,
): FastifyReply | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const path = request.url.split('?')[0] ?? '';
  if (MACHINE_PATHS.test(path) || !wantsHtml(request)) return undefined;
  reply.header('vary', 'accept');
  beforeSending?.();
  return sendAppShell(reply, matchPage(path) === null ? 404 : 200);
}
