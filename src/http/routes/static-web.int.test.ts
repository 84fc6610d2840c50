import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { startTestForja } from '../../testing/forja-harness.ts';
import { preferredEncoding, staticWebRoutes } from './static-web.ts';

const root = mkdtempSync(join(tmpdir(), 'forja-static-web-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-Ab12Cd34.js"></script></body></html>';

function builtDist(): string {
  const dist = mkdtempSync(join(root, 'dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), 'console.log("forja");');
  writeFileSync(join(dist, 'assets', 'index-Ef56Gh78.css'), 'body{margin:0}');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

/** Mounted as app.ts mounts it: after the API routes, before the JSON 404. */
function appServing(dist: string) {
  return new Hono()
    .get('/api/ping', (context) => context.json({ pong: true }))
    .route('/', staticWebRoutes(dist))
    .notFound((context) =>
      context.json(
        {
          error: {
            code: 'not_found',
            message: `No route for ${context.req.method} ${context.req.path}.`,
          },
        },
        404,
      ),
    );
}

describe('static web files', () => {
  const app = appServing(builtDist());

  it('serves index.html at / as HTML that is always revalidated', async () => {
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX);
  });

  it('serves hashed assets with their content type, cached as immutable', async () => {
    const script = await app.request('/assets/index-Ab12Cd34.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await script.text()).toBe('console.log("forja");');
    const style = await app.request('/assets/index-Ef56Gh78.css');
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    const icon = await app.request('/favicon.svg');
    expect([
      icon.status,
      icon.headers.get('content-type'),
      icon.headers.get('cache-control'),
    ]).toEqual([200, expect.stringMatching(/^image\/svg\+xml/), 'no-cache']);
  });

  it('answers the app routes with index.html (SPA fallback), so a reload of a deep link works', async () => {
    for (const path of [
      '/projects/0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f',
      '/sessions/0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f',
      '/anything/else',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('answers 404 for a missing asset or file instead of HTML', async () => {
    for (const path of ['/assets/index-gone.js', '/missing.png']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).not.toMatch(/html/);
    }
  });

  it('leaves /api to the API: its routes and its JSON 404', async () => {
    expect(await (await app.request('/api/ping')).json()).toEqual({ pong: true });
    const missing = await app.request('/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await app.request('/api')).status).toBe(404);
  });

  it('serves GET and HEAD only', async () => {
    const head = await app.request('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await app.request('/sessions/x', { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('never serves a file outside the build directory', async () => {
    writeFileSync(join(root, 'secret.txt'), 'secret');
    for (const path of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
    ]) {
      const response = await app.request(path);
      expect(await response.text(), path).not.toContain('secret');
    }
  });
});

describe('static web files, compressed', () => {
  const dist = builtDist();
  const script = `${'export const line = "the same words compress well";\n'.repeat(200)}`;
  writeFileSync(join(dist, 'assets', 'app-Zz99Yy88.js'), script);
  writeFileSync(join(dist, 'logo.png'), Buffer.alloc(2048, 7));
  const app = appServing(dist);
  const get = async (path: string, acceptEncoding?: string) =>
    app.request(
      path,
      acceptEncoding === undefined ? {} : { headers: { 'Accept-Encoding': acceptEncoding } },
    );

  it('sends brotli when the browser accepts it, gzip otherwise, with Vary: Accept-Encoding', async () => {
    const brotli = await get('/assets/app-Zz99Yy88.js', 'gzip, deflate, br, zstd');
    expect([
      brotli.status,
      brotli.headers.get('content-encoding'),
      brotli.headers.get('vary'),
    ]).toEqual([200, 'br', 'Accept-Encoding']);
    expect(brotli.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await brotli.arrayBuffer());
    expect(Number(brotli.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(body).toString()).toBe(script);

    const gzipped = await get('/assets/app-Zz99Yy88.js', 'gzip;q=1.0, br;q=0');
    expect([gzipped.headers.get('content-encoding'), gzipped.headers.get('vary')]).toEqual([
      'gzip',
      'Accept-Encoding',
    ]);
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(script);
  });

  it('sends the file as it is to a client that accepts no compression, still with Vary', async () => {
    const plain = await get('/assets/app-Zz99Yy88.js');
    expect([plain.headers.get('content-encoding'), plain.headers.get('vary')]).toEqual([
      null,
      'Accept-Encoding',
    ]);
    expect(await plain.text()).toBe(script);
  });

  it('compresses index.html for the app routes too, and leaves images alone', async () => {
    const page = await get('/sessions/0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f', 'br');
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toBe(INDEX);
    const image = await get('/logo.png', 'br, gzip');
    expect([image.headers.get('content-encoding'), image.headers.get('vary')]).toEqual([
      null,
      null,
    ]);
    expect((await image.arrayBuffer()).byteLength).toBe(2048);
  });

  it('compresses a rebuilt file anew (the cache follows the file)', async () => {
    const path = join(dist, 'notes.txt');
    writeFileSync(path, 'first build');
    expect(
      brotliDecompressSync(
        Buffer.from(await (await get('/notes.txt', 'br')).arrayBuffer()),
      ).toString(),
    ).toBe('first build');
    writeFileSync(path, 'second build, longer');
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect(
      brotliDecompressSync(
        Buffer.from(await (await get('/notes.txt', 'br')).arrayBuffer()),
      ).toString(),
    ).toBe('second build, longer');
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('GZIP')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });
});

describe('static web files before a build', () => {
  const app = appServing(join(root, 'never-built'));

  it('answers the web paths with a page saying how to build the UI, and /api as usual', async () => {
    for (const path of ['/', '/sessions/0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f']) {
      const response = await app.request(path);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toContain('npm run build:web');
    }
    expect((await app.request('/api/ping')).status).toBe(200);
  });

  it('serves the UI as soon as it is built, without a restart', async () => {
    const later = join(root, 'built-later');
    const lateApp = appServing(later);
    expect((await lateApp.request('/')).status).toBe(503);
    mkdirSync(later);
    writeFileSync(join(later, 'index.html'), INDEX);
    expect(await (await lateApp.request('/')).text()).toBe(INDEX);
  });
});

describe('the Forja app', () => {
  it('mounts the web UI after the API, keeping unknown /api paths a JSON 404', async () => {
    const forja = await startTestForja(testDatabaseEngines()[0]!);
    try {
      const missing = await forja.app.request('/api/does-not-exist');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
      const page = await forja.app.request('/');
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect((await forja.app.request('/api/health')).status).toBe(200);
    } finally {
      await forja.close();
    }
  });
});
