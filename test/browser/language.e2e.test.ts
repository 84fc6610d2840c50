import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { en } from '../../web/src/i18n/en.ts';
import { pt } from '../../web/src/i18n/pt.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { api, newSession } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** 1,280 tokens (the answer that records the rule ends its turn, ADR 0380). Seqs: session.created 1, agent.activated 2, the person's message 3 — the rule cites it. */
const SCRIPT = {
  turns: [
    {
      agent: 'criativo',
      text: 'Que ideia boa! **Pão fresquinho** antes do amanhecer, por assinatura. Quem vai comprar?',
      usage: { input_tokens: 1200, output_tokens: 80 },
      tool_calls: [
        {
          name: 'emit_artifact',
          arguments: {
            type: 'business_rule',
            data: {
              title: 'Entrega antes do amanhecer',
              statement: 'Toda entrega acontece antes das 6 da manhã.',
            },
            origin: [3],
          },
        },
      ],
    },
  ],
};

/** Screenshots go to a scratch directory; `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

/** English labels of several words that Portuguese says differently: none may be left on a Portuguese page. */
const ENGLISH_PHRASES = (Object.keys(en) as Array<keyof typeof en>)
  .filter((key) => !en[key].includes('{') && en[key].includes(' ') && en[key] !== pt[key])
  .map((key) => en[key]);

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
/** All the text, hidden labels and closed details included. */
const bodyText = async (page: Page) => (await page.locator('body').textContent()) ?? '';

/** The page as it is: no English phrase left, no wider than the window, axe clean. */
async function expectPortugueseThatFits(page: Page): Promise<void> {
  const text = await bodyText(page);
  expect(ENGLISH_PHRASES.filter((phrase) => text.includes(phrase))).toEqual([]);
  const { documentWidth, viewport } = await page.evaluate(() => ({
    documentWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(documentWidth).toBeLessThanOrEqual(viewport);
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/** ADR 0185: one language per page — Portuguese for a Portuguese browser, English on request. */
describe('the UI in the browser’s language, switchable in the header', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let sessionId: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: SCRIPT })),
      launchHeadlessChromium({ locale: 'pt-BR' }),
    ]);
    sessionId = await newSession(served, 'Padaria de madrugada', { startCriativo: true });
    // Criativo's two turns run in the background; each test waits for them on its own page.
    await api(served, 'POST', `/api/sessions/${sessionId}/messages`, {
      text: 'Quero vender pão fresco de madrugada, por assinatura.',
    });
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  it('speaks Portuguese to a pt-BR browser: labels, numbers, <html lang>, axe clean, fitting 390 px on the session, project and projects pages', async () => {
    const { page, errors } = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    expect(await page.evaluate(() => navigator.languages)).toEqual(['pt-BR']);
    await page.getByTestId('message-agent').filter({ hasText: 'Quem vai comprar' }).waitFor();
    await page.getByTestId('rule-card').waitFor();
    await page.locator('[data-testid="usage-row"][data-agent="criativo"]').waitFor();

    expect(await htmlLang(page)).toBe('pt-BR');
    expect(await page.getByTestId('send-message').textContent()).toBe('Enviar');
    expect(await page.getByLabel('Idioma').inputValue()).toBe('pt');
    expect(await page.getByRole('heading', { name: 'Regras de negócio' }).count()).toBe(1);
    expect(await page.getByTestId('steps-row').locator('summary').first().textContent()).toBe(
      'Criativo deu 1 passo(s)',
    );
    expect(await page.getByTestId('rule-card').textContent()).toContain(
      'anotada a partir da conversa',
    );
    expect(await page.getByTestId('usage-session-total').textContent()).toBe(
      'Esta sessão: 1.280 tokens',
    );
    expect(ENGLISH_PHRASES.length).toBeGreaterThan(100);
    await page.screenshot({ path: join(SCREENSHOTS, 'portuguese.png'), fullPage: true });
    await expectPortugueseThatFits(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('send-message').waitFor();
    await expectPortugueseThatFits(page);
    const send = await page.getByTestId('send-message').boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(390);
    const language = await page.getByTestId('language-switch').boundingBox();
    expect(language!.x + language!.width).toBeLessThanOrEqual(390);

    await page.getByTestId('project-breadcrumb').click();
    await page.getByRole('heading', { name: 'Sessões' }).waitFor();
    await expectPortugueseThatFits(page);
    await page.getByRole('link', { name: 'Projetos' }).click();
    await page.getByRole('heading', { name: 'Projetos', level: 1 }).waitFor();
    await expectPortugueseThatFits(page);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches to English without a reload (a draft survives, another tab follows) and remembers it', async () => {
    const { page, errors } = await chromium.newPage();
    const other = await chromium.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${served.url}/sessions/${sessionId}`);
    await other.page.goto(`${served.url}/sessions/${sessionId}`);
    for (const tab of [page, other.page])
      await tab.getByTestId('message-agent').filter({ hasText: 'Quem vai comprar' }).waitFor();
    await page.getByTestId('message-input').fill('Um rascunho que fica');
    await page.evaluate(() => {
      (window as { notReloaded?: boolean }).notReloaded = true;
    });

    await page.getByLabel('Idioma').selectOption('en');

    await page.getByRole('heading', { name: 'Business rules' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    expect(await page.getByTestId('send-message').textContent()).toBe('Send');
    expect(await page.getByLabel('Language').inputValue()).toBe('en');
    expect(await page.getByTestId('steps-row').locator('summary').first().textContent()).toBe(
      'Criativo took 1 step(s)',
    );
    expect(await page.getByTestId('usage-session-total').textContent()).toBe(
      'This session: 1,280 tokens',
    );
    expect(await page.getByTestId('message-input').inputValue()).toBe('Um rascunho que fica');
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await bodyText(page)).not.toContain('Regras de negócio');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.reload();
    await page.getByTestId('rule-card').waitFor();
    expect(await htmlLang(page)).toBe('en');
    expect(await page.getByTestId('send-message').textContent()).toBe('Send');
    expect(await page.getByLabel('Language').inputValue()).toBe('en');
    await other.page.getByRole('heading', { name: 'Business rules' }).waitFor();
    expect(await htmlLang(other.page)).toBe('en');

    await page.getByLabel('Language').selectOption('pt');
    await page.getByRole('heading', { name: 'Regras de negócio' }).waitFor();
    expect(await htmlLang(page)).toBe('pt-BR');
    await page.evaluate(() => window.localStorage.clear());
    expect([...errors, ...other.errors]).toEqual([]);
    await Promise.all([page.close(), other.page.close()]);
  });
});
