import { readFile, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
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
 * one. The directory is read on each request, so building while the server runs needs no restart. Text files
 * go compressed (brotli or gzip, as the browser's Accept-Encoding allows), compressed once and kept in memory.
 */
export function staticWebRoutes(distDirectory: string = DEFAULT_WEB_DIST) {
  let handlers: { files: MiddlewareHandler; index: MiddlewareHandler } | null = null;
  const serve = () =>
    (handlers ??= {
      files: serveStatic({ root: distDirectory }),
      index: serveStatic({ root: distDirectory, path: 'index.html' }),
    });
  const compressed = createCompressedCache();

  return new Hono().get('*', async (context, next) => {
    const path = context.req.path;
    if (path === '/api' || path.startsWith('/api/')) return next();
    if (!isFile(join(distDirectory, 'index.html'))) return notBuilt(context);

    const file = await tryServe(serve().files, context);
    if (file)
      return withCaching(
        await compressed.negotiate(context, file, filePathOf(distDirectory, path)),
        path.startsWith(HASHED_ASSETS_PREFIX) ? IMMUTABLE : REVALIDATE,
      );
    if (path.startsWith(HASHED_ASSETS_PREFIX) || /\.[a-z0-9]+$/i.test(path))
      return context.text('Not found', 404, { 'Cache-Control': REVALIDATE });
    const index = await tryServe(serve().index, context);
    return index
      ? withCaching(
          await compressed.negotiate(context, index, join(distDirectory, 'index.html')),
          REVALIDATE,
        )
      : notBuilt(context);
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

const COMPRESSIBLE =
  /^(text\/|application\/(javascript|json|manifest\+json|xml|wasm)|image\/svg\+xml)/i;
type Encoding = 'br' | 'gzip';
const compressWith: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/**
 * The compressed copies of the UI's files, made on first request and kept while the file is unchanged (same
 * size and mtime: a rebuild is picked up). The build is a few hundred kilobytes, so memory is not a concern.
 */
function createCompressedCache() {
  const cache = new Map<string, { version: string; body: Promise<Buffer> }>();

  async function compressedBody(filePath: string, encoding: Encoding): Promise<Buffer> {
    const stats = await stat(filePath);
    const version = `${stats.size}:${stats.mtimeMs}`;
    const key = `${encoding}:${filePath}`;
    const cached = cache.get(key);
    if (cached?.version === version) return cached.body;
    const body = readFile(filePath).then(compressWith[encoding]);
    cache.set(key, { version, body });
    body.catch(() => cache.delete(key));
    return body;
  }

  return {
    /** The file's response, compressed when the type is text-like and the request accepts br or gzip. */
    async negotiate(
      context: Context,
      response: Response,
      filePath: string | null,
    ): Promise<Response> {
      if (!COMPRESSIBLE.test(response.headers.get('content-type') ?? '')) return response;
      response.headers.append('Vary', 'Accept-Encoding');
      const encoding = preferredEncoding(context.req.header('accept-encoding'));
      if (
        encoding === null ||
        filePath === null ||
        context.req.method !== 'GET' ||
        context.req.header('range') !== undefined ||
        response.status !== 200
      )
        return response;
      let body: Buffer;
      try {
        body = await compressedBody(filePath, encoding);
      } catch {
        return response;
      }
      await response.body?.cancel();
      const headers = new Headers(response.headers);
      headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(body.length));
      return new Response(new Uint8Array(body), { status: 200, headers });
    },
  };
}

/** br before gzip, each unless refused with `q=0`; null when the request accepts neither. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Set<string>();
  for (const item of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    if (quality === undefined || Number(quality.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** The file serveStatic served for this path (a directory means its index.html), or null when unsure. */
function filePathOf(distDirectory: string, path: string): string | null {
  try {
    const filePath = join(distDirectory, decodeURI(path));
    return statSync(filePath).isDirectory() ? join(filePath, 'index.html') : filePath;
  } catch {
    return null;
  }
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
