import {
  EVENT_TYPES,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import {
  DEV_EVENT_TYPES,
  LINE_EVENT_TYPES,
  ModuleDependencyMergedPayloadSchema,
  type ModuleDependencyMergedPayload,
} from '../../domain/line/index.ts';
import { previousTurnStart } from './view-changes.ts';

const DEV_PREFIX = 'dev:';

/** Each `module.dependency_merged` of `module` after seq `since`, in order. */
function updatesSince(
  events: readonly SessionEvent[],
  module: string,
  since: number,
): Array<ModuleDependencyMergedPayload & { seq: number }> {
  return events.flatMap((event) => {
    if (event.seq <= since || event.type !== LINE_EVENT_TYPES.dependencyMerged) return [];
    const parsed = ModuleDependencyMergedPayloadSchema.safeParse(event.payload);
    return parsed.success && parsed.data.module === module
      ? [{ ...parsed.data, seq: event.seq }]
      : [];
  });
}

/**
 * The dev lanes owed a turn because a dependency's code was merged into their branch (or could not be) after
 * their last turn started, unless their module's work is finished and waits for its merge (that merge, or the
 * turn a failed one re-opens, follows) or was merged since. Only lanes that had a turn (they have a
 * worktree). Decided from the log alone, so a restart gives the turn once (ADR 0343).
 */
export function dependencyTurnsOwed(events: readonly SessionEvent[]): string[] {
  const lastStart = new Map<string, number>();
  const owed = new Set<string>();
  const done = new Set<string>();
  for (const event of events) {
    const payload = event.payload as { agent?: unknown; module?: unknown };
    if (event.type === EVENT_TYPES.turnStarted && typeof payload.agent === 'string') {
      lastStart.set(payload.agent, event.seq);
      owed.delete(payload.agent);
      continue;
    }
    if (typeof payload.module !== 'string') continue;
    const agent = `${DEV_PREFIX}${payload.module}`;
    if (event.type === LINE_EVENT_TYPES.dependencyMerged && lastStart.has(agent)) owed.add(agent);
    else if (event.type === DEV_EVENT_TYPES.taskFinished || event.type === LINE_EVENT_TYPES.merged)
      done.add(agent);
    else if (event.type === LINE_EVENT_TYPES.mergeFailed) done.delete(agent);
  }
  return [...owed].filter((agent) => !done.has(agent));
}

/** The dev's part of its task state when a dependency's code reached its worktree since its previous turn. */
export function renderDependencyUpdates(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
): string | null {
  const since = previousTurnStart(state, events, agent);
  if (since === undefined) return null;
  const module = agent.slice(DEV_PREFIX.length);
  const lines = updatesSince(events, module, since).map((update) => {
    const names = update.dependencies.join(', ');
    return update.commit !== undefined
      ? `- O código de ${names} (que o seu módulo usa) foi integrado em dev, e dev foi mesclado no seu branch dev-${module} (commit ${update.commit.slice(0, 12)}): esse código está agora no seu worktree. Use-o (e rode os testes que dependiam dele) em vez de simulá-lo.`
      : `- ${names} (que o seu módulo usa) foi integrado em dev, mas dev não pôde ser mesclado no seu branch: ${update.reason ?? 'sem motivo'}. Faça finish_task do que tem (o merge em dev junta os dois) ou descarte a mudança local que atrapalha.`;
  });
  return lines.length === 0 ? null : ['Dependências integradas:', ...lines].join('\n');
}
