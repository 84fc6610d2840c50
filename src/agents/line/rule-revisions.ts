import {
  artifactEventType,
  BUSINESS_RULE_TYPE,
  currentBacklog,
} from '../../domain/artifacts/index.ts';
import {
  EVENT_TYPES,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import { previousTurnStart } from '../dev/view-changes.ts';

/** The agents downstream of a rule that a revision owes a turn: the PO's stories, the Arquiteto's contracts. */
export const TOLD_OF_RULE_REVISIONS = ['po', 'arquiteto'] as const;

const RULE_EVENT = artifactEventType(BUSINESS_RULE_TYPE);

type Revision = { readonly event: SessionEvent; readonly supersedes: string };

const supersedesOf = (event: { type: string; payload: unknown }): string | null => {
  if (event.type !== RULE_EVENT) return null;
  const supersedes = (event.payload as { supersedes?: unknown } | null)?.supersedes;
  return typeof supersedes === 'string' ? supersedes : null;
};

/** Whether the event records a new version of a business rule (`revise_rule`). Pure. */
export const isRuleRevision = (event: { type: string; payload: unknown }): boolean =>
  supersedesOf(event) !== null;

/** The log's rule revisions (`artifact.business_rule` with `supersedes`), in log order. Pure. */
function revisionsOf(events: readonly SessionEvent[]): Revision[] {
  return events.flatMap((event) => {
    const supersedes = supersedesOf(event);
    return supersedes === null ? [] : [{ event, supersedes }];
  });
}

/**
 * The PO and the Arquiteto, when they have had a turn and a rule was revised by another agent after their last
 * turn started: each is owed a turn told what changed (the PO re-declares the stories that follow the rule,
 * the Arquiteto sees whether a contract or a task does). Read from the log alone, so it runs once after a
 * restart: the turn it is owed moves its last start past the revision. Pure.
 */
export function ruleRevisionTurnsOwed(events: readonly SessionEvent[]): string[] {
  const revisions = revisionsOf(events);
  if (revisions.length === 0) return [];
  const lastStart = new Map<string, number>();
  for (const event of events) {
    if (event.type !== EVENT_TYPES.turnStarted) continue;
    const agent = (event.payload as { agent?: unknown }).agent;
    if (typeof agent === 'string') lastStart.set(agent, event.seq);
  }
  return TOLD_OF_RULE_REVISIONS.filter((agent) => {
    const since = lastStart.get(agent);
    return (
      since !== undefined &&
      revisions.some(({ event }) => event.seq > since && event.actor !== agent)
    );
  });
}

/**
 * The part of `agent`'s task state about the rules revised since its previous turn by someone else: each rule
 * before and after, who revised it from which of the person's messages, and what the agent does about it —
 * for the PO, the stories whose epics cite the rule (re-declare them), for the Arquiteto, its contracts and
 * tasks. Null when no rule was revised since or the agent had no earlier turn.
 */
export function renderRuleRevisions(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
): string | null {
  const since = previousTurnStart(state, events, agent);
  if (since === undefined) return null;
  const revisions = revisionsOf(events).filter(
    ({ event }) => event.seq > since && event.actor !== agent,
  );
  if (revisions.length === 0) return null;
  const rules = [...state.business_rules, ...state.superseded_rules];
  const byId = new Map(rules.map((rule) => [rule.event_id, rule]));
  const lines = revisions.flatMap(({ event, supersedes }) => {
    const before = byId.get(supersedes);
    const after = byId.get(event.id);
    if (before === undefined || after === undefined) return [];
    const cited = (after.origin ?? []).map((seq) => `#${seq}`).join(', ');
    return [
      `- "${after.title}" (regra #${after.seq}, id ${after.event_id}; substitui a regra #${before.seq}, id ${before.event_id}), revisada por ${event.actor} a partir de ${cited}: antes "${before.statement}"; agora "${after.statement}"`,
      ...(agent === 'po' ? affectedStories(events, chainOf(rules, after.event_id)) : []),
    ];
  });
  if (lines.length === 0) return null;
  return [
    'Regras revisadas pela pessoa desde o seu último turno (a versão anterior não vale mais):',
    ...lines,
    agent === 'po'
      ? 'Re-declare com declare_backlog (mesmos ids) as histórias e os épicos afetados, para seguirem a regra nova e citarem o id novo em business_rule_refs; o brief já cita a versão nova.'
      : 'Veja se contratos, mapa ou tarefas dependem da regra; se sim, declare a nova versão (os devs recebem a mudança).',
  ].join('\n');
}

/** Every id the rule has had: `id` and the versions it replaced, transitively. */
function chainOf(
  rules: ReadonlyArray<{ event_id: string; supersedes: string | null }>,
  id: string,
): Set<string> {
  const ids = new Set<string>();
  let current: string | null = id;
  while (current !== null && !ids.has(current)) {
    ids.add(current);
    const rule = rules.find((each) => each.event_id === current);
    current = rule?.supersedes ?? null;
  }
  return ids;
}

/** The PO's lines naming the stories under epics that cite any version of the rule. */
function affectedStories(events: readonly SessionEvent[], ids: ReadonlySet<string>): string[] {
  const backlog = currentBacklog(events);
  const epics = backlog.epics.filter((epic) => epic.business_rule_refs.some((ref) => ids.has(ref)));
  if (epics.length === 0)
    return [
      '  nenhum épico cita esta regra: procure no backlog as histórias que dependem dela e re-declare-as',
    ];
  const cited = new Set(epics.map((epic) => epic.id));
  const stories = backlog.stories.filter((story) => cited.has(story.epic_id));
  return [
    `  épicos que a citam: ${epics.map((epic) => `${epic.id} — ${epic.title}`).join('; ')}`,
    `  histórias afetadas: ${stories.length === 0 ? '(nenhuma)' : stories.map((story) => `${story.id} — ${story.title}`).join('; ')}`,
  ];
}
