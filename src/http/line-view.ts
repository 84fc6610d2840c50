import { sessionLine } from '../agents/index.ts';
import type { SessionEvent } from '../domain/conversation/index.ts';
import type { AppDependencies } from './app-dependencies.ts';

/**
 * A session's line as every client reads it (`GET /api/sessions/:id/line`, MCP's `read_session`): each module's
 * state, and once merged into main, where the person gets it — the repository on the server and the path of its
 * read-only git smart HTTP on this server (ADR 0356).
 */
export async function lineView(
  dependencies: Pick<AppDependencies, 'database' | 'workspaceDirectory'>,
  projectId: string,
  events: readonly SessionEvent[],
) {
  const line = await sessionLine(dependencies.database, projectId, events);
  const merged = line.merged_into_main !== null;
  return {
    ...line,
    workspace_path: merged ? dependencies.workspaceDirectory(projectId) : null,
    clone_path: merged ? `/git/${projectId}.git` : null,
  };
}
