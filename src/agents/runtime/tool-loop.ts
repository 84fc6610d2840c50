import { randomUUID } from 'node:crypto';
import {
  turnInProgress,
  type PendingAction,
  SESSION_EVENTS,
} from '../../domain/conversation/index.ts';
import type { ModelGateway } from '../../gateway/index.ts';
import type { Hooks } from '../../harness/index.ts';
import type { EventLog, NewSessionEvent } from '../../store/index.ts';
import type { AgentTool } from './agent-tool.ts';
import type { ContextManager } from './context-manager/create-context-manager.ts';
import { historyToMessages } from './history-to-messages.ts';
import type { LiveTurns } from './live-turns.ts';
import { nextStep } from './next-step.ts';
import { runToolCall } from './run-tool-call.ts';
import { refreshSessionView, viewAfterAppend, type SessionView } from './session-view.ts';
import { toToolDefinitions } from './tool-definitions.ts';
import { recordStop, stopRequestOf } from './turn-stop.ts';

export interface ToolLoopDependencies {
  eventLog: EventLog;
  gateway: ModelGateway;
  liveTurns: LiveTurns;
  hooks: Hooks;
  /** Fits each request into the model's window (ADR 0080); without it the whole history is sent. */
  contextManager?: ContextManager;
  newId?: () => string;
}

/** An agent as the loop runs it. */
export interface LoopAgent {
  slug: string;
  /** The iteration ceiling: model calls in one turn (Arquiteto: 14). */
  maxIterations: number;
  maxOutputTokens: number;
  tools: readonly AgentTool[];
  /** The system prompt, assembled by the harness from the session as it is now. */
  buildSystemPrompt(view: SessionView, scope: LoopScope): Promise<string>;
}

export interface LoopScope {
  projectId: string;
  sessionId: string;
  module: string | null;
  /** Aborts the model call; aborted with a `TurnStopRequest`, the turn ends as `turn.stopped` (ADR 0220). */
  signal?: AbortSignal;
  /** Whether text deltas go to the browser (a consolidation turn's JSON does not). */
  streamDeltas?: boolean;
  /** A view of the session already folded by the caller; brought up to date before the first step. */
  view?: SessionView;
  /** The caller has just brought `view` up to date (it appended the turn's `turn.started`): no read before the first step. */
  viewIsCurrent?: boolean;
}

export type LoopResult =
  | { status: 'idle' }
  | { status: 'completed'; text: string; view: SessionView }
  | { status: 'paused'; actions: PendingAction[] }
  | { status: 'limit_reached'; iterations: number }
  | { status: 'stopped'; text: string }
  | { status: 'failed'; reason: string; message: string };

/**
 * Runs the turn in progress for `agent.slug` until it ends or waits: each step is decided from the log
 * (`nextStep`), so a process that restarts in the middle of a loop resumes exactly where the log says.
 * The caller serialises loops of one agent in a session (its lane); loops of other agents may run at the
 * same time, appending to the same log: every event this loop writes names its agent and turn.
 */
export async function runToolLoop(
  dependencies: ToolLoopDependencies,
  agent: LoopAgent,
  scope: LoopScope,
): Promise<LoopResult> {
  const { eventLog, gateway, liveTurns, hooks } = dependencies;
  const newId = dependencies.newId ?? randomUUID;
  const proposedTools = new Set(
    agent.tools.filter((tool) => tool.mode === 'proposed').map((tool) => tool.name),
  );
  // Read from the log once, at the start (unless the caller's view is current); then carried forward by the
  // loop's own appends, read again only when another append landed in between.
  let view =
    scope.view !== undefined && scope.viewIsCurrent === true
      ? scope.view
      : await refreshSessionView(eventLog, scope.sessionId, scope.view);
  const append = async (events: NewSessionEvent[]) => {
    const outcome = await eventLog.append(scope.sessionId, events);
    if (!outcome.success)
      throw new Error(`could not append to session ${scope.sessionId}: ${outcome.error.message}`);
    view = await viewAfterAppend(eventLog, scope.sessionId, view, outcome.events);
  };

  for (;;) {
    // The lane's own turn: other agents' turns interleave in the same log and are not this loop's.
    const turnId = turnInProgress(view.state, agent.slug)?.turn_id ?? '';
    const lane = { agent: agent.slug, turn_id: turnId };
    // Stopped between steps (a tool was running): the turn ends here, before its next step.
    const stop = (text: string) => {
      const request = stopRequestOf(scope.signal);
      if (request === null) return Promise.resolve(null);
      const { liveTurns } = dependencies;
      return recordStop(
        { view, append, liveTurns, sessionId: scope.sessionId, agent: agent.slug, turnId, text },
        request,
      );
    };
    const stoppedBeforeStep = await stop('');
    if (stoppedBeforeStep !== null) return stoppedBeforeStep;
    const step = nextStep(view.state, {
      agent: agent.slug,
      maxIterations: agent.maxIterations,
      proposedTools,
    });
    switch (step.kind) {
      case 'done':
        return { status: 'idle' };

      case 'await_approval':
        liveTurns.publish({
          type: 'agent.done',
          session_id: scope.sessionId,
          agent: agent.slug,
          turn_id: turnId,
          status: 'paused',
        });
        return { status: 'paused', actions: step.actions };

      case 'limit_reached':
        await append([
          SESSION_EVENTS.toolLoopLimitReached.create(agent.slug, {
            v: 1,
            ...lane,
            iterations: step.iterations,
            ceiling: agent.maxIterations,
          }),
        ]);
        liveTurns.publish({
          type: 'agent.done',
          session_id: scope.sessionId,
          agent: agent.slug,
          turn_id: turnId,
          status: 'limit_reached',
        });
        return { status: 'limit_reached', iterations: step.iterations };

      case 'propose': {
        const risk = agent.tools
          .find((tool) => tool.name === step.call.name)
          ?.assessRisk?.(step.call.arguments ?? {});
        await append([
          SESSION_EVENTS.actionProposed.create(agent.slug, {
            v: 1,
            action_id: newId(),
            tool_call_id: step.call.id,
            ...lane,
            tool: step.call.name,
            args: step.call.arguments ?? {},
            ...(risk === undefined ? {} : { risk }),
          }),
        ]);
        break;
      }

      case 'run_tool': {
        const outcome = await runToolCall(step.call, agent.tools, hooks, {
          projectId: scope.projectId,
          sessionId: scope.sessionId,
          agent: agent.slug,
          module: scope.module,
          state: view.state,
          events: view.events,
          ...(scope.signal ? { signal: scope.signal } : {}),
        });
        const completed = SESSION_EVENTS.toolCompleted.create(agent.slug, {
          v: 1,
          ...lane,
          tool_call_id: step.call.id,
          tool: step.call.name,
          args: step.call.arguments ?? {},
          ok: outcome.ok,
          result: outcome.result,
        });
        await append([...(outcome.events ?? []), completed]);
        break;
      }

      case 'call_model': {
        const system = await agent.buildSystemPrompt(view, scope);
        const tools = toToolDefinitions(agent.tools);
        const frame = {
          view,
          projectId: scope.projectId,
          sessionId: scope.sessionId,
          agent: agent.slug,
          system,
          tools,
          maxOutputTokens: agent.maxOutputTokens,
          ...(scope.signal ? { signal: scope.signal } : {}),
        };
        const context = dependencies.contextManager
          ? await dependencies.contextManager.prepare(frame, append)
          : { ok: true as const, messages: historyToMessages(view.state.history, agent.slug) };
        if (!context.ok) {
          const stopped = await stop('');
          if (stopped !== null) return stopped;
          await append([
            SESSION_EVENTS.turnFailed.create('system', {
              v: 1,
              turn_id: turnId,
              agent: agent.slug,
              reason: context.reason,
              message: context.message,
            }),
          ]);
          liveTurns.publish({
            type: 'agent.done',
            session_id: scope.sessionId,
            agent: agent.slug,
            turn_id: turnId,
            status: 'failed',
          });
          return { status: 'failed', reason: context.reason, message: context.message };
        }
        const outcome = await gateway.runTurn(
          {
            projectId: scope.projectId,
            sessionId: scope.sessionId,
            agent: agent.slug,
            system,
            messages: context.messages,
            tools,
            maxOutputTokens: agent.maxOutputTokens,
            ...('inputTokens' in context ? { inputTokens: context.inputTokens } : {}),
          },
          {
            ...(scope.signal ? { signal: scope.signal } : {}),
            onTextDelta: (text) => {
              if (scope.streamDeltas !== false)
                liveTurns.publish({
                  type: 'agent.delta',
                  session_id: scope.sessionId,
                  agent: agent.slug,
                  turn_id: turnId,
                  text,
                });
            },
          },
        );
        if (outcome.status !== 'completed') {
          const partial = 'partialText' in outcome ? outcome.partialText : '';
          const stopped = await stop(partial);
          if (stopped !== null) return stopped;
          const message =
            outcome.status === 'cancelled' ? 'The turn was cancelled.' : outcome.message;
          const reason = outcome.status === 'failed' ? 'provider_error' : outcome.status;
          await append([
            SESSION_EVENTS.turnFailed.create('system', { v: 1, ...lane, reason, message }),
          ]);
          liveTurns.publish({
            type: 'agent.done',
            session_id: scope.sessionId,
            agent: agent.slug,
            turn_id: turnId,
            status: 'failed',
          });
          return { status: 'failed', reason, message };
        }
        const toolCalls = outcome.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.arguments ?? null,
          ...(call.parseError === undefined ? {} : { parse_error: call.parseError }),
          // Arguments left incomplete by the output cap are a cut, not a model's mistake: it must split them.
          ...(call.parseError !== undefined && outcome.finishReason === 'length'
            ? { cut_at_tokens: agent.maxOutputTokens }
            : {}),
        }));
        await append([
          SESSION_EVENTS.agentResponse.create(agent.slug, {
            v: 1,
            ...lane,
            text: outcome.text,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            usage_id: outcome.usageId,
          }),
        ]);
        if (toolCalls.length === 0) {
          liveTurns.publish({
            type: 'agent.done',
            session_id: scope.sessionId,
            agent: agent.slug,
            turn_id: turnId,
            status: 'completed',
          });
          return { status: 'completed', text: outcome.text, view };
        }
        break;
      }
    }
  }
}
