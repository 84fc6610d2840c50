import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { PRODUCTION_EVENTS } from './support/production-events.ts';
import { newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

describe('the production line panels in headless Chromium', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  const screenshots = mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

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

  it('shows the backlog, the module map as a graph, contracts by version and each developer', async () => {
    const sessionId = await newSession(served, 'Bakery production');
    const appended = await served.forja.eventLog.append(sessionId, PRODUCTION_EVENTS);
    expect(appended.success).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);

    await page.getByTestId('backlog-panel').waitFor();
    await page.locator('[data-testid="line-stepper"][data-stage="developers"]').waitFor();
    expect(
      await page.locator('[data-testid="line-stepper"] [aria-current="step"]').textContent(),
    ).toBe('Developers');
    const epic = page.locator('[data-testid="backlog-epic"][data-id="EP-030"]');
    const story = epic.locator('[data-testid="backlog-story"][data-id="HS-071"]');
    await story
      .locator('[data-testid="backlog-task"][data-id="AT-276"]', { hasText: 'module web' })
      .waitFor();
    expect(await story.getByTestId('backlog-task').count()).toBe(3);

    await page.getByTestId('tab-map').click();
    await page.locator('[data-testid="module-map-panel"][data-version="2"]').waitFor();
    expect(await page.getByTestId('module-node').count()).toBe(4);
    expect(await page.getByTestId('module-edge').count()).toBe(5);
    const top = async (name: string) =>
      (await page.locator(`[data-testid="module-node"][data-module="${name}"]`).boundingBox())!.y;
    // Layers by depth: what depends on nothing at the bottom, each module above what it uses.
    expect((await top('web')) < (await top('api'))).toBe(true);
    expect((await top('api')) < (await top('auth'))).toBe(true);
    expect((await top('auth')) < (await top('db'))).toBe(true);
    await page.locator('[data-testid="module-node"][data-module="api"]').click();
    const details = page.locator('[data-testid="module-details"][data-module="api"]');
    await details.waitFor();
    expect(await details.textContent()).toContain('POST /subscriptions {address, plan}');
    expect(await details.textContent()).toContain('web');
    const mapScreenshot = join(screenshots, 'module-map.png');
    await page.screenshot({ path: mapScreenshot, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByTestId('tab-contracts').click();
    await page.locator('[data-testid="contracts-panel"][data-version="2"]').waitFor();
    expect(await page.getByTestId('contract-module').count()).toBe(3);
    const firstVersionSeq = await page
      .locator('[data-testid="contracts-version-select"] option')
      .last()
      .getAttribute('value');
    await page.getByTestId('contracts-version-select').selectOption(firstVersionSeq!);
    await page.locator('[data-testid="contracts-panel"][data-version="1"]').waitFor();
    expect(await page.getByTestId('contract-module').count()).toBe(1);
    expect(await page.getByTestId('contracts-panel').textContent()).toContain('GET /subscriptions');

    await page.getByTestId('tab-devs').click();
    await page
      .locator('[data-testid="dev-card"][data-agent="dev:web"][data-status="blocked"]', {
        hasText: 'a function to check the session token',
      })
      .waitFor();
    await page
      .locator('[data-testid="dev-card"][data-agent="dev:api"]', {
        hasText: '1 of 2 tasks finished',
      })
      .waitFor();
    await page
      .locator('[data-testid="dev-card"][data-agent="dev:db"][data-status="notStarted"]')
      .waitFor();
    // Which commands wait for the person, as the server's health says (auto by default, ADR 0327).
    const mode = page.getByTestId('terminal-mode');
    await mode.waitFor();
    expect(await mode.getAttribute('data-mode')).toBe('auto');
    expect(await mode.textContent()).toContain('risky ones');
    const devsScreenshot = join(screenshots, 'developers.png');
    await page.screenshot({ path: devsScreenshot, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByTestId('tab-other').click();
    await page
      .locator('[data-testid="other-artifact"][data-type="project_image"]', {
        hasText: 'neighbourhood bakery',
      })
      .waitFor();
    expect(errors).toEqual([]);
    console.info(`screenshots of the production line: ${mapScreenshot} ${devsScreenshot}`);
    await page.close();
  });

  it('lets the person approve or deny a proposed action, and shows its status as the log moves', async () => {
    const sessionId = await newSession(served, 'Careful commands');
    const proposed = (actionId: string, command: string) => ({
      type: 'action.proposed',
      actor: 'tester',
      payload: {
        v: 1,
        action_id: actionId,
        tool_call_id: `call-${actionId}`,
        agent: 'tester',
        tool: 'terminal',
        args: { command },
      },
    });
    const [runTestsId, wipeId] = [randomUUID(), randomUUID()];
    expect(
      (
        await served.forja.eventLog.append(sessionId, [
          proposed(runTestsId, 'npm test'),
          proposed(wipeId, 'rm -rf build'),
        ])
      ).success,
    ).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const runTests = page.locator(`[data-testid="pending-action"][data-action-id="${runTestsId}"]`);
    const wipe = page.locator(`[data-testid="pending-action"][data-action-id="${wipeId}"]`);
    await wipe.filter({ hasText: 'rm -rf build' }).waitFor();
    // The tab's title leads with what waits for the person.
    await page.waitForFunction(() => document.title === '(2) Forja');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await runTests.getByTestId('approve-action').click();
    await page
      .locator(
        `[data-testid="pending-action"][data-action-id="${runTestsId}"][data-status="approved"]`,
      )
      .waitFor();
    await wipe.getByTestId('deny-action').click();
    await wipe.getByTestId('deny-reason-input').fill('Not the build folder');
    await wipe.getByTestId('confirm-deny').click();
    await wipe.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.title === 'Forja');
    const events = await served.forja.eventLog.read(sessionId);
    expect(
      events.filter((event) => event.type.startsWith('action.')).map((event) => event.type),
    ).toEqual(['action.proposed', 'action.proposed', 'action.approved', 'action.denied']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
