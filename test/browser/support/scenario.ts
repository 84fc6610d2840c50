import type { Page } from 'playwright-core';
import type { ServedForja } from './served-forja.ts';

/** Calls the API of a served Forja in-process (setup the page does not need to show). */
export async function api<T = any>(
  served: ServedForja,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await served.forja.app.request(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A project and a session made through the API; returns the session id. */
export async function newSession(
  served: ServedForja,
  projectName: string,
  options: { budget?: number; startCriativo?: boolean } = {},
): Promise<string> {
  const project = await api(served, 'POST', '/api/projects', { name: projectName });
  if (options.budget !== undefined)
    await api(served, 'PUT', `/api/projects/${project.id}/budget`, { max_tokens: options.budget });
  const session = await api(served, 'POST', `/api/projects/${project.id}/sessions`, {
    title: projectName,
  });
  if (options.startCriativo)
    await api(served, 'POST', `/api/sessions/${session.id}/agents/criativo/start`);
  return session.id;
}

/** Types a message in the page's chat box and sends it. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByTestId('message-input').fill(text);
  await page.getByTestId('send-message').click();
}

/** `data-seq` of every element matching the selector, in page order. */
export function seqsOf(page: Page, selector: string): Promise<number[]> {
  return page
    .locator(selector)
    .evaluateAll((elements) => elements.map((element) => Number(element.getAttribute('data-seq'))));
}
