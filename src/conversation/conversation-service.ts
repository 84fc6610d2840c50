import type { SessionEndCompanion, PromptSources } from '../agents/index.ts';
import type { HandoffCommand } from '../domain/handoffs/index.ts';
import type { HypothesisAnswer } from '../memory/index.ts';
import { answerHypothesis } from './answer-hypothesis.ts';
import { confirmReadiness } from './confirm-readiness.ts';
import { regenerateAnswer, retryTurn, stopTurn } from './control-turns.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';
import { describeAgentContext } from './describe-agent-context.ts';
import { endSession } from './end-session.ts';
import { mergeLineIntoMain } from './merge-into-main.ts';
import { acceptInstructionFiles } from './accept-instruction-files.ts';
import { transitionHandoff } from './handoff-transition.ts';
import { postMessage } from './post-message.ts';
import { resolveAction } from './resolve-action.ts';
import { answerQuestion } from './answer-question.ts';
import { nudgeLane, sessionIdleLanes } from './nudge-lane.ts';
import type { GreetingLanguage, PersonReply } from '../domain/conversation/index.ts';
import { resumeInterruptedTurns } from './resume-interrupted-turns.ts';
import { createLaneTakeover } from './lane-takeover.ts';
import { startAgent } from './start-agent.ts';
import { startSession } from './start-session.ts';
import { acceptDevHandoffs } from './accept-dev-handoffs.ts';
import { startKickoffsAfterAction } from './kickoffs-after-action.ts';
import { startPendingKickoffs } from './start-pending-kickoffs.ts';
import { returnRejectedHandoffs } from './return-rejected-handoffs.ts';

/** The conversation use cases, bound to their dependencies: what the HTTP routes call. */
export function createConversationService(
  dependencies: ConversationDependencies,
  prompts: PromptSources,
  companions: readonly SessionEndCompanion[] = [],
) {
  return {
    /** Creates a session, then fires the `session_start` hooks. */
    startSession: (input: { projectId: string; title: string | null }) =>
      startSession(dependencies, input),
    postMessage: (sessionId: string, text: string, to?: string, actor?: string) =>
      postMessage(dependencies, sessionId, text, to, actor),
    startAgent: (sessionId: string, agent: string, actor?: string, language?: GreetingLanguage) =>
      startAgent(dependencies, sessionId, agent, actor, language),
    confirmReadiness: (
      sessionId: string,
      actor?: string,
      options?: { onStarted?: (turnId: string) => void },
    ) => confirmReadiness(dependencies, prompts, sessionId, actor, options),
    /**
     * Accepting a handoff activates its agent, whose kickoff turn then runs in the agent's lane; rejecting one
     * gives its sender a turn in its lane with the reason (ADR 0160).
     */
    transitionHandoff: async (handoffId: string, command: HandoffCommand) => {
      const outcome = await transitionHandoff(dependencies, handoffId, command);
      if (outcome.ok && command.type === 'accept')
        void startPendingKickoffs(dependencies, outcome.handoff.session_id);
      if (outcome.ok && command.type === 'reject')
        void returnRejectedHandoffs(dependencies, outcome.handoff.session_id);
      return outcome;
    },
    resolveAction: async (
      actionId: string,
      answer: { approve: true } | { approve: false; reason?: string },
      actor?: string,
    ) => {
      const outcome = await resolveAction(dependencies, actionId, answer, actor);
      if (outcome.ok) await startKickoffsAfterAction(dependencies, actionId);
      return outcome;
    },
    /** The person's answer to an agent's question; the asking lane goes on with it. */
    answerQuestion: (sessionId: string, questionId: string, reply: PersonReply, actor?: string) =>
      answerQuestion(dependencies, sessionId, questionId, reply, actor),
    /** The person's Stop, Retry and Regenerate on a turn (ADR 0220). */
    idleLanes: (sessionId: string) => sessionIdleLanes(dependencies, sessionId),
    nudgeLane: (sessionId: string, agent: string, actor?: string) =>
      nudgeLane(dependencies, sessionId, agent, actor),
    stopTurn: (sessionId: string, turnId: string, actor?: string) =>
      stopTurn(dependencies, sessionId, turnId, actor),
    retryTurn: (sessionId: string, turnId: string, actor?: string) =>
      retryTurn(dependencies, sessionId, turnId, actor),
    regenerateAnswer: (sessionId: string, turnId: string, actor?: string) =>
      regenerateAnswer(dependencies, sessionId, turnId, actor),
    acceptDevHandoffs: (sessionId: string, actor?: string) =>
      acceptDevHandoffs(dependencies, sessionId, actor),
    startPendingKickoffs: (sessionId: string) => startPendingKickoffs(dependencies, sessionId),
    /** The person's "Merge into main": once, after line.completed. */
    mergeLineIntoMain: (sessionId: string, actor?: string) =>
      mergeLineIntoMain(dependencies, sessionId, actor),
    /** The person accepts the instruction files the line's devs brought into main (ADR 0302). */
    acceptInstructionFiles: (sessionId: string, actor?: string) =>
      acceptInstructionFiles(dependencies, sessionId, actor),
    resumeInterruptedTurns: () => resumeInterruptedTurns(dependencies),
    /** Takes over the lanes of processes that stopped renewing their leases (ADR 0170; shared leases only). */
    takeOverOrphanedLanes: createLaneTakeover(dependencies),
    /** Ends the session (`session.ended`, reason classified) and runs the enabled companions after it. */
    endSession: (sessionId: string, actor?: string) =>
      endSession(dependencies, companions, sessionId, actor),
    answerHypothesis: (hypothesisId: string, answer: HypothesisAnswer, actor?: string) =>
      answerHypothesis(dependencies, hypothesisId, answer, actor),
    describeAgentContext: (sessionId: string, projectId: string, agent: string) =>
      describeAgentContext(dependencies, prompts, sessionId, projectId, agent),
    /** Resolves when the session's queued work in every lane (turns in particular) has finished. */
    idle: (sessionId: string) => dependencies.queue.idle(sessionId),
    drain: () => dependencies.queue.drain(),
    views: dependencies.views,
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
