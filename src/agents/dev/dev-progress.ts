import type { ConversationState, SessionEvent } from '../../domain/conversation/index.ts';
import { devBlocks, type DevBlock } from './dev-blocks.ts';
import { DEV_EVENT_TYPES, DevTaskFinishedPayloadSchema } from '../../domain/line/index.ts';

/** Where one dev agent of the session stands: its handoff, its blocks and the tasks it committed. */
export interface DevProgress {
  agent: string;
  module: string;
  handoff: { id: string; status: string } | null;
  active: boolean;
  /** Each block with who resolves it: `open` (the Arquiteto's), `needs_person` when its turn did not resolve it. */
  blocks: Array<
    Pick<
      DevBlock,
      'seq' | 'created_at' | 'kind' | 'modulo' | 'falta' | 'status' | 'resolution' | 'needs_person'
    >
  >;
  finished: Array<{
    seq: number;
    created_at: string;
    task_id: string;
    summary: string;
    branch: string;
    commit: string;
    files: string[];
  }>;
}

/** Folds the session's dev handoffs and `dev.*` events into one entry per dev agent, in the order offered. */
export function devProgress(
  state: ConversationState,
  events: readonly SessionEvent[],
): DevProgress[] {
  const byAgent = new Map<string, DevProgress>();
  const entry = (agent: string) => {
    if (!byAgent.has(agent))
      byAgent.set(agent, {
        agent,
        module: agent.slice('dev:'.length),
        handoff: null,
        active: false,
        blocks: [],
        finished: [],
      });
    return byAgent.get(agent)!;
  };
  for (const handoff of state.handoffs)
    if (handoff.to_agent.startsWith('dev:'))
      entry(handoff.to_agent).handoff = { id: handoff.id, status: handoff.status };
  for (const active of state.active_agents)
    if (active.agent.startsWith('dev:')) entry(active.agent).active = true;
  for (const event of events) {
    const where = { seq: event.seq, created_at: event.created_at };
    if (event.type === DEV_EVENT_TYPES.taskFinished) {
      const parsed = DevTaskFinishedPayloadSchema.safeParse(event.payload);
      if (parsed.success) {
        const { task_id, summary, branch, commit, files } = parsed.data;
        entry(parsed.data.agent).finished.push({
          ...where,
          task_id,
          summary,
          branch,
          commit,
          files,
        });
      }
    }
  }
  for (const block of devBlocks(events)) {
    const { seq, created_at, kind, modulo, falta, status, resolution, needs_person } = block;
    entry(block.agent).blocks.push({
      seq,
      created_at,
      kind,
      modulo,
      falta,
      status,
      resolution,
      needs_person,
    });
  }
  return [...byAgent.values()];
}
