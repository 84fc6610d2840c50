import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { newSecret, TOKEN_PREFIX } from '../../src/accounts/secrets.ts';
import { createScriptedProvider } from '../../src/gateway/providers/index.ts';
import { createPerson, insertApiToken, type Person } from '../../src/store/index.ts';
import { ensureWebBuilt } from './support/ensure-web-built.ts';
import { launchHeadlessChromium, type HeadlessChromium } from './support/headless-chromium.ts';
import { startServedForja, type ServedForja } from './support/served-forja.ts';

const PASSWORD = 'bread before dawn';

describe('signing in, in headless Chromium', { timeout: 180_000 }, () => {
  let served: ServedForja;
  let chromium: HeadlessChromium;
  let ana: Person;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    await ensureWebBuilt();
    [served, chromium] = await Promise.all([
      startServedForja(createScriptedProvider({ script: { turns: [] } })),
      launchHeadlessChromium(),
    ]);
    const passwordHash = await hashPassword(PASSWORD);
    for (const username of ['ana', 'bruno']) {
      const { person } = await createPerson(served.forja.database, { username, passwordHash });
      if (username === 'ana') ana = person;
      const { secret, hash } = newSecret(TOKEN_PREFIX);
      await insertApiToken(served.forja.database, {
        personId: person.id,
        name: 'setup',
        secretHash: hash,
      });
      tokens.set(username, secret);
    }
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
  }, 60_000);

  /** Setup through the API with the person's token, in-process. */
  async function as<T = { id: string }>(
    username: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${tokens.get(username)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const response = await served.forja.app.request(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  it('signs in, shows only her projects, lets her add a member and approve an action recorded with her id', async () => {
    const mine = await as('ana', 'POST', '/api/projects', { name: "Ana's bakery" });
    const theirs = await as('bruno', 'POST', '/api/projects', { name: "Bruno's secret" });
    const session = await as('ana', 'POST', `/api/projects/${mine.id}/sessions`, {
      title: 'Careful commands',
    });
    const actionId = randomUUID();
    const proposed = {
      type: 'action.proposed',
      actor: 'tester',
      payload: {
        v: 1,
        action_id: actionId,
        tool_call_id: `call-${actionId}`,
        agent: 'tester',
        tool: 'terminal',
        args: { command: 'npm test' },
      },
    };
    expect((await served.forja.eventLog.append(session.id, [proposed])).success).toBe(true);

    const { page, errors } = await chromium.newPage();
    await page.goto(served.url);
    await page.getByTestId('sign-in-page').waitFor();
    await page.getByTestId('sign-in-username').fill('ana');
    await page.getByTestId('sign-in-password').fill('not her password');
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('error-message').filter({ hasText: 'Wrong name or password' }).waitFor();
    await page.getByTestId('sign-in-password').fill(PASSWORD);
    await page.getByTestId('sign-in-submit').click();

    await page.locator('[data-testid="signed-in-as"]', { hasText: 'ana' }).waitFor();
    await page.locator(`[data-testid="project-link"][data-project-id="${mine.id}"]`).waitFor();
    expect(await page.getByTestId('project-link').count()).toBe(1);
    expect(await page.getByTestId('project-list').textContent()).not.toContain("Bruno's secret");
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.locator(`[data-testid="project-link"][data-project-id="${mine.id}"]`).click();
    await page.locator('[data-testid="member"][data-username="ana"][data-role="owner"]').waitFor();
    await page.getByTestId('member-username-input').fill('bruno');
    await page.getByTestId('add-member').click();
    await page
      .locator('[data-testid="member"][data-username="bruno"][data-role="member"]')
      .waitFor();

    await page.goto(`${served.url}/sessions/${session.id}`);
    const action = page.locator(`[data-testid="pending-action"][data-action-id="${actionId}"]`);
    await action.getByTestId('approve-action').click();
    await page
      .locator(
        `[data-testid="pending-action"][data-action-id="${actionId}"][data-status="approved"]`,
      )
      .waitFor();
    const events = await served.forja.eventLog.read(session.id);
    expect(events.find((event) => event.type === 'action.approved')?.actor).toBe(ana.id);

    await page.goto(`${served.url}/projects/${theirs.id}`);
    // Each panel of the project page that asked says so (the budget and the members panel alike).
    await page
      .getByTestId('error-message')
      .filter({ hasText: `No project with id ${theirs.id}` })
      .first()
      .waitFor();

    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-page').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
