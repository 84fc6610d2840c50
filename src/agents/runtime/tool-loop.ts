import { randomUUID } from 'node:crypto';
import {
  turnInProgress,
  type PendingAction,
  type PersonQuestion,
  type RecordedToolCall,
  SESSION_EVENTS,
} from '../../domain/conversation/index.ts';
import type { ModelGateway } from '../../gateway/index.ts';
import type { Hooks } from '../../harness/index.ts';
import { type EventLog, LaneLeaseLostError, type NewSessionEvent } from '../../store/index.ts';
import {
  noTurnTracer,
  tracedGateway,
  type TurnTrace,
  type TurnTracer,
} from '../../telemetry/index.ts';
import type { AgentTool } from './agent-tool.ts';
import type { ContextManager } from './context-manager/create-context-manager.ts';
import { historyToMessages } from './history-to-messages.ts';
import type { LiveTurns } from './live-turns.ts';
import { storableText } from '../../lib/storable-text.ts';
import { boundedResponse } from './bounded-response.ts';
import { nextStep } from './next-step.ts';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './output-limits.ts';
import type { PromptPins } from './prompt-pins.ts';
import { type OutputTokenCaps, outputTokensFor } from './output-tokens.ts';
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
  /** How much of one answer is taken (ADR 0306); unset, `DEFAULT_OUTPUT_LIMITS`. */
  outputLimits?: OutputLimits;
  /** Each agent kind's output cap set by `FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`; a kind left out keeps the agent's. */
  outputTokens?: OutputTokenCaps;
  newId?: () => string;
  /** Each run as an OpenTelemetry trace (ADR 0370); unset, none. */
  tracer?: TurnTracer;
  /** Each lane's pinned system prompt (ADR 0430); unset, every call sends the prompt as assembled. */
  promptPins?: PromptPins;
}

/** An agent as the loop runs it. */
export interface LoopAgent {
  slug: string;
  /** The iteration ceiling: model calls in one turn (Arquiteto: 14). */
  maxIterations: number;
  /** The output cap of its answers by default, fitted to its job; `FORJA_MODEL_OUTPUT_TOKENS_<AGENT>` overrides it. */
  maxOutputTokens: number;
  tools: readonly AgentTool[];
  /**
   * Tools of this project besides `tools` (a project's MCP servers, ADR 0410), found once at the start of each
   * run of the loop.
   */
  projectTools?(scope: LoopScope): Promise<readonly AgentTool[]>;
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
  | { status: 'paused'; actions: PendingAction[]; questions: PersonQuestion[] }
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
  const turn = { projectId: scope.projectId, sessionId: scope.sessionId, agent: agent.slug };
  return (dependencies.tracer ?? noTurnTracer).turn(turn, (trace) =>
    runTraced(dependencies, agent, scope, trace),
  );
}

async function runTraced(
  dependencies: ToolLoopDependencies,
  agent: LoopAgent,
  scope: LoopScope,
  trace: TurnTrace,
): Promise<LoopResult> {
  try {
    return await runSteps(dependencies, agent, scope, trace);
  } catch (error) {
    if (!(error instanceof AppendFailedError)) throw error;
    return failUnstored(dependencies, agent, scope, error);
  }
}

/** An append of the loop that the log refused (not a lost lane): what the turn produced could not be stored. */
class AppendFailedError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'AppendFailedError';
  }
}

/**
 * A step's events the log could not store: the turn ends with `turn.failed` (`unstorable_output`), so its lane
 * answers the next message and a restart finds the turn closed instead of running the step again (ADR 0305).
 * If even that cannot be stored, the original error goes on.
 */
async function failUnstored(
  dependencies: ToolLoopDependencies,
  agent: LoopAgent,
  scope: LoopScope,
  error: AppendFailedError,
): Promise<LoopResult> {
  const view = await refreshSessionView(dependencies.eventLog, scope.sessionId, scope.view);
  const turnId = turnInProgress(view.state, agent.slug)?.turn_id;
  if (turnId === undefined) throw error.cause;
  const reason = 'unstorable_output';
  const message = `Forja could not store what this turn produced (${error.message.slice(0, 500)}); the turn ends here.`;
  const failed = await dependencies.eventLog.append(scope.sessionId, [
    SESSION_EVENTS.turnFailed.create('system', {
      v: 1,
      turn_id: turnId,
      agent: agent.slug,
      reason,
      message,
    }),
  ]);
  if (!failed.success) throw error.cause;
  dependencies.liveTurns.publish({
    type: 'agent.done',
    session_id: scope.sessionId,
    agent: agent.slug,
    turn_id: turnId,
    status: 'failed',
  });
  return { status: 'failed', reason, message };
}

async function runSteps(
  dependencies: ToolLoopDependencies,
  declared: LoopAgent,
  scope: LoopScope,
  trace: TurnTrace,
): Promise<LoopResult> {
  const agent = await withProjectTools(declared, scope);
  const { eventLog, liveTurns, hooks, newId = randomUUID } = dependencies;
  const limits = dependencies.outputLimits ?? DEFAULT_OUTPUT_LIMITS;
  const { needsApproval, questionTools, recordTools } = stepRules(agent);
  // Read from the log once, at the start (unless the caller's view is current); then carried forward by the
  // loop's own appends, read again only when another append landed in between.
  let view =
    scope.view !== undefined && scope.viewIsCurrent === true
      ? scope.view
      : await refreshSessionView(eventLog, scope.sessionId, scope.view);
  const append = async (events: NewSessionEvent[]) => {
    const outcome = await eventLog.append(scope.sessionId, events).catch((error: unknown) => {
      // A lane lost to another process is that process's to go on with; any other refusal is the content's.
      if (error instanceof LaneLeaseLostError) throw error;
      throw new AppendFailedError(error);
    });
    if (!outcome.success)
      throw new Error(`could not append to session ${scope.sessionId}: ${outcome.error.message}`);
    view = await viewAfterAppend(eventLog, scope.sessionId, view, outcome.events);
  };
  // Runs one call and records its effect with its `tool.completed`, in one append.
  const runTool = async (call: RecordedToolCall) => {
    const turnId = turnInProgress(view.state, agent.slug)?.turn_id ?? '';
    const outcome = await trace.tool({ ...call, turnId }, () =>
      runToolCall(call, agent.tools, hooks, {
        projectId: scope.projectId,
        sessionId: scope.sessionId,
        agent: agent.slug,
        module: scope.module,
        state: view.state,
        events: view.events,
        ...(scope.signal ? { signal: scope.signal } : {}),
      }),
    );
    const completed = toolCompleted(agent, call, view, outcome);
    await append([...(outcome.events ?? []), completed]);
  };

  for (;;) {
    // The lane's own turn: other agents' turns interleave in the same log and are not this loop's.
    const turnId = turnInProgress(view.state, agent.slug)?.turn_id ?? '';
    const lane = { agent: agent.slug, turn_id: turnId };
    // Stopped between steps (a tool was running): the turn ends here, before its next step.
    const stop = (text: string) => {
      const request = stopRequestOf(scope.signal);
      if (request === null) return Promise.resolve(null);
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
      needsApproval,
      questionTools,
      recordTools,
    });
    switch (step.kind) {
      case 'done':
        return { status: 'idle' };

      case 'await_approval':
        publishDone(liveTurns, scope, agent, turnId, 'paused');
        return { status: 'paused', actions: step.actions, questions: step.questions };

      case 'complete':
        // The stop rule (ADR 0380): the answer already spoke and its calls are recorded; no model call is owed.
        await append([turnCompleted(agent, lane, step.answer.event_id)]);
        publishDone(liveTurns, scope, agent, turnId, 'completed');
        return { status: 'completed', text: step.answer.text, view };

      case 'limit_reached':
        await append([limitReached(agent, lane, step.iterations)]);
        publishDone(liveTurns, scope, agent, turnId, 'limit_reached');
        return { status: 'limit_reached', iterations: step.iterations };

      case 'propose':
        await append([proposedAction(agent, step.call, lane, newId)]);
        break;

      case 'ask_person': {
        // The question waits for the person; arguments the tool refuses are answered at once, as any tool's.
        const asked = personAsked(agent, step.call, lane, newId);
        if (asked !== null) await append([asked]);
        else await runTool(step.call);
        break;
      }

      case 'run_tool':
        await runTool(step.call);
        break;

      case 'call_model': {
        const ended = await callModel({
          dependencies,
          agent,
          scope,
          limits,
          turnId,
          trace,
          view: () => view,
          append,
          stop,
        });
        if (ended !== null) return ended;
        break;
      }
    }
  }
}

/** The agent with its project's tools added after its own; a project tool may not take an own tool's name. */
async function withProjectTools(agent: LoopAgent, scope: LoopScope): Promise<LoopAgent> {
  if (agent.projectTools === undefined) return agent;
  const own = new Set(agent.tools.map((tool) => tool.name));
  const added = (await agent.projectTools(scope)).filter((tool) => !own.has(tool.name));
  return added.length === 0 ? agent : { ...agent, tools: [...agent.tools, ...added] };
}

/** Which of the agent's tools wait for the person's approval, which ask the person a question, which only record. */
function stepRules(agent: LoopAgent) {
  const needsApproval = (call: RecordedToolCall): boolean => {
    const tool = agent.tools.find((candidate) => candidate.name === call.name);
    if (tool === undefined || tool.mode !== 'proposed') return false;
    return tool.needsApproval === undefined ? true : tool.needsApproval(call.arguments);
  };
  const questionTools = new Set(
    agent.tools.filter((tool) => tool.asksPerson !== undefined).map((tool) => tool.name),
  );
  const recordTools = new Set(
    agent.tools.filter((tool) => tool.recordsOnly === true).map((tool) => tool.name),
  );
  return { needsApproval, questionTools, recordTools };
}

/** Tells the live stream the turn's text ended with `status`. */
function publishDone(
  liveTurns: ToolLoopDependencies['liveTurns'],
  scope: LoopScope,
  agent: LoopAgent,
  turnId: string,
  status: 'paused' | 'completed' | 'failed' | 'limit_reached',
): void {
  liveTurns.publish({
    type: 'agent.done',
    session_id: scope.sessionId,
    agent: agent.slug,
    turn_id: turnId,
    status,
  });
}

type Lane = { agent: string; turn_id: string };

/** The `turn.completed` of a turn the stop rule ends on its answer (ADR 0380). */
const turnCompleted = (agent: LoopAgent, lane: Lane, answerEventId: string) =>
  SESSION_EVENTS.turnCompleted.create(agent.slug, {
    v: 1,
    ...lane,
    answer_event_id: answerEventId,
  });

/** The `toolloop.limit_reached` of a turn that reached the agent's ceiling. */
const limitReached = (agent: LoopAgent, lane: Lane, iterations: number) =>
  SESSION_EVENTS.toolLoopLimitReached.create(agent.slug, {
    v: 1,
    ...lane,
    iterations,
    ceiling: agent.maxIterations,
  });

/** A call and its result in one event, in the turn in progress (as the view has it after the call). */
const toolCompleted = (
  agent: LoopAgent,
  call: RecordedToolCall,
  view: SessionView,
  outcome: { ok: boolean; result: string },
) =>
  SESSION_EVENTS.toolCompleted.create(agent.slug, {
    v: 1,
    agent: agent.slug,
    turn_id: turnInProgress(view.state, agent.slug)?.turn_id ?? '',
    tool_call_id: call.id,
    tool: call.name,
    args: call.arguments ?? {},
    ok: outcome.ok,
    result: outcome.result,
  });

/** The `action.proposed` of a call that waits for the person, with the tool's risk assessment. */
function proposedAction(agent: LoopAgent, call: RecordedToolCall, lane: Lane, newId: () => string) {
  const risk = agent.tools
    .find((tool) => tool.name === call.name)
    ?.assessRisk?.(call.arguments ?? {});
  return SESSION_EVENTS.actionProposed.create(agent.slug, {
    v: 1,
    action_id: newId(),
    tool_call_id: call.id,
    ...lane,
    tool: call.name,
    args: call.arguments ?? {},
    ...(risk === undefined ? {} : { risk }),
  });
}

/** The `person.asked` of a question tool's call, or null when its arguments are refused (run as any tool). */
function personAsked(agent: LoopAgent, call: RecordedToolCall, lane: Lane, newId: () => string) {
  const question = agent.tools
    .find((tool) => tool.name === call.name)
    ?.asksPerson?.(call.arguments ?? {});
  if (question === undefined || call.parse_error !== undefined) return null;
  return SESSION_EVENTS.personAsked.create(agent.slug, {
    v: 1,
    question_id: newId(),
    tool_call_id: call.id,
    ...lane,
    ...question,
  });
}

/** What one step of the loop works with: the loop's view as it is now, its append, its stop check. */
interface StepFrame {
  dependencies: ToolLoopDependencies;
  agent: LoopAgent;
  scope: LoopScope;
  limits: OutputLimits;
  turnId: string;
  trace: TurnTrace;
  view(): SessionView;
  append(events: NewSessionEvent[]): Promise<void>;
  stop(text: string): Promise<LoopResult | null>;
}

/**
 * The `call_model` step: the prompt and the history fitted to the window, the model's call, and its answer
 * appended as `agent.response`, bounded (ADR 0306). Returns how the turn ended, or null when it goes on (tool calls).
 */
async function callModel(frame: StepFrame): Promise<LoopResult | null> {
  const { dependencies, agent, scope, limits, turnId } = frame;
  const { liveTurns } = dependencies;
  const gateway = tracedGateway(frame.trace, dependencies.gateway, turnId);
  const done = (status: 'completed' | 'failed') =>
    publishDone(liveTurns, scope, agent, turnId, status);
  const fail = async (reason: string, message: string): Promise<LoopResult> => {
    await frame.append([
      SESSION_EVENTS.turnFailed.create('system', {
        v: 1,
        turn_id: turnId,
        agent: agent.slug,
        reason,
        message,
      }),
    ]);
    done('failed');
    return { status: 'failed', reason, message };
  };
  const maxOutputTokens = outputTokensFor(
    dependencies.outputTokens ?? {},
    agent.slug,
    agent.maxOutputTokens,
  );
  const fresh = await agent.buildSystemPrompt(frame.view(), scope);
  const pinned = dependencies.promptPins?.pin(
    { sessionId: scope.sessionId, agent: agent.slug },
    fresh,
  ) ?? { instructions: fresh, place: (history) => ({ system: fresh, messages: [...history] }) };
  const tools = toToolDefinitions(agent.tools);
  const context = dependencies.contextManager
    ? await dependencies.contextManager.prepare(
        {
          view: frame.view(),
          projectId: scope.projectId,
          sessionId: scope.sessionId,
          agent: agent.slug,
          // What the model reads as its instructions: the pin and its updates in the history (ADR 0430).
          system: pinned.instructions,
          tools,
          maxOutputTokens,
          ...(scope.signal ? { signal: scope.signal } : {}),
        },
        frame.append,
      )
    : { ok: true as const, messages: historyToMessages(frame.view().state.history, agent.slug) };
  if (!context.ok) return (await frame.stop('')) ?? fail(context.reason, context.message);
  const { system, messages } = pinned.place(context.messages);
  // Deltas stop at the answer's limit: a running turn's partial text is kept for tabs that connect.
  let streamed = 0;
  const outcome = await gateway.runTurn(
    {
      projectId: scope.projectId,
      sessionId: scope.sessionId,
      agent: agent.slug,
      system,
      messages,
      tools,
      maxOutputTokens,
      ...('inputTokens' in context ? { inputTokens: context.inputTokens } : {}),
    },
    {
      ...(scope.signal ? { signal: scope.signal } : {}),
      onTextDelta: (text) => {
        if (scope.streamDeltas === false || streamed >= limits.maxAnswerChars) return;
        streamed += text.length;
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
    const stopped = await frame.stop('partialText' in outcome ? outcome.partialText : '');
    if (stopped !== null) return stopped;
    const message = outcome.status === 'cancelled' ? 'The turn was cancelled.' : outcome.message;
    return fail(outcome.status === 'failed' ? 'provider_error' : outcome.status, message);
  }
  // What passes a limit is not stored; the model reads the refusal, with the limit (ADR 0306).
  const bounded = boundedResponse(outcome.text, outcome.toolCalls, limits);
  const { text } = bounded;
  // Arguments left incomplete by the output cap are a cut, not a model's mistake: it must split them.
  const toolCalls =
    outcome.finishReason === 'length'
      ? bounded.toolCalls.map((call) =>
          call.parse_error === undefined ? call : { ...call, cut_at_tokens: maxOutputTokens },
        )
      : bounded.toolCalls;
  await frame.append([
    SESSION_EVENTS.agentResponse.create(agent.slug, {
      v: 1,
      agent: agent.slug,
      turn_id: turnId,
      text,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      usage_id: outcome.usageId,
    }),
  ]);
  if (toolCalls.length > 0) return null;
  done('completed');
  // The text as stored: a caller that writes it elsewhere (a handoff's brief) writes what the log holds.
  return { status: 'completed', text: storableText(text), view: frame.view() };
}
