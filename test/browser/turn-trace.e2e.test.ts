import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession, sendMessage } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** Criativo records a business rule (a tool call), then answers: two model calls with known usage and price. */
const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      usage: { input_tokens: 1200, output_tokens: 80 },
      tool_calls: [
        {
          name: 'emit_artifact',
          arguments: {
            type: 'business_rule',
            data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 6h.' },
            origin: [3],
          },
        },
      ],
    },
    {
      agent: 'criativo',
      usage: { input_tokens: 1500, output_tokens: 40 },
      text: 'Registrei a regra.',
      expect: { messages: ['Recorded business_rule'] },
    },
  ],
};

/** $2 per million input tokens, $10 per million output tokens for the scripted model. */
const PRICES = { models: { 'scripted:traced.json': { input: 2, output: 10 } } };

describe('the trace of a turn in headless Chromium', { timeout: 180_000 }, () => {
  const scripted = createScriptedProvider({ script: SCRIPT, source: 'traced.json' });
  let served: ServedForja;
  let chromium: HeadlessChromium;

  beforeAll(async () => {
    const prices = join(mkdtempSync(join(tmpdir(), 'forja-trace-prices-')), 'prices.json');
    writeFileSync(prices, JSON.stringify(PRICES));
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(scripted, { FORJA_PRICES: prices }),
      launchHeadlessChromium(),
    ]);
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it("opens a turn's trace from its answer: its model calls with tokens and cost, its tool call with arguments and result", async () => {
    const sessionId = await newSession(served, 'Rastro', { startCriativo: true });
    const { page, errors } = await chromium.newPage();
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, 'Entregas antes das 6h.');
    await page.getByTestId('message-agent').filter({ hasText: 'Registrei a regra.' }).waitFor();
    await page.getByTestId('turn-trace-link').last().click();
    await page.getByTestId('turn-trace-page').waitFor();

    const calls = page.getByTestId('trace-model-call');
    await calls.nth(1).waitFor();
    expect(await calls.count()).toBe(2);
    const figures = await calls.allTextContents();
    // 1200 × $2/M + 80 × $10/M = $0.0032; 1500 × $2/M + 40 × $10/M = $0.0034.
    expect(figures[0]).toMatch(/1[,.]?200 in .*80 out .*\$0\.0032/);
    expect(figures[1]).toMatch(/1[,.]?500 in .*40 out .*\$0\.0034/);
    expect(await page.getByTestId('trace-totals').textContent()).toMatch(
      /2[,.]?700 input tokens.*120 output tokens.*\$0\.0066/,
    );
    const tool = page.getByTestId('trace-tool-call');
    expect(await tool.count()).toBe(1);
    expect(await tool.getAttribute('data-tool')).toBe('emit_artifact');
    expect(await tool.getAttribute('data-ok')).toBe('true');
    await tool.locator('summary').click();
    expect(await tool.textContent()).toContain('Entrega cedo');
    expect(await tool.textContent()).toContain('Recorded business_rule');
    // The turn's id is the one its OpenTelemetry spans carry, and the one its events name.
    const turnId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(await page.getByTestId('trace-ids').textContent()).toContain(turnId);
    const events = await api(served, 'GET', `/api/sessions/${sessionId}/events`).catch(() => null);
    expect(JSON.stringify(events ?? '')).toContain(turnId);
    expect(await page.getByTestId('trace-events').textContent()).toContain('tool.completed');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    scripted.assertAllTurnsConsumed();
  });
});
