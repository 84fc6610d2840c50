import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

async function api(served: ServedForja, method: string, path: string, body?: unknown) {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('the session page when agents use different models', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let summaries = '';

  beforeAll(async () => {
    await ensureWebBuilt();
    const scripts = mkdtempSync(join(tmpdir(), 'forja-scripts-'));
    summaries = join(scripts, 'summaries.json');
    writeFileSync(
      summaries,
      JSON.stringify({ turns: [{ agent: 'context-manager', text: 'Resumo.' }] }),
    );
    const line = join(scripts, 'line.json');
    writeFileSync(line, JSON.stringify({ turns: [{ agent: 'criativo', text: 'Oi.' }] }));
    [served, chromium] = await Promise.all([
      startServedForja(undefined, {
        FORJA_MODEL: `scripted:${line}`,
        FORJA_MODEL_CONTEXT_MANAGER: `scripted:${summaries}`,
      }),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it("lists each agent's model in the usage panel", async () => {
    const project = await api(served, 'POST', '/api/projects', { name: 'Padaria' });
    const session = await api(served, 'POST', `/api/projects/${project['id']}/sessions`, {
      title: 'Ideia',
    });
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${session['id']}`);
    const list = page.getByTestId('agent-models');
    await list.waitFor();
    await list.locator('summary').click();
    expect(await list.locator('li[data-agent="context-manager"]').textContent()).toBe(
      `ContextManager: scripted · ${summaries}`,
    );
    expect(await list.locator('li[data-agent="dev"]').textContent()).toContain('Devs: scripted · ');
    expect(await list.locator('li[data-agent="context-manager"]').getAttribute('title')).toBe(
      'FORJA_MODEL_CONTEXT_MANAGER',
    );
    expect(errors).toEqual([]);
  });
});
