import type { ModuleMap } from '../../domain/architecture/index.ts';
import type {
  ConversationState,
  RecordedBusinessRule,
  RecordedProductBrief,
} from '../../domain/conversation/index.ts';
import type { Backlog } from '../../domain/artifacts/index.ts';

/** The product brief as the line's agents read it (the `contexto_projeto` layer). */
export function renderBrief(brief: RecordedProductBrief | null): string {
  if (brief === null) return '## Product brief\n(nenhum product brief nesta sessão)';
  const { data } = brief;
  const list = (title: string, items: readonly string[]) =>
    items.length === 0 ? [] : [`${title}:`, ...items.map((item) => `- ${item}`)];
  return [
    `## Product brief: ${data.title} (v${data.version})`,
    data.summary,
    `Problema: ${data.problem}`,
    `Para quem: ${data.audience}`,
    ...list('Objetivos', data.goals),
    ...list('Fora do escopo', data.out_of_scope),
    ...list('Perguntas em aberto', data.open_questions),
  ].join('\n');
}

/** The ids an epic may cite in `business_rule_refs`: the rules' event ids. */
export function renderBusinessRuleIds(rules: readonly RecordedBusinessRule[]): string {
  if (rules.length === 0) return '## Regras de negócio (ids)\n(nenhuma regra registrada)';
  return [
    '## Regras de negócio (ids para business_rule_refs)',
    ...rules.map((rule) => `- ${rule.event_id}: ${rule.title}`),
  ].join('\n');
}

/** What a backlog rendering carries besides ids and titles: the PO's criteria and its descriptions. */
export interface BacklogDetail {
  criteria?: boolean;
  descriptions?: boolean;
  /** Tasks done by an earlier line merged into main (ADR 0416): marked, never taken again. */
  done?: ReadonlySet<string>;
}

/**
 * The backlog as a tree: each epic, its stories, their tasks (with each task's module), then anything whose
 * parent is not declared. With `descriptions` and `criteria`, every field the PO wrote its decisions in.
 */
export function renderBacklog(backlog: Backlog, options: BacklogDetail = {}): string {
  if (backlog.epics.length + backlog.stories.length + backlog.tasks.length === 0)
    return '## Backlog\n(vazio)';
  const detail = (indent: string, item: { description: string; acceptance_criteria: string[] }) => [
    ...(options.descriptions ? [indented(item.description, `${indent}  `)] : []),
    ...(options.criteria
      ? item.acceptance_criteria.map((criterion) => `${indent}  - critério: ${criterion}`)
      : []),
  ];
  const taskLines = (task: Backlog['tasks'][number]) => [
    `    - ${task.id} (${task.story_id}) ${task.title} — módulo: ${task.module ?? '(sem módulo)'}${task.split_from === undefined ? '' : ` (parte de ${task.split_from})`}${options.done?.has(task.id) ? ' — feita (já em main)' : ''}`,
    ...detail('    ', task),
  ];
  const storyLines = (story: Backlog['stories'][number]) => [
    `  - ${story.id} (${story.epic_id}) ${story.title}`,
    ...detail('  ', story),
    ...backlog.tasks.filter((task) => task.story_id === story.id).flatMap(taskLines),
  ];
  const epicIds = new Set(backlog.epics.map((epic) => epic.id));
  const storyIds = new Set(backlog.stories.map((story) => story.id));
  return [
    '## Backlog',
    ...backlog.epics.flatMap((epic) => [
      `- ${epic.id} ${epic.title}`,
      ...detail('', epic),
      ...backlog.stories.filter((story) => story.epic_id === epic.id).flatMap(storyLines),
    ]),
    ...backlog.stories.filter((story) => !epicIds.has(story.epic_id)).flatMap(storyLines),
    ...backlog.tasks.filter((task) => !storyIds.has(task.story_id)).flatMap(taskLines),
  ].join('\n');
}

/** Multi-line text under a list item: every line indented, blank lines dropped. */
export function indented(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .map((line) => `${indent}${line}`)
    .join('\n');
}

/** The module map in one line per module. */
export function renderModuleMapSummary(map: ModuleMap | null): string {
  if (map === null) return '## Mapa de módulos\n(nenhum mapa declarado)';
  return [
    `## Mapa de módulos (versão ${map.version})`,
    ...map.modules.map(
      (module) =>
        `- ${module.name} [${module.stack}]: ${module.responsibility} — depende de: ${module.dependsOn.join(', ') || '(nada)'}`,
    ),
  ].join('\n');
}

/**
 * The decisions of the session — the person's answers to the agents' questions and the decisions recorded with
 * `record_decision` — which the backlog, the architecture and the code follow; for an agent that records them,
 * the rule that no open question is decided in silence.
 */
export function renderDecisions(
  state: Pick<ConversationState, 'decisions' | 'questions'>,
  options: { records?: boolean } = {},
): string {
  const rule = options.records
    ? [
        'Nenhuma decisão silenciosa: cada pergunta em aberto do brief é respondida pela pessoa (ask_person) ou registrada com record_decision (question, answer, reason); as que você decidir sozinho aparecem para a pessoa no seu próximo handoff.',
      ]
    : [];
  const recorded = new Set(state.decisions.map((decision) => decision.question_id));
  const answers = state.questions
    .filter(
      (question) =>
        question.status === 'answered' &&
        !question.decide_yourself &&
        !recorded.has(question.question_id),
    )
    .map((question) => `- ${question.question} → ${question.answer} (decidido por: a pessoa)`);
  const decisions = state.decisions.map(
    (decision) =>
      `- ${decision.question} → ${decision.answer} (decidido por: ${decision.decided_by === 'person' ? 'a pessoa' : decision.decided_by}; motivo: ${decision.reason})`,
  );
  const listed = [...answers, ...decisions];
  return [
    '## Decisões (siga-as)',
    ...rule,
    ...(listed.length === 0 ? ['(nenhuma decisão registrada)'] : listed),
  ].join('\n');
}
