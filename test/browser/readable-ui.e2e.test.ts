import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { gatedProvider } from './support/gated-provider.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession, sendMessage } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const ANSWER = [
  '## The plan',
  '',
  '**Fresh bread** before dawn, by subscription.',
  '',
  '| Plan | Loaves a week | Price |',
  '| --- | --- | --- |',
  '| Daily | 7 | 30 |',
  '| Weekend | 2 | 10 |',
  '',
  '```sh',
  'npm run bake -- --before 06:00',
  '```',
  '',
  '<script>window.hacked = true</script><img src=x onerror="window.hacked = true">',
].join('\n');

const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      text: ANSWER,
      usage: { input_tokens: 120, output_tokens: 80 },
      tool_calls: [
        {
          name: 'emit_artifact',
          arguments: {
            type: 'business_rule',
            data: {
              title: 'Delivery before dawn',
              statement: 'Every delivery happens before 6 a.m.',
            },
            origin: [3],
          },
        },
      ],
    },
    { agent: 'criativo', text: 'Here is a longer answer that streams to you word by word.' },
  ],
};

/** Screenshots go to a scratch directory; `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

/** ADRs 0120, 0121, 0190: readable answers, steps folded, any screen width, dark mode, the streamed text kept on reload. */
describe('a readable web UI in headless Chromium', { timeout: 180_000 }, () => {
  const gated = gatedProvider(createScriptedProvider({ script: SCRIPT }));
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let sessionId: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(gated.provider),
      launchHeadlessChromium(),
    ]);
    sessionId = await newSession(served, 'Bakery at dawn', { startCriativo: true });
  }, 180_000);

  afterAll(async () => {
    gated.openAll();
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('renders an answer as Markdown (no raw marks, no raw HTML) and folds its tools into one steps row in plain words', async () => {
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, 'I want to sell fresh bread at dawn, by subscription.');

    const answer = page
      .getByTestId('message-agent')
      .filter({ has: page.locator('h2', { hasText: 'The plan' }) });
    await answer.waitFor();
    expect(await page.getByTestId('line-stepper').getAttribute('data-stage')).toBe('idea');
    expect(await answer.locator('strong').textContent()).toBe('Fresh bread');
    expect(await answer.locator('table tbody tr').count()).toBe(2);
    expect(await answer.locator('pre code').textContent()).toContain('npm run bake');
    expect(await answer.getByTestId('copy-code').count()).toBe(1);
    expect(await answer.textContent()).not.toMatch(/##|\*\*|\|\s*---/);
    expect(await answer.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined();
    // The answer spoke and recorded: its turn ends on it (ADR 0380), the rule's card shows.
    await page.getByTestId('rule-card').waitFor();

    const steps = page.getByTestId('steps-row');
    expect(await steps.count()).toBe(1);
    expect(await steps.locator('summary').first().textContent()).toContain('1 step');
    expect(await steps.getByTestId('step').isVisible()).toBe(false);
    await steps.locator('summary').first().click();
    expect(await steps.getByTestId('step').textContent()).toBe('Recorded what you said');

    const chatText = (await page.getByTestId('chat').textContent()) ?? '';
    expect(chatText).not.toContain('emit_artifact');
    expect(chatText).not.toMatch(/#\d+/);
    await page.screenshot({ path: join(SCREENSHOTS, 'conversation.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('gives a reloaded tab and a second tab the words streamed so far, then the rest', async () => {
    const gate = gated.gate('criativo', 1, 4);
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, 'Tell me more.');
    const sofar = 'Here is a longer';
    await page.getByTestId('streaming-message').filter({ hasText: sofar }).waitFor();

    await page.reload();
    const second = await chromium.newPage();
    await second.page.goto(`${served.url}/sessions/${sessionId}`);
    for (const tab of [page, second.page]) {
      const bubble = tab.getByTestId('streaming-message');
      await bubble.filter({ hasText: sofar }).waitFor();
      // The words so far, once (the bubble's Stop button is not part of the answer).
      expect(await bubble.locator('.author').textContent()).toBe('Criativo');
      expect((await bubble.locator('.markdown').textContent())?.trim()).toBe(sofar);
    }
    gate.open();
    for (const tab of [page, second.page]) {
      await tab
        .getByTestId('message-agent')
        .filter({ hasText: 'streams to you word by word.' })
        .waitFor();
      expect(await tab.getByTestId('streaming-message').count()).toBe(0);
    }
    expect([...errors, ...second.errors]).toEqual([]);
    await Promise.all([page.close(), second.page.close()]);
  });

  it('fits a 390 px phone: the page is never wider than the screen and Send stays on it', async () => {
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await page.locator('[data-testid="usage-row"][data-agent="criativo"]').waitFor();
    await page.locator('h2', { hasText: 'The plan' }).waitFor();
    const { documentWidth, viewport } = await page.evaluate(() => ({
      documentWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(documentWidth).toBeLessThanOrEqual(viewport);
    const send = await page.getByTestId('send-message').boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('follows a dark system theme, and the toggle switches it and is remembered', async () => {
    const { page, errors } = await chromium.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    const background = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const theme = () => page.evaluate(() => document.documentElement.dataset['theme']);
    await page.locator('h2', { hasText: 'The plan' }).waitFor();
    expect(await theme()).toBe('dark');
    expect(await background()).toBe('rgb(18, 21, 28)');
    await page.screenshot({ path: join(SCREENSHOTS, 'dark.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByTestId('theme-toggle').click();
    expect(await theme()).toBe('light');
    expect(await background()).toBe('rgb(245, 246, 248)');
    await page.reload();
    await page.getByTestId('theme-toggle').waitFor();
    expect(await theme()).toBe('light');
    expect(await page.getByTestId('theme-toggle').getAttribute('aria-pressed')).toBe('false');
    await page.evaluate(() => window.localStorage.clear());
    expect(errors).toEqual([]);
    await page.close();
  });
});
