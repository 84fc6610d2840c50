import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playUpToTheDevs } from '../../src/conversation/testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from '../../src/conversation/testing/production-line-script.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { requestJson } from '../../src/testing/forja-harness.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** Both devs end their kickoff without finishing their task; the nudged one is told what is left and answers. */
const SCRIPT = {
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    {
      agent: 'arquiteto',
      tool_calls: [
        {
          name: 'assign_tasks_to_modules',
          arguments: {
            assignments: [
              { task_id: 'AT-001', module: 'catalogo' },
              { task_id: 'AT-002', module: 'pedidos' },
            ],
          },
        },
      ],
    },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Aceite os handoffs dos devs.' },
    { agent: 'dev:catalogo', text: 'Vou olhar o catálogo depois.' },
    { agent: 'dev:pedidos', text: 'Vou olhar os pedidos depois.' },
    {
      agent: 'dev:pedidos',
      expect: { messages: ['continue o módulo pedidos', 'AT-002 — Criar pedido'] },
      text: 'Certo: sigo com AT-002 agora.',
    },
  ],
};

describe('an idle dev lane in headless Chromium', { timeout: 240_000 }, () => {
  const scripted = createScriptedProvider({ script: SCRIPT });
  let served: ServedForja;
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([startServedForja(scripted), launchHeadlessChromium()]);
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('is listed in Needs you with its unfinished task, and Nudge gives it a turn that answers in the chat', async () => {
    const { sessionId } = await playUpToTheDevs(served.forja);
    await requestJson(served.forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
    await served.forja.conversation.idle(sessionId);
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);

    const idle = page.locator('[data-testid="needs-you-item"][data-kind="idle"]');
    await page.locator('[data-testid="needs-you-panel"][data-count="2"]').waitFor();
    expect(await idle.allTextContents()).toEqual([
      expect.stringContaining('AT-001 unfinished'),
      expect.stringContaining('AT-002 unfinished'),
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await idle.filter({ hasText: 'AT-002' }).getByTestId('needs-you-go').click();
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'Certo: sigo com AT-002 agora.' })
      .waitFor();
    // Its turn ended without finishing AT-002: listed again with catalogo once the idle lanes are read after it.
    await page.locator('[data-testid="needs-you-panel"][data-count="2"]').waitFor();
    const events = await served.forja.eventLog.read(sessionId, { limit: 10_000 });
    expect(
      events.filter(
        (event) =>
          event.type === 'chat.message' && (event.payload as { to?: string }).to === 'dev:pedidos',
      ),
    ).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
