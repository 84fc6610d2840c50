import type { PromptSources } from '../agents/runtime/build-system-prompt.ts';
import type { HandoffCommand } from '../domain/handoffs/index.ts';
import { confirmReadiness } from './confirm-readiness.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { transitionHandoff } from './handoff-transition.ts';
import { postMessage } from './post-message.ts';
import { resolveAction } from './resolve-action.ts';
import { resumeInterruptedTurns } from './resume-interrupted-turns.ts';
import { startAgent } from './start-agent.ts';

/** The conversation use cases, bound to their dependencies: what the HTTP routes call. */
export function createConversationService(dependencies: ConversationDependencies, prompts: PromptSources) {
  return {
    postMessage: (sessionId: string, text: string) => postMessage(dependencies, sessionId, text),
    startAgent: (sessionId: string, agent: string) => startAgent(dependencies, sessionId, agent),
    confirmReadiness: (sessionId: string) => confirmReadiness(dependencies, prompts, sessionId),
    transitionHandoff: (handoffId: string, command: HandoffCommand) => transitionHandoff(dependencies, handoffId, command),
    resolveAction: (actionId: string, answer: { approve: true } | { approve: false; reason?: string }) => resolveAction(dependencies, actionId, answer),
    resumeInterruptedTurns: () => resumeInterruptedTurns(dependencies),
    /** Resolves when the session's queued work (turns in particular) has finished. */
    idle: (sessionId: string) => dependencies.queue.idle(sessionId),
    drain: () => dependencies.queue.drain(),
    views: dependencies.views,
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
