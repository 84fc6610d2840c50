import {
  readDoneTaskIds,
  readEarlierSessions,
  readProjectArchitecture,
  readProjectBacklog,
} from '../../store/index.ts';
import type { LineDependencies } from './line-dependencies.ts';
import { renderEarlierSessions } from './render-earlier-sessions.ts';
import { renderBacklog, renderModuleMapSummary } from './render-line-context.ts';
import { renderRepositorySurvey } from './render-repository-survey.ts';

/**
 * What a project already has, for Criativo in a session that continues it (ADR 0416): the backlog with what
 * is done, the module map, the briefs and decisions of the project's other sessions, and the survey of
 * `main` (last: the first cut when over budget). Null when the project has none of them.
 */
export async function renderExistingWork(
  dependencies: Pick<LineDependencies, 'database' | 'survey'>,
  scope: { projectId: string; sessionId: string },
): Promise<string | null> {
  const { projectId } = scope;
  const [backlog, architecture, done, earlier, survey] = await Promise.all([
    readProjectBacklog(dependencies.database, projectId),
    readProjectArchitecture(dependencies.database, projectId),
    readDoneTaskIds(dependencies.database, projectId),
    readEarlierSessions(dependencies.database, projectId, scope.sessionId),
    dependencies.survey?.(projectId) ?? null,
  ]);
  const earlierSessions = renderEarlierSessions(earlier);
  const repository = renderRepositorySurvey(survey);
  const hasBacklog = backlog.epics.length + backlog.stories.length + backlog.tasks.length > 0;
  const map = architecture.module_map?.data ?? null;
  if (!hasBacklog && map === null && earlierSessions === null && repository === null) return null;
  return [
    '## O que o projeto já tem',
    'Esta sessão continua um projeto: a ideia nova parte do que já existe.',
    ...(hasBacklog ? [renderBacklog(backlog, { done })] : []),
    ...(map === null ? [] : [renderModuleMapSummary(map)]),
    ...(earlierSessions === null ? [] : [earlierSessions]),
    ...(repository === null ? [] : [repository]),
  ].join('\n\n');
}
