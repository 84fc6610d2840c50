import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';

/** Where `npm run build:web` (Vite) writes the browser UI. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Vite names files under `assets/` by content hash: a changed file gets a new name, so they never go stale. */
const HASHED_ASSETS_PREFIX = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html (and unhashed files) are revalidated, so a new build is picked up on the next load. */
const REVALIDATE = 'no-cache';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Forja</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Forja is running, but its web UI is not built</h1>
<p>Build it with <code>npm run build:web</code> (<code>npm ci</code> does it too), then reload this page.</p>
<p>The API answers meanwhile under <a href="/api/openapi.json"><code>/api</code></a>.</p>
</body></html>`;

/**
 * The browser UI at `/`: files of the built UI with their content types, hashed assets cached for good, and
 * any other GET path outside `/api` answered with index.html so the app's own routes work on reload (SPA
 * fallback). Paths under `/api` are left to the API (its JSON 404). Without a build, a page says how to make
 * one. The directory is read on each request, so building while the server runs needs no restart.
 */
export function staticWebRoutes(distDirectory: string = DEFAULT_WEB_DIST) {
  let handlers: { files: MiddlewareHandler; index: MiddlewareHandler } | null = null;
  const serve = () => (handlers ??= { files: serveStatic({ root: distDirectory }), index: serveStatic({ root: distDirectory, path: 'index.html' }) });

  return new Hono().get('*', async (context, next) => {
    const path = context.req.path;
    if (path === '/api' || path.startsWith('/api/')) return next();
    if (!isFile(join(distDirectory, 'index.html'))) return notBuilt(context);

    const file = await tryServe(serve().files, context);
    if (file) return withCaching(file, path.startsWith(HASHED_ASSETS_PREFIX) ? IMMUTABLE : REVALIDATE);
    if (path.startsWith(HASHED_ASSETS_PREFIX) || /\.[a-z0-9]+$/i.test(path)) return context.text('Not found', 404, { 'Cache-Control': REVALIDATE });
    const index = await tryServe(serve().index, context);
    return index ? withCaching(index, REVALIDATE) : notBuilt(context);
  });
}

/** Runs a serveStatic handler; its Response when it found the file, null when it passed on. */
async function tryServe(handler: MiddlewareHandler, context: Context): Promise<Response | null> {
  let passed = false;
  const response = await handler(context, async () => {
    passed = true;
  });
  return passed || !(response instanceof Response) ? null : response;
}

function withCaching(response: Response, cacheControl: string): Response {
  response.headers.set('Cache-Control', cacheControl);
  return response;
}

function notBuilt(context: Context): Response {
  return context.html(NOT_BUILT_PAGE, 503, { 'Cache-Control': 'no-store' });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
