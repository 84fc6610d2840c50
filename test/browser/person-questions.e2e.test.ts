import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIEF, UP_TO_ARQUITETO } from '../../src/conversation/testing/production-line-script.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const PRICE = 'Qual o preço da assinatura?';
const SUNDAYS = 'Entrega aos domingos?';
const DECLARE_BACKLOG = UP_TO_ARQUITETO.find((turn) =>
  turn.tool_calls?.some((call) => call.name === 'declare_backlog'),
)!.tool_calls![0]!;

/** Criativo and the brief with an open question; the PO asks it, hears the answer, decides one more itself. */
const SCRIPT = {
  turns: [
    { agent: 'criativo', text: 'Que ideia boa!' },
    { agent: 'criativo', text: JSON.stringify({ ...BRIEF, open_questions: [PRICE, SUNDAYS] }) },
    {
      agent: 'po',
      text: 'Uma pergunta para você.',
      tool_calls: [
        {
          name: 'ask_person',
          arguments: {
            question: PRICE,
            options: ['R$ 30 por mês', 'R$ 40 por mês'],
            why: 'O plano depende do preço',
          },
        },
      ],
    },
    {
      agent: 'po',
      // The answer picked in the page reaches the PO's next request.
      expect: { messages: [`tool: The person answered "${PRICE}": R$ 30 por mês`] },
      tool_calls: [
        {
          name: 'record_decision',
          arguments: {
            question: SUNDAYS,
            answer: 'Não: de segunda a sábado',
            reason: 'A padaria fecha aos domingos',
          },
        },
        DECLARE_BACKLOG,
      ],
    },
    { agent: 'po', tool_calls: [{ name: 'hand_off_to_arquiteto', arguments: {} }] },
    { agent: 'po', text: 'Backlog pronto.' },
  ],
};

const needsYouCount = (page: Page, count: number) =>
  page.locator(`[data-testid="needs-you-panel"][data-count="${count}"]`).waitFor();

describe("an agent's question in Needs you, in headless Chromium", { timeout: 240_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: SCRIPT })),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('shows the question with its options, takes the answer there, and the handoff lists what the PO decided itself', async () => {
    const sessionId = await newSession(served, 'Padaria', { startCriativo: true });
    await api(served, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'Pão cedo.' });
    await served.forja.conversation.idle(sessionId);
    const ready = await api(served, 'POST', `/api/sessions/${sessionId}/readiness?wait=true`);
    await api(served, 'POST', `/api/handoffs/${ready.handoff.id}/accept`);
    await served.forja.conversation.idle(sessionId);

    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const item = page.locator('[data-testid="needs-you-item"][data-kind="question"]');
    await item.waitFor();
    await needsYouCount(page, 1);
    expect(await item.getByTestId('question-text').textContent()).toBe(PRICE);
    expect(await item.textContent()).toContain('O plano depende do preço');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // An option fills the answer; the person sends it.
    await item.getByTestId('question-option').filter({ hasText: 'R$ 30 por mês' }).click();
    expect(await item.getByTestId('question-answer-input').inputValue()).toBe('R$ 30 por mês');
    await item.getByTestId('question-send').click();

    // The PO goes on: the question leaves Needs you, the handoff to the Arquiteto takes its place, and its
    // divider lists the decision the PO made by itself.
    const handoff = page.locator('[data-testid="handoff-divider"][data-status="offered"]');
    await handoff.getByTestId('handoff-decision').waitFor();
    expect(await handoff.getByTestId('handoff-decisions').textContent()).toContain(
      `${SUNDAYS} → Não: de segunda a sábado`,
    );
    await needsYouCount(page, 1);
    expect(await page.locator('[data-testid="needs-you-item"]').getAttribute('data-kind')).toBe(
      'handoff',
    );
    const failed = (await served.forja.eventLog.read(sessionId, { limit: 10_000 })).filter(
      (event) => event.type === 'turn.failed',
    );
    expect(failed).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
