import type { Forja } from '../composition.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import type { TestDatabaseEngine } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from './forja-harness.ts';
import type { ForjaOptions } from '../composition.ts';

/** A Forja on a fresh test database whose model is the given script. */
export async function startScriptedForja(
  engine: TestDatabaseEngine,
  script: ScriptInput,
  options: Omit<ForjaOptions, 'database' | 'provider'> = {},
) {
  const provider = createScriptedProvider({ script });
  const forja = await startTestForja(engine, { ...options, provider });
  return { forja, provider };
}

/** Creates a project and a session through the API; returns their ids. */
export async function newSessionThroughApi(
  forja: Forja,
): Promise<{ projectId: string; sessionId: string }> {
  const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
  const session = await requestJson(forja, 'POST', `/api/projects/${project.body.id}/sessions`, {
    title: 'Ideia',
  });
  return { projectId: project.body.id, sessionId: session.body.id };
}

/** The session's events as `[seq, type]`, for compact assertions. */
export async function eventTypes(
  forja: Forja,
  sessionId: string,
): Promise<Array<[number, string]>> {
  return (await forja.eventLog.read(sessionId)).map((event) => [event.seq, event.type]);
}
