import pino from 'pino';
import { createForja, type Forja, type ForjaOptions } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import type { TestDatabaseEngine } from '../store/testing/test-databases.ts';

/** A Forja wired on a fresh test database, with silent logs, driven in-process through `app.request`. */
export async function startTestForja(
  engine: TestDatabaseEngine,
  options: Omit<ForjaOptions, 'database'> = {},
): Promise<Forja> {
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    ...options,
    database,
  });
  return {
    ...forja,
    close: async () => {
      await forja.close();
      await database.close();
    },
  };
}

/** Sends JSON (or a raw string body) to the app and returns status and parsed body. */
export async function requestJson(
  forja: Forja,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const init: RequestInit = {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
  };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await forja.app.request(path, init);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as any) : null,
    headers: response.headers,
  };
}
