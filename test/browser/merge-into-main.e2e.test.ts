import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { createProjectWorkspaces, gitAt } from '../../src/workspace/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

describe('the end of the line in headless Chromium', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: { turns: [] } })),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('shows "Merge into main" once the line is completed, and the merge commit after the person presses it', async () => {
    const sessionId = await newSession(served, 'Line end');
    const projectId = (await api(served, 'GET', `/api/sessions/${sessionId}`)).project_id as string;
    // A module merged into dev in the project's real repository, as the line leaves it.
    const workspaces = createProjectWorkspaces({ dataDirectory: served.dataDirectory });
    const worktree = await workspaces.ensureWorktree(projectId, 'api');
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(join(worktree.directory, 'src/api.ts'), 'export const api = 1;\n');
    await workspaces.commitModule(projectId, 'api', 'AT-1: api');
    await workspaces.mergeModule(projectId, 'api', async () => ({ passed: true, report: null }));
    const dev = await workspaces.integrationHead(projectId);

    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.getByTestId('production-panel').waitFor();
    expect(await page.getByTestId('line-end').count()).toBe(0);
    // api's default check ran nothing (no package.json yet): the line's end says so, not "passed".
    const check = { module: 'api', command: 'node --test', exit_code: 0, duration_ms: 5 };
    const appended = await served.forja.eventLog.append(sessionId, [
      {
        type: 'module.merged',
        actor: 'system',
        payload: { v: 1, module: 'api', commit: dev, checks: [{ ...check, skipped: true }] },
      },
      { type: 'line.completed', actor: 'system', payload: { v: 1, commit: dev, modules: ['api'] } },
    ]);
    expect(appended.success).toBe(true);

    await page.getByTestId('line-end').waitFor();
    expect(await page.getByTestId('line-end').textContent()).toContain(dev.slice(0, 12));
    expect(await page.getByTestId('line-end-skipped').textContent()).toMatch(
      /^Not checked: api — the default check ran nothing/,
    );
    // "Merge into main" waits for the person: it is a Needs-you item, whose button leads to it.
    const item = page.locator('[data-testid="needs-you-item"][data-kind="merge"]');
    expect(await item.textContent()).toContain(dev.slice(0, 12));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await item.getByTestId('needs-you-go').click();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'merge-into-main',
    );
    await page.keyboard.press('Enter');
    await page.getByTestId('merged-into-main').waitFor();
    // Focus goes to what the person now has; the item leaves Needs you; the stepper's last step is done.
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'line-merged-title',
    );
    await item.waitFor({ state: 'detached' });
    await page.locator('[data-testid="line-stepper"][data-merged="true"]').waitFor();
    expect(await page.locator('[data-testid="line-stepper"] li.done').count()).toBe(6);
    await page.getByTestId('line-clone').waitFor();
    expect(await page.getByTestId('line-clone').textContent()).toBe(
      `git clone ${new URL(page.url()).origin}/git/${projectId}.git`,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    const main = (
      await gitAt(workspaces.workspaceDirectory(projectId)).raw(['rev-parse', 'main'])
    ).trim();
    expect(await page.getByTestId('merged-into-main').textContent()).toBe(
      `Merged into main: commit ${main.slice(0, 12)}`,
    );
    expect(await page.getByTestId('merge-into-main').count()).toBe(0);

    // The page loaded again shows the merge from the log, without the button.
    // Loaded again, in dark mode: the success panel and the page stay readable (axe).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.getByTestId('merged-into-main').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.locator('[data-testid="needs-you-item"][data-kind="merge"]').count()).toBe(0);
    await page.getByTestId('line-clone').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.getByTestId('merge-into-main').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
