import { readDoneTaskIds, readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';
import type { LineDependencies } from './line-dependencies.ts';
import { renderBacklog, renderModuleMapSummary } from './render-line-context.ts';
import { renderRepositorySurvey } from './render-repository-survey.ts';

/**
 * What a project already has, for Criativo in a session that continues it (ADR 0416): the backlog with what
 * is done, the module map, and the survey of `main`. Null when the project has none of them.
 */
export async function renderExistingWork(
  dependencies: Pick<LineDependencies, 'database' | 'survey'>,
  projectId: string,
): Promise<string | null> {
  const [backlog, architecture, done, survey] = await Promise.all([
    readProjectBacklog(dependencies.database, projectId),
    readProjectArchitecture(dependencies.database, projectId),
    readDoneTaskIds(dependencies.database, projectId),
    dependencies.survey?.(projectId) ?? null,
  ]);
  const repository = renderRepositorySurvey(survey);
  const hasBacklog = backlog.epics.length + backlog.stories.length + backlog.tasks.length > 0;
  const map = architecture.module_map?.data ?? null;
  if (!hasBacklog && map === null && repository === null) return null;
  return [
    '## O que o projeto já tem',
    'Esta sessão continua um projeto: a ideia nova parte do que já existe.',
    ...(hasBacklog ? [renderBacklog(backlog, { done })] : []),
    ...(map === null ? [] : [renderModuleMapSummary(map)]),
    ...(repository === null ? [] : [repository]),
  ].join('\n\n');
}
