import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playUpToTheDevs } from '../../src/conversation/testing/play-up-to-the-devs.ts';
import {
  BRIEF,
  MAP,
  UP_TO_ARQUITETO,
} from '../../src/conversation/testing/production-line-script.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession, sendMessage } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's needs-you screenshot. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

const RISKY_COMMAND = 'rm -rf build && npm test';
const EARLIER_MESSAGE = 'Quero um café que entrega pão quente às 5h.';

/**
 * The line up to two dev handoffs (the Arquiteto declares the map and hands off), each dev's kickoff (one
 * proposes a risky terminal command, the other talks), then Criativo in a session of its own: its first turn
 * answers what the person wrote before starting it, and the brief produced without rules.
 */
const SCRIPT = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Aceite os handoffs dos devs.' },
    {
      agent: 'dev:catalogo',
      tool_calls: [{ name: 'terminal', arguments: { command: RISKY_COMMAND } }],
    },
    { agent: 'dev:catalogo', text: 'Entendido: não apago nada.' },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
    {
      agent: 'criativo',
      text: 'Pão quente às 5h: quem recebe primeiro?',
      expect: { messages: [EARLIER_MESSAGE] },
    },
    { agent: 'criativo', text: JSON.stringify({ ...BRIEF, title: 'Café sem regras' }) },
  ],
};

const items = (page: Page) =>
  page
    .getByTestId('needs-you-item')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind')));
const title = (page: Page, expected: string) =>
  page.waitForFunction((text) => document.title === text, expected);
const needsYouCount = (page: Page, count: number) =>
  page.locator(`[data-testid="needs-you-panel"][data-count="${count}"]`).waitFor();

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`what needs the person at ${viewport.width}×${viewport.height} in headless Chromium`, {
    timeout: 240_000,
  }, () => {
    const scripted = createScriptedProvider({ script: SCRIPT });
    let served: ServedForja;
    let chromium: HeadlessChromium;

    beforeAll(async () => {
      await ensureWebBuilt();
      [served, chromium] = await Promise.all([
        startServedForja(scripted),
        launchHeadlessChromium(),
      ]);
    }, 180_000);

    afterAll(async () => {
      await chromium?.close();
      await served?.close();
    }, 60_000);

    const openPage = async (sessionId: string) => {
      const opened = await chromium.newPage();
      await opened.page.setViewportSize(viewport);
      await opened.page.goto(`${served.url}/sessions/${sessionId}`);
      return opened;
    };
    const fitsTheScreen = async (page: Page) => {
      const { documentWidth, width } = await page.evaluate(() => ({
        documentWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
      }));
      expect(documentWidth).toBeLessThanOrEqual(width);
    };

    it('lists the dev handoffs, accepts them all at once, then flags the risky command one dev proposes', async () => {
      const { sessionId } = await playUpToTheDevs(served.forja);
      const { page, errors } = await openPage(sessionId);

      // Two developer handoffs wait: both listed, one button accepts them all, the title counts them.
      await needsYouCount(page, 2);
      expect(await items(page)).toEqual(['handoff', 'handoff']);
      await title(page, '(2) Forja');
      const acceptAll = page.getByTestId('accept-all-dev-handoffs');
      expect(await acceptAll.textContent()).toBe('Accept all 2 developer handoffs');
      await page.getByTestId('tab-map').click();
      for (const module of ['catalogo', 'pedidos'])
        await page
          .locator(`[data-testid="module-node"][data-module="${module}"][data-status="notStarted"]`)
          .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await fitsTheScreen(page);
      const screenshot = join(
        SCREENSHOTS,
        `needs-you${viewport.width === 1280 ? '' : '-phone'}.png`,
      );
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshot });
      console.info(`screenshot of the needs-you list: ${screenshot}`);

      await acceptAll.click();
      // Both accepted; dev:catalogo's kickoff proposes a risky command: the list moves to it.
      await page
        .locator('[data-testid="handoff-divider"][data-status="accepted"]')
        .nth(1)
        .waitFor();
      await page.locator('[data-testid="needs-you-item"][data-kind="action"].risky').waitFor();
      await needsYouCount(page, 1);
      await title(page, '(1) Forja');
      expect(await acceptAll.count()).toBe(0);
      const card = page.locator('[data-testid="pending-action"][data-risky="true"]');
      await card.filter({ hasText: RISKY_COMMAND }).waitFor();
      expect(await card.getByTestId('action-risk').textContent()).toContain(
        'deletes files recursively without asking (rm -rf)',
      );
      const approve = card.getByTestId('approve-action');
      expect(await approve.textContent()).toBe(
        'Approve anyway (deletes files recursively without asking (rm -rf))',
      );
      expect(await approve.getAttribute('class')).toBe('danger');
      for (const module of ['catalogo', 'pedidos'])
        await page
          .locator(`[data-testid="module-node"][data-module="${module}"][data-status="working"]`)
          .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await fitsTheScreen(page);

      // The item takes the person to the risky command's card to read it, never onto "Approve anyway".
      await page
        .locator('[data-testid="needs-you-item"][data-kind="action"]')
        .getByTestId('needs-you-go')
        .click();
      await page.waitForFunction(
        () =>
          document.activeElement?.getAttribute('data-testid') === 'pending-action' &&
          document.activeElement.getAttribute('data-risky') === 'true',
      );
      await card.getByTestId('deny-action').click();
      await card.getByTestId('deny-reason-input').fill('Not the build folder');
      await card.getByTestId('confirm-deny').click();
      await needsYouCount(page, 0);
      await title(page, 'Forja');
      await page
        .getByTestId('message-agent')
        .filter({ hasText: 'Entendido: não apago nada.' })
        .waitFor();
      expect(await page.getByTestId('needs-you-panel').textContent()).toContain(
        'Nothing waits for you right now.',
      );
      const proposed = (await served.forja.eventLog.read(sessionId, { limit: 10_000 })).find(
        (event) => event.type === 'action.proposed',
      );
      expect(proposed?.payload).toMatchObject({
        risk: { risky: true, reasons: [{ rule: 'recursive-force-delete' }] },
      });
      expect(errors).toEqual([]);
      await page.close();
    });

    it('greets as Criativo joins and answers what the person wrote before; asks before producing with no rules', async () => {
      const sessionId = await newSession(served, `Café ${viewport.width}`);
      const { page, errors } = await openPage(sessionId);
      await sendMessage(page, EARLIER_MESSAGE);
      await page.getByTestId('message-user').filter({ hasText: EARLIER_MESSAGE }).waitFor();
      await page.getByTestId('start-criativo').click();
      await page.getByTestId('criativo-greeting').waitFor();
      const answer = page
        .getByTestId('message-agent')
        .filter({ hasText: 'Pão quente às 5h: quem recebe primeiro?' });
      await answer.waitFor();
      // The greeting is Criativo's first bubble, its answer to the earlier message the next.
      expect(
        await page
          .locator('[data-testid="criativo-greeting"], [data-testid="message-agent"]')
          .evaluateAll((bubbles) => bubbles.map((bubble) => bubble.getAttribute('data-testid'))),
      ).toEqual(['criativo-greeting', 'message-agent']);
      expect(await page.getByTestId('criativo-greeting').textContent()).toContain(
        "Hi, I'm Criativo.",
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      await fitsTheScreen(page);

      // No business rule recorded: the readiness button asks first; "Keep talking" produces nothing.
      await page.getByTestId('readiness-button').click();
      await page
        .getByTestId('readiness-no-rules')
        .filter({ hasText: 'Produce without any business rules?' })
        .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByTestId('readiness-keep-talking').click();
      await page.getByTestId('readiness-no-rules').waitFor({ state: 'detached' });
      const types = async () =>
        (await served.forja.eventLog.read(sessionId)).map((event) => event.type);
      expect(await types()).not.toContain('readiness.confirmed');
      await page.getByTestId('readiness-button').click();
      await page.getByTestId('readiness-produce-anyway').click();
      await page.getByTestId('product-brief').filter({ hasText: 'Café sem regras' }).waitFor();
      expect(await types()).toContain('readiness.confirmed');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('lists a failed turn and a block the Arquiteto left open as they happen, and drops each once handled', async () => {
      const sessionId = await newSession(served, `Blocks ${viewport.width}`);
      const append = async (...events: Array<{ type: string; actor: string; payload: unknown }>) =>
        expect((await served.forja.eventLog.append(sessionId, events)).success).toBe(true);
      await append(
        {
          type: 'agent.activated',
          actor: 'system',
          payload: { v: 1, agent: 'dev:web', handoff_id: null },
        },
        {
          type: 'agent.activated',
          actor: 'system',
          payload: { v: 1, agent: 'arquiteto', handoff_id: null },
        },
      );
      const { page, errors } = await openPage(sessionId);
      await needsYouCount(page, 0);

      await append(
        {
          type: 'turn.started',
          actor: 'dev:web',
          payload: { v: 1, agent: 'dev:web', turn_id: 't-web', kind: 'message' },
        },
        {
          type: 'turn.failed',
          actor: 'dev:web',
          payload: {
            v: 1,
            agent: 'dev:web',
            turn_id: 't-web',
            reason: 'provider_error',
            message: 'boom',
          },
        },
      );
      await needsYouCount(page, 1);
      await title(page, '(1) Forja');

      const blockSeq = (await served.forja.eventLog.read(sessionId)).length + 1;
      await append(
        {
          type: 'dev.blocked',
          actor: 'dev:web',
          payload: {
            v: 1,
            agent: 'dev:web',
            module: 'web',
            modulo: 'auth',
            falta: 'checkSession(token)',
          },
        },
        {
          type: 'turn.started',
          actor: 'arquiteto',
          payload: { v: 1, agent: 'arquiteto', turn_id: 't-arq', kind: 'message' },
        },
      );
      // The Arquiteto is on it: not the person's yet.
      await page.locator('[data-testid="turn-failed"]').waitFor();
      expect(await items(page)).toEqual(['failed']);
      await append({
        type: 'agent.response',
        actor: 'arquiteto',
        payload: { v: 1, agent: 'arquiteto', turn_id: 't-arq', text: 'Não sei resolver isso.' },
      });
      await needsYouCount(page, 2);
      expect(await items(page)).toEqual(['failed', 'block']);
      await title(page, '(2) Forja');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await fitsTheScreen(page);

      // The failed turn's "go" lands on its Retry (the turn can be retried: it is its lane's last).
      await page
        .locator('[data-testid="needs-you-item"][data-kind="failed"]')
        .getByTestId('needs-you-go')
        .click();
      await page.waitForFunction(
        () =>
          document.activeElement?.getAttribute('data-testid') === 'turn-retry' &&
          document.activeElement.closest('[data-testid="turn-failed"]') !== null,
      );

      // "Tell the Arquiteto" puts the cursor in the message box, addressed to the Arquiteto.
      await page
        .locator('[data-testid="needs-you-item"][data-kind="block"]')
        .getByTestId('needs-you-go')
        .click();
      await page.waitForFunction(() => document.activeElement?.id === 'message-input');
      expect(await page.getByTestId('addressee-picker').inputValue()).toBe('arquiteto');

      await append({
        type: 'arquiteto.block_answered',
        actor: 'arquiteto',
        payload: { v: 1, dev: 'dev:web', block_seq: blockSeq, answer: 'Siga sem isso.' },
      });
      await needsYouCount(page, 1);
      await append({
        type: 'agent.response',
        actor: 'dev:web',
        payload: { v: 1, agent: 'dev:web', turn_id: 't-web-2', text: 'De volta.' },
      });
      await needsYouCount(page, 0);
      await title(page, 'Forja');
      expect(errors).toEqual([]);
      await page.close();
    });
  });
}
