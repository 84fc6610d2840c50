import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { gatedProvider } from './support/gated-provider.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession, sendMessage, seqsOf } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const BRIEF = {
  title: 'Bakery at dawn',
  summary: 'Fresh bread delivered before dawn, by subscription.',
  problem: 'Early risers cannot find fresh bread.',
  audience: 'Neighbourhood residents',
  goals: ['Deliver before 6 a.m.', 'Monthly subscription'],
  out_of_scope: ['Cakes'],
  open_questions: ['Which neighbourhoods first?'],
};

/**
 * Criativo's turns, in the order the tests below use them. Seqs of the first session: session.created 1,
 * agent.activated 2, first chat.message 3, turn.started 4, agent.response 5, second chat.message 6 — the
 * rule cites 6, the message it comes from.
 */
const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      text: 'What a lovely idea! Who would buy the bread, and when should it arrive?',
    },
    {
      agent: 'criativo',
      // It speaks and records in one answer: the turn ends there, with no further call (ADR 0380).
      text: "I'll record that as a business rule. Tell me when the idea feels complete.",
      tool_calls: [
        {
          name: 'emit_artifact',
          arguments: {
            type: 'business_rule',
            data: {
              title: 'Delivery before dawn',
              statement: 'Every delivery happens before 6 a.m.',
            },
            origin: [7],
          },
        },
      ],
    },
    { agent: 'criativo', text: JSON.stringify(BRIEF) },
    { agent: 'criativo', text: JSON.stringify({ ...BRIEF, title: 'Bakery, second thoughts' }) },
    // The rejection goes back to Criativo with the person's reason, then readiness again gives brief v2.
    {
      agent: 'criativo',
      expect: { system: ['Motivo: Not yet: pricing is still open'] },
      text: 'Understood: what should the subscription cost?',
    },
    {
      agent: 'criativo',
      expect: { system: ['Motivo: Not yet: pricing is still open', 'brief v2'] },
      text: JSON.stringify({ ...BRIEF, title: 'Bakery, priced' }),
    },
    // The PO's first turn after the first acceptance: held until the test has read where focus went.
    { agent: 'po', text: 'Thanks, I will write the backlog from this brief.' },
  ],
};

describe('the web UI in headless Chromium', { timeout: 180_000 }, () => {
  const scripted = createScriptedProvider({ script: SCRIPT });
  const gated = gatedProvider(scripted);
  let served: ServedForja;
  let unconfigured: ServedForja;
  let chromium: HeadlessChromium;
  const screenshots = mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, unconfigured, chromium] = await Promise.all([
      startServedForja(gated.provider),
      startServedForja(),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    gated.openAll();
    await chromium?.close();
    await served?.close();
    await unconfigured?.close();
  }, 60_000);

  it('takes an idea from a new project to the PO: stream, rule card, readiness, brief, handoff, acceptance', async () => {
    const { page, errors } = await chromium.newPage();
    await page.goto(served.url);
    await page.getByTestId('project-name-input').fill('Bakery at dawn');
    await page.getByTestId('create-project').click();
    await page.getByTestId('project-page').waitFor();
    await page.getByTestId('session-title-input').fill('First idea');
    await page.getByTestId('create-session').click();
    await page.locator('[data-testid="chat"][data-mode="human"]').waitFor();
    expect(await page.getByTestId('model-not-configured').count()).toBe(0);

    await page.getByTestId('start-criativo').click();
    await page.locator('[data-testid="chat"][data-mode="agent"]').waitFor();
    await page.locator('[data-testid="agent-activated"][data-agent="criativo"]').waitFor();

    // The first reply is held after three words: the page shows them streaming before the stored response.
    const firstReply = gated.gate('criativo', 0, 3);
    await sendMessage(page, 'I want to sell fresh bread at dawn, by subscription.');
    await page.locator('[data-testid="message-user"][data-seq="3"]').waitFor();
    const streaming = page.getByTestId('streaming-message');
    await streaming.filter({ hasText: 'What a lovely' }).waitFor();
    expect(await streaming.textContent()).not.toContain('arrive?');
    expect(await page.getByTestId('message-agent').count()).toBe(0);
    firstReply.open();
    await page
      .locator('[data-testid="message-agent"][data-seq="5"]', {
        hasText: 'Who would buy the bread, and when should it arrive?',
      })
      .waitFor();
    await streaming.waitFor({ state: 'detached' });

    await sendMessage(page, 'Neighbours. Everything must arrive before 6 a.m.');
    await page.getByTestId('rule-card').filter({ hasText: 'Delivery before dawn' }).waitFor();
    expect(await page.getByTestId('rule-card').textContent()).toContain('#7');
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'Tell me when the idea feels complete.' })
      .waitFor();

    // The consolidation is held too: the button stays disabled while it runs.
    const consolidation = gated.gate('criativo', 2, 1);
    await page.getByTestId('readiness-button').click();
    await page.locator('[data-testid="readiness-button"]:disabled').waitFor();
    consolidation.open();
    await page.getByTestId('product-brief').filter({ hasText: 'Bakery at dawn' }).waitFor();
    expect(await page.getByTestId('product-brief').textContent()).toContain(
      'Deliver before 6 a.m.',
    );
    await page.locator('[data-testid="handoff-divider"][data-status="offered"]').waitFor();
    expect(await page.getByTestId('handoff-divider').textContent()).toContain(
      'Handoff from Criativo to PO',
    );

    // The PO's turn is held, so nothing else waits (a failed or finished turn would) while focus moves on.
    const poTurn = gated.gate('po', 0, 1);
    await page.getByTestId('accept-handoff').click();
    await page.locator('[data-testid="handoff-divider"][data-status="accepted"]').waitFor();
    // Accepted, with nothing else waiting: focus goes to the next action, the message box (now to the PO).
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'message-input',
    );
    await page.locator('[data-testid="agent-activated"][data-agent="po"]').waitFor();
    poTurn.open();
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'I will write the backlog from this brief.' })
      .waitFor();
    await page.locator('[data-testid="usage-row"][data-agent="criativo"]').waitFor();

    const messageSeqs = await seqsOf(
      page,
      '[data-testid="message-user"], [data-testid="message-agent"]',
    );
    expect(new Set(messageSeqs).size).toBe(messageSeqs.length);
    expect(scripted.remainingTurns()).toEqual({ criativo: 3 });
    expect(errors).toEqual([]);
    const screenshot = join(screenshots, 'criativo-flow.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.info(`screenshot of the session page: ${screenshot}`);
    await page.close();
  });

  it('rejects an offered handoff with the reason the person gives; Criativo is told, and readiness gives brief v2', async () => {
    const sessionId = await newSession(served, 'Second thoughts', { startCriativo: true });
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.getByTestId('readiness-button').click();
    // No business rule in this session: the person confirms producing without any.
    await page.getByTestId('readiness-produce-anyway').click();
    await page.locator('[data-testid="handoff-divider"][data-status="offered"]').waitFor();
    await page.getByTestId('reject-handoff').click();
    // The reason is required: the agent that sent the handoff works on it.
    await page.locator('[data-testid="confirm-reject"]:disabled').waitFor();
    await page.getByTestId('reject-reason-input').fill('Not yet: pricing is still open');
    await page.getByTestId('confirm-reject').click();
    await page
      .locator('[data-testid="handoff-divider"][data-status="rejected"]', {
        hasText: 'Not yet: pricing is still open',
      })
      .waitFor();
    expect(await page.getByTestId('accept-handoff').count()).toBe(0);
    expect(await page.locator('[data-testid="agent-activated"][data-agent="po"]').count()).toBe(0);
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'Understood: what should the subscription cost?' })
      .waitFor();

    // The readiness button is back; pressing it consolidates brief v2, offered to the PO again.
    await page.getByTestId('readiness-button').click();
    await page.getByTestId('readiness-produce-anyway').click();
    await page.getByTestId('product-brief').filter({ hasText: 'Bakery, priced' }).waitFor();
    expect(await page.getByTestId('product-brief-version').textContent()).toBe('v2');
    await page.getByTestId('brief-note').filter({ hasText: 'Product brief v2 recorded' }).waitFor();
    await page.locator('[data-testid="handoff-divider"][data-status="offered"]').waitFor();
    expect(await page.getByTestId('readiness-button').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says so when the project's budget refuses a turn", async () => {
    const sessionId = await newSession(served, 'Tight budget', { budget: 10, startCriativo: true });
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, 'Can we afford this?');
    await page.getByTestId('budget-refused').waitFor();
    await page.locator('[data-testid="turn-failed"][data-reason="budget_exceeded"]').waitFor();
    expect(await page.getByTestId('budget-refused').textContent()).toContain('budget of 10');
    await page.getByTestId('project-budget').filter({ hasText: 'of 10 tokens' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a reconnecting banner when the connection drops, then catches up with no duplicates', async () => {
    const sessionId = await newSession(served, 'Flaky network');
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, 'Before the drop');
    await page.locator('[data-testid="message-user"][data-seq="2"]').waitFor();

    await served.stopListening();
    await page.getByTestId('connection-banner').waitFor();
    const bannerScreenshot = join(screenshots, 'reconnecting.png');
    await page.screenshot({ path: bannerScreenshot });
    console.info(`screenshot of the reconnecting banner: ${bannerScreenshot}`);
    for (const text of ['Written while the page was away', 'And one more'])
      await api(served, 'POST', `/api/sessions/${sessionId}/messages`, { text });
    await served.startListening();

    await page.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 60_000 });
    await page
      .locator('[data-testid="message-user"][data-seq="4"]', { hasText: 'And one more' })
      .waitFor();
    await sendMessage(page, 'After the drop');
    await page.locator('[data-testid="message-user"][data-seq="5"]').waitFor();
    expect(await seqsOf(page, '[data-testid="message-user"]')).toEqual([2, 3, 4, 5]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows where an agent's earlier conversation was summarised, with the summary on demand", async () => {
    const sessionId = await newSession(unconfigured, 'Long talk');
    await unconfigured.forja.eventLog.append(sessionId, [
      {
        type: 'agent.activated',
        actor: 'user',
        payload: { v: 1, agent: 'criativo', handoff_id: null },
      },
      {
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: 'The bakery is called Dawn Bread.' },
      },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'Noted: Dawn Bread.' },
      },
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'Deliveries before 6.' } },
      {
        type: 'agent.response',
        actor: 'criativo',
        payload: { v: 1, agent: 'criativo', text: 'Before 6, then.' },
      },
      {
        type: 'context.compacted',
        actor: 'context-manager',
        payload: {
          v: 1,
          agent: 'criativo',
          through_seq: 4,
          summary: 'The bakery is called Dawn Bread (#3).',
          tokens_before: 1200,
          tokens_after: 300,
        },
      },
    ]);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${unconfigured.url}/sessions/${sessionId}`);
    const divider = page.locator('[data-testid="compaction-divider"][data-through-seq="4"]');
    await divider.waitFor();
    expect(await divider.textContent()).toContain(
      'Earlier conversation summarised for Criativo (up to #4)',
    );
    const order = await page
      .locator(
        '[data-testid="message-user"], [data-testid="message-agent"], [data-testid="compaction-divider"]',
      )
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-seq') ?? 'divider'));
    expect(order).toEqual(['3', '4', 'divider', '5', '6']);
    expect(await page.getByTestId('compaction-summary').isVisible()).toBe(false);
    await divider.getByText('Show the summary').click();
    await page
      .getByTestId('compaction-summary')
      .filter({ hasText: 'The bakery is called Dawn Bread (#3).' })
      .waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('explains that no model is configured, on the page and when an agent cannot answer', async () => {
    const sessionId = await newSession(unconfigured, 'No model here');
    const { page, errors } = await chromium.newPage();
    await page.goto(`${unconfigured.url}/sessions/${sessionId}`);
    await page.getByTestId('model-not-configured').filter({ hasText: 'FORJA_MODEL' }).waitFor();
    await page.getByTestId('start-criativo').click();
    await sendMessage(page, 'Hello?');
    await page.locator('[data-testid="turn-failed"][data-reason="not_configured"]').waitFor();
    await page.getByTestId('readiness-button').click();
    await page.getByTestId('readiness-produce-anyway').click();
    await page.getByTestId('readiness-error').filter({ hasText: 'FORJA_MODEL' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
