import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it when it is missing; `FORJA_CHROMIUM` points elsewhere). */
const CHROMIUM = process.env['FORJA_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGUMENTS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessChromium {
  context: BrowserContext;
  /** A new page that records its uncaught errors, so a test can assert the UI never crashed. */
  newPage(): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile in a temporary directory, removed on close. `locale` is what the
 * browser asks for (`navigator.languages`, Accept-Language); English unless a test says otherwise.
 */
export async function launchHeadlessChromium(
  options: { locale?: string } = {},
): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'forja-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGUMENTS,
    viewport: { width: 1400, height: 1000 },
    locale: options.locale ?? 'en-US',
  });
  context.setDefaultTimeout(30_000);
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, errors };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
