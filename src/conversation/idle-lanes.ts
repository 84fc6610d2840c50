import { devBlocks, standingFinishes } from '../agents/index.ts';
import type { ConversationState, SessionEvent } from '../domain/conversation/index.ts';
import { pendingLaneWork } from './lane-work.ts';

/** A task of the backlog as the idle-lane rule reads it. */
export type LaneTask = { id: string; title: string; module: string };

/** A dev lane with nothing to do while its module is unfinished: the person may nudge it. */
export interface IdleLane {
  agent: string;
  module: string;
  /** The module's tasks whose finish does not stand, in backlog order. */
  unfinished: Array<{ id: string; title: string }>;
}

/** Why a lane is not idle, in words a refusal can name; null when it is. */
export type NotIdleReason =
  | 'not a dev lane of this session'
  | 'its turn is running'
  | 'it owes a turn already'
  | 'it waits for an answer to its block'
  | 'every task of its module is finished';

/**
 * The dev lanes of an active session that sit idle while their module is unfinished (oldest activation first):
 * activated, no turn running, no turn owed (`pendingLaneWork`: a message, an unblock, a changed view, …),
 * no open block, and a task of the module whose finish does not stand. Such a lane will not move by itself —
 * after a restart, a model that ended its turn without finishing — and "Needs you" offers to nudge it. Pure.
 */
export function idleLanes(
  state: ConversationState,
  events: readonly SessionEvent[],
  tasks: readonly LaneTask[],
  hasRuntime: (agent: string) => boolean,
): IdleLane[] {
  if (state.ended_at_seq !== null) return [];
  const finished = standingFinishes(events);
  const blocks = devBlocks(events);
  return state.active_agents.flatMap(({ agent }) => {
    if (!agent.startsWith('dev:')) return [];
    const reason = notIdleReason(state, events, agent, { tasks, finished, blocks, hasRuntime });
    if (reason !== null) return [];
    const module = agent.slice('dev:'.length);
    const unfinished = tasks
      .filter((task) => task.module === module && !finished.has(task.id))
      .map(({ id, title }) => ({ id, title }));
    return [{ agent, module, unfinished }];
  });
}

/** Why `agent`'s lane is not idle (see `idleLanes`), or null when it is. Pure. */
export function notIdleReason(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
  known: {
    tasks: readonly LaneTask[];
    finished?: ReadonlyMap<string, unknown>;
    blocks?: ReturnType<typeof devBlocks>;
    hasRuntime: (agent: string) => boolean;
  },
): NotIdleReason | null {
  if (!agent.startsWith('dev:') || !state.active_agents.some((active) => active.agent === agent))
    return 'not a dev lane of this session';
  if (state.turns_in_progress.some((turn) => turn.agent === agent)) return 'its turn is running';
  if (pendingLaneWork(state, events, agent, known.hasRuntime) !== null)
    return 'it owes a turn already';
  const blocks = known.blocks ?? devBlocks(events);
  if (blocks.some((block) => block.agent === agent && block.status !== 'unblocked'))
    return 'it waits for an answer to its block';
  const finished = known.finished ?? standingFinishes(events);
  const module = agent.slice('dev:'.length);
  if (!known.tasks.some((task) => task.module === module && !finished.has(task.id)))
    return 'every task of its module is finished';
  return null;
}

/**
 * The message a nudge stores for the dev, in the agents' language: what is left of its module, and what to do
 * when something stops it (ask, or report the block) rather than end its turn again.
 */
export function nudgeText(lane: IdleLane): string {
  return [
    `A pessoa pede que você continue o módulo ${lane.module}: ainda faltam estas tarefas.`,
    ...lane.unfinished.map((task) => `- ${task.id} — ${task.title}`),
    'Continue pela primeira que ainda não terminou e encerre cada uma com finish_task. Se algo te impede, diga o quê com report_blocked ou ask_person em vez de encerrar o turno.',
  ].join('\n');
}
