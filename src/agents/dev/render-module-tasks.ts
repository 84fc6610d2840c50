import type { ModuleMap } from '../../domain/architecture/index.ts';
import type { Backlog } from '../../domain/artifacts/index.ts';

/** The dev's module as the map declares it, and its tasks in full with their stories. */
export function renderModuleTasks(module: string, map: ModuleMap | null, backlog: Backlog): string {
  const entry = map?.modules.find((candidate) => candidate.name === module);
  const header =
    entry === undefined
      ? [`## Módulo ${module}`, '(o módulo não está no mapa de módulos atual)']
      : [
          `## Módulo ${module} [${entry.stack}]`,
          entry.responsibility,
          `Depende de: ${entry.dependsOn.join(', ') || '(nada)'}`,
        ];
  const tasks = backlog.tasks.filter((task) => task.module === module);
  if (tasks.length === 0)
    return [...header, '', '## Suas tarefas', '(nenhuma tarefa atribuída a este módulo)'].join(
      '\n',
    );
  const storyOf = (id: string) => backlog.stories.find((story) => story.id === id);
  const taskLines = tasks.flatMap((task) => {
    const story = storyOf(task.story_id);
    return [
      `### ${task.id} — ${task.title}`,
      `História ${task.story_id}${story === undefined ? '' : `: ${story.title}`}`,
      task.description,
      ...task.acceptance_criteria.map((criterion) => `- critério: ${criterion}`),
    ];
  });
  return [...header, '', '## Suas tarefas', ...taskLines].join('\n');
}
