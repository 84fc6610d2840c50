import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { gatedProvider } from './support/gated-provider.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { newSession, sendMessage } from './support/scenario.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

/** `FORJA_SCREENSHOTS=docs/screenshots` refreshes the guide's turn-control screenshots. */
const SCREENSHOTS =
  process.env['FORJA_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'forja-screenshots-'));

const LONG = Array.from({ length: 40 }, (_, index) => `palavra${index}`).join(' ');

/**
 * Criativo's first answer is held mid-stream and stopped; its next call fails and is retried; the retried answer is
 * regenerated. The model is told what the person saw: the stopped partial text, then the same history again.
 */
const SCRIPT = {
  turns: [
    { agent: 'criativo', text: LONG },
    { agent: 'criativo', fail: { status: 400, message: 'the provider refused' } },
    { agent: 'criativo', text: 'Agora sim.', expect: { messages: ['palavra0', 'E agora?'] } },
    { agent: 'criativo', text: 'Outra resposta.', expect: { messages: ['palavra0', 'E agora?'] } },
  ],
};

const answers = (page: Page) =>
  page.getByTestId('message-agent').evaluateAll((rows) => rows.map((row) => row.textContent));

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`stop, retry and regenerate at ${viewport.width}×${viewport.height} in headless Chromium`, {
    timeout: 180_000,
  }, () => {
    const scripted = createScriptedProvider({ script: SCRIPT });
    const gated = gatedProvider(scripted);
    let served: ServedForja;
    let chromium: HeadlessChromium;

    beforeAll(async () => {
      await ensureWebBuilt();
      [served, chromium] = await Promise.all([
        startServedForja(gated.provider),
        launchHeadlessChromium(),
      ]);
    }, 120_000);

    afterAll(async () => {
      gated.openAll();
      await chromium?.close();
      await served?.close();
    }, 60_000);

    it('stops a streaming answer keeping its words, retries a failed turn, regenerates the last answer', async () => {
      const sessionId = await newSession(served, 'Controle', { startCriativo: true });
      const opened = await chromium.newPage();
      const { page, errors } = opened;
      await page.setViewportSize(viewport);
      await page.goto(`${served.url}/sessions/${sessionId}`);

      gated.gate('criativo', 0, 3);
      await sendMessage(page, 'Conte uma história');
      const streaming = page.getByTestId('streaming-message');
      await streaming.filter({ hasText: 'palavra2' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await streaming.getByTestId('turn-stop').click();
      const stopped = page.locator('[data-testid="message-agent"][data-stopped="true"]');
      await stopped.waitFor();
      expect(await stopped.textContent()).toContain('palavra0 palavra1 palavra2');
      expect(await stopped.textContent()).not.toContain('palavra3');
      expect(await streaming.count()).toBe(0);

      await sendMessage(page, 'E agora?');
      const retry = page.getByTestId('turn-failed').getByTestId('turn-retry');
      await retry.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const phone = viewport.width === 1280 ? '' : '-phone';
      await page.screenshot({ path: join(SCREENSHOTS, `turn-control${phone}.png`) });
      await retry.click();
      await page.getByTestId('message-agent').filter({ hasText: 'Agora sim.' }).waitFor();
      await retry.waitFor({ state: 'detached' });

      const regenerate = page.getByTestId('turn-regenerate');
      await regenerate.waitFor();
      expect(await regenerate.count()).toBe(1);
      await regenerate.click();
      await page.getByTestId('message-agent').filter({ hasText: 'Outra resposta.' }).waitFor();
      expect((await answers(page)).some((text) => text?.includes('Agora sim.'))).toBe(false);
      // The replaced answer is kept as a version (ADR 0408): ‹ 2/2 ›, and ‹ pages back to it.
      const latest = page.getByTestId('message-agent').filter({ hasText: 'Outra resposta.' });
      const position = latest.getByTestId('version-position');
      expect(await position.locator('[aria-hidden="true"]').textContent()).toBe('2/2');
      expect(await latest.getByTestId('version-next').isDisabled()).toBe(true);
      await latest.getByTestId('version-previous').click();
      const paged = page.locator(
        '[data-testid="message-agent"]:has([data-testid="answer-versions"])',
      );
      await paged.filter({ hasText: 'Agora sim.' }).waitFor();
      expect(await paged.getByTestId('version-position').textContent()).toContain('Version 1 of 2');
      expect(await paged.getByTestId('version-previous').isDisabled()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      const phoneName = viewport.width === 1280 ? '' : '-phone';
      await page.screenshot({ path: join(SCREENSHOTS, `answer-versions${phoneName}.png`) });
      await paged.getByTestId('version-next').click();
      await paged.filter({ hasText: 'Outra resposta.' }).waitFor();
      // Reloaded, the versions are still there: they are read from the log.
      await page.reload();
      await page.getByTestId('answer-versions').waitFor();
      expect(
        await page.getByTestId('version-position').locator('[aria-hidden="true"]').textContent(),
      ).toBe('2/2');
      const { documentWidth, width } = await page.evaluate(() => ({
        documentWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
      }));
      expect(documentWidth).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      scripted.assertAllTurnsConsumed();
    });
  });
}
