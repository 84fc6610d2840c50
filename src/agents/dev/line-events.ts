import {
  readEventOf,
  readSessionEvent,
  type TypedSessionEvent,
} from '../../domain/contract/index.ts';
import type { SessionEvent } from '../../domain/conversation/index.ts';
import { LINE_EVENT_TYPES } from '../../domain/line/index.ts';

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
  for (const row of events) {
    const reading = readSessionEvent(row);
    if (reading.kind === 'typed') applyLineEvent(lines, reading.event);
  }
  for (const line of lines.values())
    if (line.state === 'working' && openBlocksOf(line.module) > 0) line.state = 'blocked';
  return [...lines.values()];
}

/** One event into the modules' lines: a dev started, finished, merged or refused. */
function applyLineEvent(
  lines: ReadonlyMap<string, ModuleLine>,
  event: TypedSessionEvent<SessionEvent>,
): void {
  switch (event.type) {
    case 'agent.activated': {
      const { agent } = event.payload;
      const line = agent.startsWith('dev:') ? lines.get(agent.slice('dev:'.length)) : undefined;
      if (line?.state === 'not_started') line.state = 'working';
      return;
    }
    case 'dev.task_finished': {
      const line = lines.get(event.payload.module);
      if (line === undefined) return;
      line.last_check = event.payload.check ?? line.last_check;
      line.state = 'finished';
      line.failure = null;
      return;
    }
    case 'module.merge_failed': {
      const line = lines.get(event.payload.module);
      if (line === undefined) return;
      const { payload } = event;
      line.state = payload.kind === 'conflict' ? 'conflict' : 'failed';
      line.failure =
        payload.kind === 'conflict'
          ? { kind: 'conflict', seq: event.seq, paths: [...payload.paths] }
          : { kind: 'check', seq: event.seq, output: payload.output };
      return;
    }
    case 'module.merged': {
      const line = lines.get(event.payload.module);
      if (line === undefined) return;
      line.state = 'merged';
      line.merged_commit = event.payload.commit;
      line.failure = null;
      return;
    }
  }
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
      message: `refused by the rule "the line is merged into main once": it was merged at seq ${done.seq} (main's merge commit ${readEventOf('line.merged_into_main', done)?.payload.commit}); nothing was merged`,
    };
  const completed = events.filter((event) => event.type === LINE_EVENT_TYPES.completed).at(-1);
  if (completed === undefined)
    return {
      ok: false,
      code: 'line_not_completed',
      message:
        'refused by the rule "main takes dev only after line.completed": not every module with tasks is merged into dev with its integration check yet (see GET /api/sessions/:id/line); nothing was merged',
    };
  return { ok: true, devCommit: readEventOf('line.completed', completed)?.payload.commit ?? '' };
}
