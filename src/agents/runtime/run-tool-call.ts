import type { RecordedToolCall } from '../../domain/conversation/index.ts';
import { runHooks, type Hooks } from '../../harness/index.ts';
import type { AgentTool, ToolContext, ToolOutcome } from './agent-tool.ts';
import { describeInvalidArguments } from './describe-invalid-arguments.ts';

/**
 * Runs one tool call through the hooks: a call Forja refused when it stored it (ADR 0306), unknown tool,
 * unparseable or invalid arguments and a `pre_tool_use`
 * halt all become a refusal the model reads as the tool result (never an exception); `post_tool_use` sees
 * every result. A `pre_tool_use` hook that replaces the payload changes the arguments the tool runs with
 * (checked against the tool's schema again); a `post_tool_use` one changes the result the model reads.
 */
export async function runToolCall(
  call: RecordedToolCall,
  tools: readonly AgentTool[],
  hooks: Hooks,
  context: Omit<ToolContext, 'toolCallId' | 'ignoredArguments'>,
): Promise<ToolOutcome> {
  const outcome = await decideAndRun(call, tools, hooks, context);
  const after = await runHooks(hooks, 'post_tool_use', {
    agent: context.agent,
    session_id: context.sessionId,
    tool: call.name,
    tool_call_id: call.id,
    arguments: call.arguments,
    outcome,
  });
  const result = after.payload.outcome.result;
  if (typeof result !== 'string')
    throw new TypeError(
      `a post_tool_use hook replaced the result of ${call.name} with a ${typeof result}, not text`,
    );
  return result === outcome.result ? outcome : { ...outcome, result };
}

async function decideAndRun(
  call: RecordedToolCall,
  tools: readonly AgentTool[],
  hooks: Hooks,
  context: Omit<ToolContext, 'toolCallId' | 'ignoredArguments'>,
): Promise<ToolOutcome> {
  if (call.refused !== undefined) return { ok: false, result: call.refused };
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (tool === undefined) {
    return {
      ok: false,
      result: `Unknown tool "${call.name}". The tools you can call are: ${tools.map((candidate) => candidate.name).join(', ') || '(none)'}.`,
    };
  }
  if (call.cut_at_tokens !== undefined)
    return {
      ok: false,
      result: `Your call of ${call.name} was cut at ${call.cut_at_tokens} output tokens (your output cap), so its arguments are incomplete. Declare it in parts: several smaller calls, each well under the cap.`,
    };
  if (call.parse_error !== undefined)
    return {
      ok: false,
      result: `The arguments of ${call.name} are not a JSON object (${call.parse_error}). Call it again with valid JSON arguments.`,
    };
  const parsed = tool.parameters.safeParse(call.arguments ?? {});
  if (!parsed.success)
    return { ok: false, result: describeInvalidArguments(call.name, parsed.error) };

  const verdict = await runHooks(hooks, 'pre_tool_use', {
    agent: context.agent,
    session_id: context.sessionId,
    tool: call.name,
    tool_call_id: call.id,
    arguments: parsed.data,
  });
  if (verdict.halted)
    return {
      ok: false,
      result: `The call to ${call.name} was stopped by the ${verdict.haltedBy} hook: ${verdict.reason}`,
    };
  let args: unknown = parsed.data;
  if (verdict.payload.arguments !== parsed.data) {
    const replaced = tool.parameters.safeParse(verdict.payload.arguments);
    if (!replaced.success)
      return {
        ok: false,
        result: `The call to ${call.name} was stopped: a pre_tool_use hook replaced its arguments with ones the tool refuses. ${describeInvalidArguments(call.name, replaced.error)}`,
      };
    args = replaced.data;
  }

  try {
    return await tool.run(args, {
      ...context,
      toolCallId: call.id,
      ignoredArguments: ignoredKeys(call.arguments, parsed.data),
    });
  } catch (error) {
    // A tool that throws is a bug in the tool, but the model still gets an answer and the turn goes on.
    return {
      ok: false,
      result: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function ignoredKeys(raw: unknown, parsed: unknown): string[] {
  if (!isPlainObject(raw)) return [];
  const kept = isPlainObject(parsed) ? new Set(Object.keys(parsed)) : new Set<string>();
  return Object.keys(raw)
    .filter((key) => !kept.has(key))
    .sort();
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
