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

/** The backlog, epic by epic, with each task's module when it has one. */
export function renderBacklog(backlog: Backlog, options: { criteria?: boolean } = {}): string {
  if (backlog.epics.length + backlog.stories.length + backlog.tasks.length === 0)
    return '## Backlog\n(vazio)';
  const lines = ['## Backlog'];
  const criteria = (items: readonly string[]) =>
    options.criteria ? items.map((item) => `    - critério: ${item}`) : [];
  for (const epic of backlog.epics) lines.push(`- ${epic.id} ${epic.title}`);
  for (const story of backlog.stories)
    lines.push(
      `  - ${story.id} (${story.epic_id}) ${story.title}`,
      ...criteria(story.acceptance_criteria),
    );
  for (const task of backlog.tasks)
    lines.push(
      `    - ${task.id} (${task.story_id}) ${task.title} — módulo: ${task.module ?? '(sem módulo)'}`,
      ...criteria(task.acceptance_criteria),
    );
  return lines.join('\n');
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
