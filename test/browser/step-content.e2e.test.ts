import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** Screenshots go to a scratch directory; `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

const AGENT = 'dev:api';
type NewEvent = { type: string; actor: string; payload: unknown };
const completed = (id: string, tool: string, args: unknown, ok: boolean, result: string) => ({
  type: 'tool.completed',
  actor: AGENT,
  payload: { v: 1, agent: AGENT, turn_id: 't1', tool_call_id: id, tool, args, ok, result },
});

/** A dev's turn that ran a failing command, wrote a file twice, and had its finish_task refused by the check. */
const TURN: NewEvent[] = [
  { type: 'agent.activated', actor: 'system', payload: { v: 1, agent: AGENT, handoff_id: null } },
  {
    type: 'turn.started',
    actor: AGENT,
    payload: { v: 1, agent: AGENT, turn_id: 't1', kind: 'message' },
  },
  {
    type: 'agent.response',
    actor: AGENT,
    payload: {
      v: 1,
      agent: AGENT,
      turn_id: 't1',
      text: '',
      tool_calls: ['c1', 'c2', 'c3', 'c4'].map((id) => ({ id, name: 'x', arguments: {} })),
    },
  },
  completed(
    'c1',
    'terminal',
    { command: 'npm test' },
    true,
    '$ npm test\nFAIL src/api.test.ts\n  expected 2, got 3\n[exit code 1]',
  ),
  completed(
    'c2',
    'write_file',
    { path: 'src/api.ts', content: 'export const a = 1;\n' },
    true,
    'Wrote',
  ),
  completed(
    'c3',
    'write_file',
    { path: 'src/api.ts', content: 'export const a = 2;\nexport const b = 3;\n' },
    true,
    'Wrote',
  ),
  completed(
    'c4',
    'finish_task',
    { task_id: 'AT-1' },
    false,
    'finish_task refused: the check failed: 1 test failed. Nothing was committed.',
  ),
];

async function openStep(page: Page, tool: string, nth = 0) {
  const rows = page.getByTestId('steps-row');
  if (
    !(await rows
      .first()
      .locator('details')
      .first()
      .evaluate((d) => (d as HTMLDetailsElement).open))
  )
    await rows.first().locator('summary').first().click();
  const step = page.locator(`[data-testid="step"][data-tool="${tool}"]`).nth(nth);
  await step.getByTestId('step-summary').click();
  await step.getByTestId('step-body').waitFor();
  return step;
}

describe('what a step did, in headless Chromium', { timeout: 180_000 }, () => {
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

  for (const scheme of ['light', 'dark'] as const)
    it(`opens a command to its output and exit code, a write to its diff, a refused step to its reason (${scheme})`, async () => {
      const sessionId = await newSession(served, `Steps ${scheme}`);
      expect((await served.forja.eventLog.append(sessionId, TURN)).success).toBe(true);
      const { page, errors } = await chromium.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${served.url}/sessions/${sessionId}`);
      await page.getByTestId('steps-row').waitFor();

      const terminal = await openStep(page, 'terminal');
      expect(await terminal.getByTestId('step-command').textContent()).toBe('$ npm test');
      expect(await terminal.getByTestId('step-output').textContent()).toBe(
        'FAIL src/api.test.ts\n  expected 2, got 3',
      );
      expect(await terminal.getByTestId('step-exit').textContent()).toBe('Exit code 1');

      const first = await openStep(page, 'write_file', 0);
      expect(await first.getByTestId('step-path').textContent()).toBe('src/api.ts');
      expect(await first.getByTestId('step-content').textContent()).toBe('export const a = 1;\n');
      const second = await openStep(page, 'write_file', 1);
      const diff = second.getByTestId('step-diff');
      expect(await diff.locator('tr.removed').allTextContents()).toEqual(['-export const a = 1;']);
      expect(await diff.locator('tr.added').allTextContents()).toEqual([
        '+export const a = 2;',
        '+export const b = 3;',
      ]);
      // The code is highlighted by the file's language (ADR 0407), its text unchanged.
      expect(await diff.locator('tr.added .tok-keyword').allTextContents()).toEqual([
        'export',
        'const',
        'export',
        'const',
      ]);
      expect(await diff.locator('tr.added .tok-number').allTextContents()).toEqual(['2', '3']);
      expect(await first.getByTestId('step-content').locator('.tok-keyword').count()).toBe(2);

      const refused = await openStep(page, 'finish_task');
      expect(await refused.getByTestId('step-refusal').textContent()).toBe(
        'Refused: finish_task refused: the check failed: 1 test failed. Nothing was committed.',
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, `steps-${scheme}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await page.close();
    });

  it('shows a waiting command as its command, and records who denied it and why', async () => {
    const sessionId = await newSession(served, 'Denied command');
    const proposed: NewEvent[] = [
      TURN[0]!,
      TURN[1]!,
      {
        type: 'agent.response',
        actor: AGENT,
        payload: {
          v: 1,
          agent: AGENT,
          turn_id: 't1',
          text: '',
          tool_calls: [{ id: 'c9', name: 'terminal', arguments: { command: 'rm -rf build' } }],
        },
      },
      {
        type: 'action.proposed',
        actor: AGENT,
        payload: {
          v: 1,
          action_id: randomUUID(),
          tool_call_id: 'c9',
          agent: AGENT,
          turn_id: 't1',
          tool: 'terminal',
          args: { command: 'rm -rf build' },
        },
      },
    ];
    expect((await served.forja.eventLog.append(sessionId, proposed)).success).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const card = page.getByTestId('pending-action');
    expect(await card.getByTestId('action-command').textContent()).toBe('$ rm -rf build');
    expect(await card.textContent()).not.toContain('"command"');
    const note = page.getByTestId('action-note');
    expect(await note.getByTestId('action-command').textContent()).toBe('$ rm -rf build');

    await card.getByTestId('deny-action').click();
    const reason = card.getByTestId('deny-reason-input');
    await reason.fill('not the build folder');
    await card.getByTestId('confirm-deny').click();
    await note.getByTestId('action-decision').waitFor();
    expect(await note.getByTestId('action-decision').textContent()).toMatch(
      /^denied by .+: not the build folder$/,
    );
    const step = await openStep(page, 'terminal');
    expect(await step.getByTestId('step-decision').textContent()).toMatch(
      /^denied by .+: not the build folder$/,
    );
    expect(await step.getByTestId('step-refusal').textContent()).toContain('not the build folder');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fills the screen height, and says when something new arrived while the person reads above', async () => {
    const sessionId = await newSession(served, 'Long chat');
    const messages: NewEvent[] = Array.from({ length: 40 }, (_, index) => ({
      type: 'chat.message',
      actor: 'user',
      payload: { v: 1, text: `message ${index + 1}` },
    }));
    expect((await served.forja.eventLog.append(sessionId, [TURN[0]!, ...messages])).success).toBe(
      true,
    );
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.getByTestId('chat').getByText('message 40').waitFor();
    const chatHeight = (await page.getByTestId('chat').boundingBox())!.height;
    expect(chatHeight).toBeGreaterThan(900 * 0.9);
    expect(chatHeight).toBeLessThanOrEqual(900);

    const list = page.getByTestId('chat-list');
    await list.evaluate((element) => {
      element.scrollTop = 0;
    });
    await page.locator('[data-testid="chat-list"][data-following="false"]').waitFor();
    expect(await page.getByTestId('new-activity').count()).toBe(0);
    expect(
      (
        await served.forja.eventLog.append(sessionId, [
          { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'the newest one' } },
        ])
      ).success,
    ).toBe(true);
    await page.getByTestId('new-activity').click();
    await page.getByTestId('new-activity').waitFor({ state: 'detached' });
    expect(
      await list.evaluate(
        (element) => element.scrollHeight - element.scrollTop - element.clientHeight < 160,
      ),
    ).toBe(true);
    expect(await page.getByTestId('chat').getByText('the newest one').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves focus to the next thing that waits after an answer, and never onto a risky approval', async () => {
    const sessionId = await newSession(served, 'Focus');
    const propose = (command: string, risky: boolean): NewEvent => ({
      type: 'action.proposed',
      actor: AGENT,
      payload: {
        v: 1,
        action_id: randomUUID(),
        tool_call_id: `call-${command}`,
        agent: AGENT,
        turn_id: 't1',
        tool: 'terminal',
        args: { command },
        ...(risky
          ? { risk: { risky: true, reasons: [{ rule: 'superuser', why: 'asks for sudo' }] } }
          : {}),
      },
    });
    const events = [TURN[0]!, TURN[1]!, propose('ls', false), propose('sudo ls', true)];
    expect((await served.forja.eventLog.append(sessionId, events)).success).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const focused = () =>
      page.evaluate(() => ({
        testId: document.activeElement?.getAttribute('data-testid') ?? null,
        item: document.activeElement?.closest('[data-testid="needs-you-item"]') !== null,
      }));

    const first = page.getByTestId('pending-action').first();
    await first.getByTestId('deny-action').click();
    // The reason field takes focus as it opens.
    expect(await focused()).toEqual({ testId: 'deny-reason-input', item: false });
    await page.keyboard.type('not now');
    await page.keyboard.press('Enter');
    // Answered: focus is on what waits next (the risky action's "Review"), not lost to the page.
    await page.waitForFunction(
      () =>
        document.activeElement?.getAttribute('data-testid') === 'needs-you-go' &&
        document.activeElement.closest('[data-kind="action"]') !== null,
    );
    await page.keyboard.press('Enter');
    // Reviewing a risky action focuses its card, never "Approve anyway".
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'pending-action',
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-risky'))).toBe(
      'true',
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
