import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession, sendMessage } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const FIRST = 'Trocas só até as 18h.';
const CHANGE = 'Mudei de ideia: trocas até as 20h.';
/** Seqs: session.created 1, agent.activated 2, the first message 3, Criativo's turn 4–8 (the rule is 6). */
const RULE_SEQ = 6;
const CHANGE_SEQ = 10;

const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      text: 'Anotei o prazo das trocas.',
      tool_calls: [
        {
          name: 'emit_artifact',
          arguments: {
            type: 'business_rule',
            data: { title: 'Prazo de troca', statement: 'Trocas são aceitas até as 18h.' },
            origin: [3],
          },
        },
      ],
    },
    {
      agent: 'criativo',
      expect: { messages: [`[#${CHANGE_SEQ}] ${CHANGE}`], system: [`regra #${RULE_SEQ}`] },
      text: 'Atualizei: até as 20h.',
      tool_calls: [
        {
          name: 'revise_rule',
          arguments: {
            rule_id: `#${RULE_SEQ}`,
            statement: 'Trocas são aceitas até as 20h.',
            origin: [CHANGE_SEQ],
          },
        },
      ],
    },
  ],
};

/** ADR 0421: a rule the person changed shows its new version, and the old one stays, marked. */
describe('a revised business rule in headless Chromium', { timeout: 240_000 }, () => {
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

  it('marks the old version superseded and the new one as its revision, counting one rule', async () => {
    const sessionId = await newSession(served, 'Trocas', { startCriativo: true });
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await sendMessage(page, FIRST);
    await page.getByTestId('rule-card').waitFor();
    await sendMessage(page, CHANGE);
    await page.getByTestId('rule-revises').waitFor();

    const cards = page.getByTestId('rule-card');
    expect(await cards.evaluateAll((all) => all.map((card) => card.dataset['superseded']))).toEqual(
      ['true', 'false'],
    );
    expect(await cards.nth(0).getByTestId('rule-superseded').textContent()).toBe(
      'Replaced by a newer version below',
    );
    expect(await cards.nth(1).textContent()).toContain('Trocas são aceitas até as 20h.');
    expect(await cards.nth(1).getByTestId('rule-revises').textContent()).toBe(
      'New version of an earlier rule, recorded by Criativo',
    );
    expect(await page.getByTestId('rules-panel').locator('.count').textContent()).toBe('1');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
