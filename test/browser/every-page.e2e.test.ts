import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { PRODUCTION_EVENTS } from './support/production-events.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** Screenshots go to a scratch directory; `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const TABS = ['backlog', 'map', 'contracts', 'devs', 'other'] as const;

const CONVERSATION = [
  {
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: 'A bakery that delivers bread before dawn, by subscription.' },
  },
  { type: 'agent.activated', actor: 'system', payload: { v: 1, agent: 'criativo' } },
  {
    type: 'agent.response',
    actor: 'criativo',
    payload: {
      v: 1,
      agent: 'criativo',
      turn_id: 'turn-1',
      text: 'Who bakes, and how late may an order change? A first sketch of the subscription:\n\n```ts\nexport interface Subscription {\n  address: string;\n  plan: "daily" | "weekends"; // when the bread comes\n  startsOn: Date;\n}\n```',
      tool_calls: [],
    },
  },
];

/** What the page is wider than the screen by, in pixels (0: nothing scrolls the page sideways). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** ADRs 0405, 0406: every page in both themes at a desktop and a phone width, tabs by keyboard, live news. */
describe('every page in headless Chromium, light and dark, desktop and phone', {
  timeout: 300_000,
}, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let sessionId: string;
  let projectId: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: { turns: [] } })),
      launchHeadlessChromium(),
    ]);
    sessionId = await newSession(served, 'Padaria da Madrugada');
    projectId = (await api(served, 'GET', `/api/sessions/${sessionId}`)).project_id as string;
    const appended = await served.forja.eventLog.append(sessionId, [
      ...CONVERSATION,
      ...PRODUCTION_EVENTS,
    ]);
    expect(appended.success).toBe(true);
    // Usage rows with long numbers, which pushed the table off a phone's screen.
    for (const agent of ['criativo', 'arquiteto', 'dev:api'])
      await served.forja.database.query(
        `insert into token_usage (id, project_id, session_id, agent, provider, model, outcome, input_tokens, output_tokens, estimated, settled_at)
         values ($1, $2, $3, $4, 'scripted', 'a-model-with-a-long-name-2026-12', 'completed', 1234567, 765432, false, now())`,
        [randomUUID(), projectId, sessionId, agent],
      );
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  for (const viewport of VIEWPORTS)
    for (const scheme of SCHEMES)
      it(`fits the screen and passes axe on every page, ${scheme}, ${viewport.width}×${viewport.height}`, async () => {
        const { page, errors } = await chromium.newPage();
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.emulateMedia({ colorScheme: scheme });
        const suffix = `${viewport.name}-${scheme}`;
        const check = async (name: string) => {
          expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
          expect({ name, overflow: await sidewaysOverflow(page) }).toEqual({ name, overflow: 0 });
          expect({ name, violations: await seriousAxeViolations(page) }).toEqual({
            name,
            violations: [],
          });
          await page.screenshot({ path: join(SCREENSHOTS, `page-${name}-${suffix}.png`) });
        };

        await page.goto(`${served.url}/`);
        await page.getByTestId('project-link').first().waitFor();
        await check('projects');

        await page.goto(`${served.url}/projects/${projectId}`);
        await page.getByTestId('session-link').first().waitFor();
        await check('project');

        await page.goto(`${served.url}/sessions/${sessionId}`);
        await page.getByTestId('usage-row').first().waitFor();
        await page.locator('[data-testid="chat"] .markdown pre').waitFor();
        await check('session');
        // On a phone the usage table is below the chat: scrolled to, pictured on its own.
        if (viewport.name === 'phone') {
          await page.getByTestId('usage-panel').scrollIntoViewIfNeeded();
          await check('session-usage');
        }
        for (const tab of TABS) {
          await page.getByTestId(`tab-${tab}`).click();
          await page.getByTestId('production-tabpanel').scrollIntoViewIfNeeded();
          await check(`session-${tab}`);
        }

        await page.goto(`${served.url}/no-such-page`);
        await page.getByTestId('not-found-page').waitFor();
        await check('not-found');
        expect(errors).toEqual([]);
      });

  it('moves between the production tabs with the arrow keys, Home and End, one tab in the Tab order', async () => {
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const selected = () =>
      page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-testid');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await page.getByTestId('tab-backlog').waitFor();
    // Roving tabindex: only the selected tab is reached with Tab.
    expect(
      await page
        .locator('[role="tab"]')
        .evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex)),
    ).toEqual([0, -1, -1, -1, -1]);
    await page.getByTestId('tab-backlog').focus();
    await page.keyboard.press('ArrowRight');
    expect(await selected()).toBe('tab-map');
    expect(await focused()).toBe('tab-map');
    await page.getByTestId('module-map-panel').waitFor();
    await page.keyboard.press('End');
    expect(await selected()).toBe('tab-other');
    await page.keyboard.press('ArrowRight');
    expect(await selected()).toBe('tab-backlog');
    expect(await focused()).toBe('tab-backlog');
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toBe('tab-other');
    await page.keyboard.press('Home');
    expect(await selected()).toBe('tab-backlog');
    expect(
      await page
        .locator('[role="tab"]')
        .evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex)),
    ).toEqual([0, -1, -1, -1, -1]);
    // The panel is labelled by the selected tab.
    expect(await page.getByTestId('production-tabpanel').getAttribute('aria-labelledby')).toBe(
      'production-tab-backlog',
    );
    expect(errors).toEqual([]);
  });

  it('says in a polite live region what arrives, not what was there on load', async () => {
    const quiet = await newSession(served, 'Quiet bakery');
    await served.forja.eventLog.append(quiet, CONVERSATION.slice(0, 2));
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${quiet}`);
    const region = page.getByTestId('live-announcer');
    await region.waitFor({ state: 'attached' });
    expect(await region.getAttribute('role')).toBe('status');
    expect(await region.textContent()).toBe('');

    await served.forja.eventLog.append(quiet, [
      {
        type: 'turn.started',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 't9', kind: 'message' },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 't9', text: 'Hello, baker.', tool_calls: [] },
      },
    ]);
    await page
      .locator('[data-testid="live-announcer"]', { hasText: 'Criativo answered.' })
      .waitFor();

    await served.forja.eventLog.append(quiet, [
      {
        type: 'turn.started',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 't10', kind: 'message' },
      },
      {
        type: 'turn.failed',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', turn_id: 't10', reason: 'provider', message: 'down' },
      },
    ]);
    await page
      .locator('[data-testid="live-announcer"]', { hasText: '1 thing needs you.' })
      .waitFor();
    // The streamed answer is not itself a live region (it would read every token).
    expect(await page.locator('[aria-live]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
