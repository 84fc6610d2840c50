import { EVENT_TYPES, type SessionEvent } from '../../domain/conversation/index.ts';
import { DEV_EVENT_TYPES, LINE_EVENT_TYPES } from '../../domain/line/index.ts';

export type ModuleLineState =
  | 'not_started'
  | 'working'
  | 'blocked'
  | 'finished'
  | 'merged'
  | 'conflict'
  | 'failed';

export interface ModuleLine {
  module: string;
  branch: string;
  state: ModuleLineState;
  last_check: { command: string; source: string; exit_code: number; duration_ms: number } | null;
  merged_commit: string | null;
  failure: { kind: 'conflict' | 'check'; paths?: string[]; output?: string; seq: number } | null;
}

/** Each module of `modules` (in the map's dependency order) as the log has it. Pure. */
export function lineModules(
  events: readonly SessionEvent[],
  modules: readonly string[],
  openBlocksOf: (module: string) => number,
): ModuleLine[] {
  const lines = new Map(
    modules.map((module) => [
      module,
      {
        module,
        branch: `dev-${module}`,
        state: 'not_started' as ModuleLineState,
        last_check: null,
        merged_commit: null,
        failure: null,
      } as ModuleLine,
    ]),
  );
  for (const event of events) {
    const payload = event.payload as Record<string, unknown>;
    const started = startedModule(event);
    const activated = started === null ? undefined : lines.get(started);
    if (activated?.state === 'not_started') activated.state = 'working';
    const line = typeof payload['module'] === 'string' ? lines.get(payload['module']) : undefined;
    if (line === undefined) continue;
    if (event.type === DEV_EVENT_TYPES.taskFinished) {
      line.last_check =
        (payload['check'] as ModuleLine['last_check'] | undefined) ?? line.last_check;
      line.state = 'finished';
      line.failure = null;
    } else if (event.type === LINE_EVENT_TYPES.mergeFailed) {
      const kind = payload['kind'] === 'conflict' ? 'conflict' : 'check';
      line.state = kind === 'conflict' ? 'conflict' : 'failed';
      line.failure = {
        kind,
        seq: event.seq,
        ...(Array.isArray(payload['paths']) ? { paths: payload['paths'] as string[] } : {}),
        ...(typeof payload['output'] === 'string' ? { output: payload['output'] } : {}),
      };
    } else if (event.type === LINE_EVENT_TYPES.merged) {
      line.state = 'merged';
      line.merged_commit = String(payload['commit']);
      line.failure = null;
    }
  }
  for (const line of lines.values())
    if (line.state === 'working' && openBlocksOf(line.module) > 0) line.state = 'blocked';
  return [...lines.values()];
}

/** The module whose dev this event starts (its `agent.activated`), or null. */
function startedModule(event: SessionEvent): string | null {
  if (event.type !== EVENT_TYPES.agentActivated) return null;
  const agent = (event.payload as { agent?: unknown }).agent;
  return typeof agent === 'string' && agent.startsWith('dev:') ? agent.slice('dev:'.length) : null;
}

/** The dev's part of its task state when its merge was refused after its last finished task. */
export function renderReopened(events: readonly SessionEvent[], module: string): string | null {
  const line = lineModules(events, [module], () => 0)[0]!;
  if (line.failure === null) return null;
  if (line.failure.kind === 'conflict') {
    return `Reaberto: o merge de dev-${module} em dev deu conflito em ${line.failure.paths!.join(', ')} — outro módulo já escreveu esse caminho. Mude o seu trabalho para não escrever nele (ou combine pelo contrato) e chame finish_task de novo.`;
  }
  return `Reaberto: a verificação de integração em dev falhou depois do merge de dev-${module}:\n${line.failure.output}\nCorrija no seu worktree e chame finish_task de novo.`;
}

/** Whether the person may merge the line into main now, decided from the log alone. Pure. */
export function mergeIntoMainDecision(
  events: readonly SessionEvent[],
):
  | { ok: true; devCommit: string }
  | { ok: false; code: 'line_not_completed' | 'already_merged_into_main'; message: string } {
  const done = events.find((event) => event.type === LINE_EVENT_TYPES.mergedIntoMain);
  if (done !== undefined)
    return {
      ok: false,
      code: 'already_merged_into_main',
      message: `refused by the rule "the line is merged into main once": it was merged at seq ${done.seq} (main's merge commit ${String((done.payload as { commit: unknown }).commit)}); nothing was merged`,
    };
  const completed = events.filter((event) => event.type === LINE_EVENT_TYPES.completed).at(-1);
  if (completed === undefined)
    return {
      ok: false,
      code: 'line_not_completed',
      message:
        'refused by the rule "main takes dev only after line.completed": not every module with tasks is merged into dev with its integration check yet (see GET /api/sessions/:id/line); nothing was merged',
    };
  return { ok: true, devCommit: String((completed.payload as { commit: unknown }).commit) };
}
