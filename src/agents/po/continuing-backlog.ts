import type { Backlog } from '../../domain/artifacts/index.ts';

/** The next free number of an id family (`EP-`, `HS-`, `AT-`) after every id the backlog has. Pure. */
export function nextBacklogId(ids: readonly string[], prefix: 'EP' | 'HS' | 'AT'): string {
  const numbers = ids
    .filter((id) => id.startsWith(`${prefix}-`))
    .map((id) => Number.parseInt(id.slice(prefix.length + 1), 10))
    .filter(Number.isFinite);
  const next = (numbers.length === 0 ? 0 : Math.max(...numbers)) + 1;
  return `${prefix}-${String(next).padStart(3, '0')}`;
}

/**
 * The PO's note in a session that continues a project (ADR 0416): the backlog is the project's, the done
 * tasks stay as they are, and new work takes new ids from the next free ones. Pure.
 */
export function continuingBacklogNote(backlog: Backlog, done: ReadonlySet<string>): string {
  const doneIds = backlog.tasks.filter((task) => done.has(task.id)).map((task) => task.id);
  return [
    'Este projeto já tem trabalho feito: o backlog acima é o do projeto, e as tarefas marcadas "feita (já em main)" não são redeclaradas.',
    `Feitas: ${doneIds.join(', ') || '(nenhuma)'}.`,
    `Para o trabalho novo, use ids novos a partir de ${nextBacklogId(
      backlog.epics.map((epic) => epic.id),
      'EP',
    )}, ${nextBacklogId(
      backlog.stories.map((story) => story.id),
      'HS',
    )} e ${nextBacklogId(
      backlog.tasks.map((task) => task.id),
      'AT',
    )} (um épico ou história existente pode receber tarefas novas).`,
  ].join('\n');
}
