import { createSession, type Session } from '../store/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { runSessionHooks } from './run-session-hooks.ts';

/** `POST /api/projects/:id/sessions`: creates the session (`session.created` is seq 1), then fires `session_start`. */
export async function startSession(
  dependencies: ConversationDependencies,
  input: { projectId: string; title: string | null },
): Promise<Session> {
  const session = await createSession(dependencies.database, input);
  await runSessionHooks(dependencies, 'session_start', {
    session_id: session.id,
    project_id: session.project_id,
    title: session.title,
  });
  return session;
}
