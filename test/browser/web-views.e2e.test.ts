import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { createProjectWorkspaces } from '../../src/workspace/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** Screenshots go to a scratch directory; `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

const C4 = {
  version: 1,
  system: { name: 'Padaria da Madrugada', description: 'Bread before dawn, by subscription' },
  actors: [
    { id: 'subscriber', kind: 'person', name: 'Subscriber', description: 'Orders bread' },
    { id: 'baker', kind: 'person', name: 'Baker', description: 'Bakes what was ordered' },
    { id: 'payments', kind: 'external_system', name: 'Payment gateway' },
    { id: 'maps', kind: 'external_system', name: 'Maps service' },
  ],
  relations: [
    { from: 'subscriber', to: 'system', description: 'subscribes and picks the bread' },
    { from: 'system', to: 'subscriber', description: 'tells when the bread leaves' },
    { from: 'baker', to: 'orders', description: "reads the day's orders" },
    { from: 'system', to: 'payments', description: 'charges the subscription monthly' },
    { from: 'delivery', to: 'maps', description: 'plans the route before dawn' },
  ],
};

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** The page never scrolls sideways: whatever is wide scrolls inside its own region. */
async function documentFits(page: Page): Promise<void> {
  const { documentWidth, viewport } = await page.evaluate(() => ({
    documentWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(documentWidth).toBeLessThanOrEqual(viewport);
}

/** ADR 0225: the C4 context drawn, commits with their diff, interrupted calls in the usage panel. */
describe('the C4 diagram, commit diffs and interrupted calls in headless Chromium', {
  timeout: 180_000,
}, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let sessionId: string;
  let projectId: string;
  let commit: string;
  let bigCommit: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: { turns: [] } })),
      launchHeadlessChromium(),
    ]);
    sessionId = await newSession(served, 'Padaria');
    projectId = (await api(served, 'GET', `/api/sessions/${sessionId}`)).project_id as string;

    // Two commits of a module in the project's real repository, as the dev's finish_task leaves them.
    const workspaces = createProjectWorkspaces({ dataDirectory: served.dataDirectory });
    const worktree = await workspaces.ensureWorktree(projectId, 'orders');
    await mkdir(join(worktree.directory, 'src'), { recursive: true });
    await writeFile(
      join(worktree.directory, 'src/orders.ts'),
      "export const orders: string[] = [];\nexport const cutoff = '05:00';\n",
    );
    const first = await workspaces.commitModule(
      projectId,
      'orders',
      'AT-1: orders\n\nAgent: dev:orders',
    );
    if (!first.ok) throw new Error(first.reason);
    commit = first.commit;
    await writeFile(
      join(worktree.directory, 'src/orders.ts'),
      Array.from({ length: 30_000 }, (_, at) => `export const line${at} = ${at};\n`).join(''),
    );
    const second = await workspaces.commitModule(projectId, 'orders', 'AT-2: many lines');
    if (!second.ok) throw new Error(second.reason);
    bigCommit = second.commit;

    const finished = (task: string, sha: string, call: string) => [
      {
        type: 'dev.task_finished',
        actor: 'dev:orders',
        payload: {
          v: 1,
          agent: 'dev:orders',
          module: 'orders',
          task_id: task,
          summary: `${task} done`,
          branch: 'dev-orders',
          commit: sha,
          files: ['src/orders.ts'],
        },
      },
      {
        type: 'tool.completed',
        actor: 'dev:orders',
        payload: {
          v: 1,
          agent: 'dev:orders',
          tool_call_id: call,
          tool: 'finish_task',
          args: { task_id: task, resumo: `${task} done` },
          ok: true,
          result: 'Committed.',
        },
      },
    ];
    const appended = await served.forja.eventLog.append(sessionId, [
      { type: 'artifact.c4_diagram', actor: 'arquiteto', payload: { v: 1, data: C4 } },
      ...finished('AT-1', commit, 'call-1'),
      ...finished('AT-2', bigCommit, 'call-2'),
    ]);
    expect(appended.success).toBe(true);

    // Two calls of the session: one settled, one cut off by a stopped process (counted as spent).
    for (const [outcome, input, output] of [
      ['completed', 1200, 300],
      ['interrupted', 900, 45],
    ] as const)
      await served.forja.database.query(
        `insert into token_usage (id, project_id, session_id, agent, provider, model, outcome, input_tokens, output_tokens, estimated, settled_at)
         values ($1, $2, $3, 'criativo', 'scripted', 'script', $4, $5, $6, $7, now())`,
        [randomUUID(), projectId, sessionId, outcome, input, output, outcome === 'interrupted'],
      );
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  for (const viewport of VIEWPORTS) {
    it(`draws the C4 context as a diagram with a text alternative at ${viewport.width}×${viewport.height}`, async () => {
      const { page, errors } = await chromium.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${served.url}/sessions/${sessionId}`);
      await page.getByTestId('tab-other').click();
      const diagram = page.getByTestId('c4-diagram');
      await diagram.waitFor();
      expect(
        await diagram
          .getByTestId('c4-node')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-kind'))),
      ).toEqual(['system', 'person', 'person', 'external_system', 'external_system']);
      // The module relations meet the system's box; the subscriber's two relations share one two-headed arrow.
      expect(
        await diagram
          .getByTestId('c4-edge')
          .evaluateAll((edges) =>
            edges.map(
              (edge) => `${edge.getAttribute('data-from')}-${edge.getAttribute('data-to')}`,
            ),
          ),
      ).toEqual(['subscriber-system', 'baker-system', 'system-payments', 'system-maps']);
      const twoWay = diagram.locator('[data-testid="c4-edge"][data-from="subscriber"]');
      expect(await twoWay.getAttribute('marker-start')).toMatch(/^url\(#/);
      expect(await twoWay.getAttribute('marker-end')).toMatch(/^url\(#/);
      const picture = diagram.getByTestId('c4-graph');
      expect(await picture.getAttribute('role')).toBe('img');
      expect(await picture.getAttribute('aria-label')).toContain('Padaria da Madrugada');
      expect(await diagram.textContent()).toContain("orders: reads the day's orders");

      // The picture's region is reached by the keyboard and named; the page itself never scrolls sideways.
      const region = diagram.locator('section[tabindex="0"]');
      expect(await region.getAttribute('aria-label')).toBe(
        'Context diagram (scrolls sideways on a small screen)',
      );
      await region.focus();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SECTION');
      await documentFits(page);
      if (viewport.width === 390) {
        // Too wide for a phone: it scrolls inside its region instead of shrinking past reading.
        const { scrollWidth, clientWidth } = await region.evaluate((element) => ({
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
        }));
        expect(scrollWidth).toBeGreaterThan(clientWidth);
      }

      // The same in words.
      await diagram.getByTestId('c4-text').locator('summary').click();
      expect(await diagram.getByTestId('c4-relations').locator('li').allTextContents()).toEqual([
        'Subscriber → Padaria da Madrugada: subscribes and picks the bread',
        'Padaria da Madrugada → Subscriber: tells when the bread leaves',
        "Baker → orders: reads the day's orders",
        'Padaria da Madrugada → Payment gateway: charges the subscription monthly',
        'delivery → Maps service: plans the route before dawn',
      ]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (viewport.width === 1280)
        await diagram.screenshot({ path: join(SCREENSHOTS, 'c4-diagram.png') });

      // Dark: the same picture, every text still readable (axe checks the contrast).
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.evaluate(() => window.localStorage.removeItem('forja.theme'));
      await page.reload();
      await page.getByTestId('tab-other').click();
      await page.getByTestId('c4-diagram').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
      expect(
        await page
          .locator('.c4-graph .c4-label text')
          .first()
          .evaluate((element) => getComputedStyle(element).fill),
      ).toBe('rgb(230, 233, 240)');
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (viewport.width === 1280)
        await page
          .getByTestId('c4-diagram')
          .screenshot({ path: join(SCREENSHOTS, 'c4-diagram-dark.png') });
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`opens a finished task's commit as its diff, by mouse and keyboard, at ${viewport.width}×${viewport.height}`, async () => {
      const { page, errors } = await chromium.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${served.url}/sessions/${sessionId}`);
      await page.getByTestId('tab-devs').click();
      const link = page.locator(`[data-testid="commit-link"][data-sha="${commit}"]`);
      await link.click();
      const dialog = page.getByTestId('commit-diff');
      await dialog.getByTestId('diff-file').waitFor();
      expect(await dialog.locator('h2').textContent()).toBe(
        `Commit ${commit.slice(0, 12)}: AT-1: orders`,
      );
      expect(await dialog.textContent()).toContain('Agent: dev:orders');
      expect(await dialog.getByTestId('diff-file-summary').allTextContents()).toEqual([
        'src/orders.ts +2 −0 2 lines added, 0 removed',
      ]);
      expect(await dialog.getByTestId('diff-truncated').count()).toBe(0);
      const added = dialog.locator('tr.diff-line.added');
      expect(await added.count()).toBe(2);
      expect(await added.first().locator('.line-text').textContent()).toBe(
        'export const orders: string[] = [];',
      );
      expect(await added.first().locator('.line-sign').textContent()).toBe('+added:');
      // Highlighted as TypeScript by the file's extension (ADR 0407).
      expect(await added.nth(1).locator('.line-text .tok-keyword').allTextContents()).toEqual([
        'export',
        'const',
      ]);
      expect(await added.nth(1).locator('.line-text .tok-string').textContent()).toBe("'05:00'");
      expect(await added.first().evaluate((row) => getComputedStyle(row).backgroundColor)).toBe(
        'rgb(230, 246, 236)',
      );
      await documentFits(page);
      const dialogBox = await dialog.boundingBox();
      expect(dialogBox!.x + dialogBox!.width).toBeLessThanOrEqual(viewport.width);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({
        path: join(
          SCREENSHOTS,
          viewport.width === 390 ? 'commit-diff-phone.png' : 'commit-diff.png',
        ),
      });

      // Escape closes it and gives the focus back to the commit; Enter opens it again.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-sha'))).toBe(
        commit,
      );
      await page.keyboard.press('Enter');
      await dialog.getByTestId('diff-file').waitFor();
      await dialog.getByTestId('commit-diff-close').click();
      await dialog.waitFor({ state: 'detached' });

      // Dark: the coloured lines keep their contrast.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.getByTestId('tab-devs').click();
      await link.click();
      await dialog.getByTestId('diff-file').waitFor();
      expect(await added.first().evaluate((row) => getComputedStyle(row).backgroundColor)).toBe(
        'rgb(22, 51, 35)',
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByTestId('commit-diff-close').click();
      await dialog.waitFor({ state: 'detached' });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.reload();
      await page.getByTestId('tab-devs').click();

      // A diff longer than the bound says it was cut, and still lists the whole file count.
      await page.locator(`[data-testid="commit-link"][data-sha="${bigCommit}"]`).click();
      await dialog.getByTestId('diff-truncated').waitFor();
      expect(await dialog.getByTestId('diff-truncated').textContent()).toContain('Diff truncated');
      expect(await dialog.getByTestId('diff-file-summary').allTextContents()).toEqual([
        'src/orders.ts +30,000 −2 30,000 lines added, 2 removed',
      ]);
      expect(await dialog.locator('tr.diff-line').count()).toBe(1500);
      expect(await dialog.getByTestId('diff-more').textContent()).toMatch(
        /^[\d,]+ more lines of this file are not shown here\.$/,
      );
      await documentFits(page);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

    it(`shows interrupted calls in the usage panel, in English and Portuguese, at ${viewport.width}×${viewport.height}`, async () => {
      const { page, errors } = await chromium.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${served.url}/sessions/${sessionId}`);
      const note = page.getByTestId('usage-interrupted');
      await note.waitFor();
      expect(await note.textContent()).toBe(
        'In this project, model calls cut off because Forja stopped in the middle of an answer: 1. Their 945 tokens count as spent, since the provider may have charged for them.',
      );
      expect(await page.getByTestId('usage-row').textContent()).toContain('1 cut off');
      expect(await page.getByTestId('usage-session-total').textContent()).toBe(
        'This session: 2,445 tokens',
      );
      await documentFits(page);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.evaluate(() => window.localStorage.setItem('forja.language', 'pt'));
      await page.reload();
      await note.waitFor();
      expect(await note.textContent()).toBe(
        'Neste projeto, chamadas ao modelo interrompidas porque o Forja parou no meio de uma resposta: 1. Os 945 tokens delas contam como gastos, pois o provedor pode tê-los cobrado.',
      );
      expect(await page.getByTestId('usage-row').textContent()).toContain('1 interrompidas');
      if (viewport.width === 1280)
        await page.getByTestId('usage-panel').screenshot({
          path: join(SCREENSHOTS, 'usage-interrupted-pt.png'),
        });
      // The diff in Portuguese too.
      await page.getByTestId('tab-devs').click();
      await page.locator(`[data-testid="commit-link"][data-sha="${commit}"]`).click();
      const dialog = page.getByTestId('commit-diff');
      await dialog.getByTestId('diff-file').waitFor();
      expect(await dialog.getByTestId('diff-file-summary').textContent()).toBe(
        'src/orders.ts +2 −0 2 linhas adicionadas, 0 removidas',
      );
      expect(await dialog.getByTestId('commit-diff-close').textContent()).toBe('Fechar');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.evaluate(() => window.localStorage.removeItem('forja.language'));
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
