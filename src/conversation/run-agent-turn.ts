import { runToolLoop, type LoopResult } from '../agents/runtime/tool-loop.ts';
import { decide, type TurnKind } from '../domain/conversation/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';

export interface TurnRequest {
  sessionId: string;
  projectId: string;
  agent: string;
  kind: TurnKind;
}

export type TurnResult = LoopResult | { status: 'not_started'; reason: string };

/**
 * Opens a turn for an agent and runs its tool loop, in the session's queue. A turn that cannot start (the
 * agent is not active, another turn waits for an approval) is reported, not forced.
 */
export function runAgentTurn(dependencies: ConversationDependencies, request: TurnRequest): Promise<TurnResult> {
  return dependencies.queue.enqueue(request.sessionId, async () => {
    const agent = dependencies.catalog.get(request.agent);
    if (agent === null) return { status: 'not_started', reason: `no runtime for agent ${request.agent} in this process` };
    const view = await dependencies.views.load(request.sessionId);
    const decision = decide({ type: 'StartTurn', agent: request.agent, turn_id: dependencies.newId(), kind: request.kind }, view.state);
    if (!decision.ok) {
      dependencies.logger.info({ session_id: request.sessionId, agent: request.agent, reason: decision.reason }, 'turn not started');
      return { status: 'not_started', reason: decision.reason };
    }
    const appended = await dependencies.eventLog.append(request.sessionId, decision.events, { expectedSeq: view.state.last_seq });
    if (!appended.success) return { status: 'not_started', reason: appended.error.message };
    return continueTurn(dependencies, request.sessionId, request.projectId, request.agent);
  });
}

/** Runs (or resumes) the loop of the turn in progress; the caller holds the session's queue. */
export async function continueTurn(dependencies: ConversationDependencies, sessionId: string, projectId: string, agentSlug: string): Promise<TurnResult> {
  const agent = dependencies.catalog.get(agentSlug);
  if (agent === null) return { status: 'not_started', reason: `no runtime for agent ${agentSlug} in this process` };
  const view = await dependencies.views.load(sessionId);
  const module = agentSlug.startsWith('dev:') ? agentSlug.slice('dev:'.length) : null;
  const result = await runToolLoop(dependencies, agent, { projectId, sessionId, module, view });
  await dependencies.views.load(sessionId);
  return result;
}
