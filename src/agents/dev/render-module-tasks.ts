import { moduleCheck, type ModuleMap } from '../../domain/architecture/index.ts';
import type { Backlog } from '../../domain/artifacts/index.ts';

/**
 * The dev's module as the map declares it, and its tasks in full, each after the epic and the story it
 * belongs to (stated once): the epic's description, the story's description and acceptance criteria — what
 * a task's "as HS-004 defines" points to — then the task's own description and criteria.
 */
export function renderModuleTasks(module: string, map: ModuleMap | null, backlog: Backlog): string {
  const entry = map?.modules.find((candidate) => candidate.name === module);
  const header =
    entry === undefined
      ? [`## Módulo ${module}`, '(o módulo não está no mapa de módulos atual)']
      : [
          `## Módulo ${module} [${entry.stack}]`,
          entry.responsibility,
          `Depende de: ${entry.dependsOn.join(', ') || '(nada)'}`,
          checkLine(entry),
        ];
  const tasks = backlog.tasks.filter((task) => task.module === module);
  if (tasks.length === 0)
    return [...header, '', '## Suas tarefas', '(nenhuma tarefa atribuída a este módulo)'].join(
      '\n',
    );
  const shown = new Set<string>();
  const once = (id: string, lines: () => string[]) => {
    if (shown.has(id)) return [];
    shown.add(id);
    return lines();
  };
  const taskLines = tasks.flatMap((task) => {
    const story = backlog.stories.find((candidate) => candidate.id === task.story_id);
    const epic = backlog.epics.find((candidate) => candidate.id === story?.epic_id);
    return [
      ...(epic === undefined
        ? []
        : once(epic.id, () => [`### Épico ${epic.id} — ${epic.title}`, epic.description])),
      ...(story === undefined
        ? []
        : once(story.id, () => [
            `### História ${story.id} — ${story.title}`,
            story.description,
            ...story.acceptance_criteria.map((criterion) => `- critério da história: ${criterion}`),
          ])),
      `### ${task.id} — ${task.title} (história ${task.story_id})`,
      task.description,
      ...task.acceptance_criteria.map((criterion) => `- critério: ${criterion}`),
    ];
  });
  return [...header, '', '## Suas tarefas', ...taskLines].join('\n');
}

/** The check finish_task runs for the module: the map's, or the stack's default, or none. */
function checkLine(entry: ModuleMap['modules'][number]): string {
  const check = moduleCheck(entry);
  if (check === null) return 'Check: nenhum (o mapa não declara e a stack não tem padrão).';
  return `Check (finish_task o roda${check.source === 'declared' ? ', declarado no mapa' : ', padrão da stack'}): ${check.command}`;
}
