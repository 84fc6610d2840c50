import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** A port nothing listens on yet (taken, then freed): the local model server starts there later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the web UI when the model endpoint does not answer', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let modelServer: Server | null = null;
  let port = 0;

  beforeAll(async () => {
    await ensureWebBuilt();
    port = await freePort();
    [served, chromium] = await Promise.all([
      startServedForja(undefined, {
        FORJA_MODEL: 'openai:llama3.1',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      }),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
    modelServer?.close();
  }, 60_000);

  it('shows a banner on the pages saying so, and hides it once the endpoint answers and "Check again" is pressed', async () => {
    const { page, errors } = await chromium.newPage();
    await page.clock.install();
    await page.goto(served.url);
    const banner = page.getByTestId('model-unreachable');
    await banner.waitFor();
    // The page's clock stands still from here: its 30 s look at /api/health never comes, so only what
    // "Check again" answers can take the banner away.
    await page.clock.pauseAt(Date.now() + 1_000);
    expect(await banner.textContent()).toContain('The model (openai · llama3.1) does not answer.');
    expect(await banner.textContent()).toContain(
      `http://127.0.0.1:${port}/v1/models does not answer (ECONNREFUSED)`,
    );

    modelServer = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    );
    await new Promise<void>((resolve) => modelServer!.listen(port, '127.0.0.1', resolve));
    // The server looks at most once per 5 s on demand: press again until a look finds the endpoint up.
    while ((await banner.count()) > 0) {
      // The banner may go between the count and the click: then there is nothing left to press.
      await page
        .getByTestId('model-check-again')
        .click({ timeout: 1_000 })
        .catch(() => undefined);
      await page.waitForTimeout(500);
    }
    expect(await banner.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
