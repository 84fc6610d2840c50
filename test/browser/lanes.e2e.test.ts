import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { gatedProvider } from './support/gated-provider.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const handoff = (id: string, to: string, status: string) => ({
  type: `handoff.${status}`,
  actor: status === 'offered' ? 'arquiteto' : 'user',
  payload: {
    v: 1,
    handoff_id: id,
    from_agent: 'arquiteto',
    to_agent: to,
    artifact_id: null,
    status,
  },
});

/** Two dev agents activated by accepted handoffs, as the Arquiteto's handoffs and the person's acceptance leave them. */
const TWO_DEVS = [
  handoff('handoff-api', 'dev:api', 'offered'),
  handoff('handoff-web', 'dev:web', 'offered'),
  handoff('handoff-api', 'dev:api', 'accepted'),
  {
    type: 'agent.activated',
    actor: 'system',
    payload: { v: 1, agent: 'dev:api', handoff_id: 'handoff-api' },
  },
  handoff('handoff-web', 'dev:web', 'accepted'),
  {
    type: 'agent.activated',
    actor: 'system',
    payload: { v: 1, agent: 'dev:web', handoff_id: 'handoff-web' },
  },
];

describe('lanes in headless Chromium', { timeout: 180_000 }, () => {
  const scripted = createScriptedProvider({
    script: {
      turns: [
        { agent: 'dev:api', text: 'Writing the subscriptions route first, then its tests.' },
        { agent: 'dev:web', text: 'Building the subscription form against the api contract.' },
        { agent: 'criativo', text: 'Coffee is a lovely idea; I will note it for after the bread.' },
        { agent: 'dev:web', text: 'Yes, the form validates the address.' },
      ],
    },
  });
  const gated = gatedProvider(scripted);
  let served: ServedForja;
  let chromium: HeadlessChromium;
  const screenshots = mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(gated.provider),
      launchHeadlessChromium(),
    ]);
  }, 180_000);

  afterAll(async () => {
    gated.openAll();
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it("streams two dev lanes at once in two bubbles, shows each agent's status, and sends to the agent picked", async () => {
    const sessionId = await newSession(served, 'Bakery lanes', { startCriativo: true });
    expect((await served.forja.eventLog.append(sessionId, TWO_DEVS)).success).toBe(true);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.locator('[data-testid="agent-activated"][data-agent="dev:web"]').waitFor();

    // Both kickoffs are held after three words: both lanes stream at the same time, each in its own bubble.
    const api1 = gated.gate('dev:api', 0, 3);
    const web1 = gated.gate('dev:web', 0, 3);
    await api(served, 'POST', `/api/sessions/${sessionId}/kickoffs`);
    await page
      .locator('[data-testid="streaming-message"][data-agent="dev:api"]', {
        hasText: 'Writing the subscriptions',
      })
      .waitFor();
    await page
      .locator('[data-testid="streaming-message"][data-agent="dev:web"]', {
        hasText: 'Building the subscription',
      })
      .waitFor();
    expect(await page.getByTestId('streaming-message').count()).toBe(2);
    await page
      .locator('[data-testid="agent-status"][data-agent="dev:api"][data-status="working"]')
      .waitFor();
    await page
      .locator('[data-testid="agent-status"][data-agent="dev:web"][data-status="working"]')
      .waitFor();
    await page
      .locator('[data-testid="agent-status"][data-agent="criativo"][data-status="idle"]')
      .waitFor();

    // The person picks Criativo while the devs still stream; Criativo answers and the devs go on.
    await page.getByTestId('addressee-picker').selectOption('criativo');
    await page.getByTestId('message-input').fill('What about coffee too?');
    await page.getByTestId('send-message').click();
    await page
      .locator('[data-testid="message-user"][data-to="criativo"]', {
        hasText: 'What about coffee too?',
      })
      .waitFor();
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'Coffee is a lovely idea' })
      .waitFor();
    expect(await page.getByTestId('streaming-message').count()).toBe(2);

    api1.open();
    web1.open();
    await page.getByTestId('message-agent').filter({ hasText: 'then its tests.' }).waitFor();
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'against the api contract.' })
      .waitFor();
    await page.getByTestId('streaming-message').first().waitFor({ state: 'detached' });

    // `@slug` at the start of a message addresses that agent, whatever the picker says.
    await page.getByTestId('message-input').fill('@dev:web does the form check the address?');
    await page.getByTestId('send-message').click();
    await page
      .locator('[data-testid="message-user"][data-to="dev:web"]', {
        hasText: 'does the form check the address?',
      })
      .waitFor();
    await page
      .getByTestId('message-agent')
      .filter({ hasText: 'Yes, the form validates the address.' })
      .waitFor();

    const messages = (await served.forja.eventLog.read(sessionId, { limit: 1000 }))
      .filter((event) => event.type === 'chat.message')
      .map((event) => event.payload);
    expect(messages).toEqual([
      { v: 1, text: 'What about coffee too?', to: 'criativo' },
      { v: 1, text: 'does the form check the address?', to: 'dev:web' },
    ]);
    expect(scripted.remainingTurns()).toEqual({});
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(screenshots, 'lanes.png'), fullPage: true });
    console.info(`screenshot of the session page: ${join(screenshots, 'lanes.png')}`);
    await page.close();
  });
});
