import type { z } from 'zod';
import type { CommandRiskVerdict } from '../../domain/terminal/index.ts';
import type {
  ConversationState,
  NewSessionEvent,
  SessionEvent,
} from '../../domain/conversation/index.ts';

/** What a tool knows when it runs. The project, session and module come from the loop, never from the model. */
export interface ToolContext {
  projectId: string;
  sessionId: string;
  agent: string;
  /** The dev agent's module (record ADR 0200: "module from the loop context"), null for other agents. */
  module: string | null;
  toolCallId: string;
  state: ConversationState;
  events: readonly SessionEvent[];
  /** Argument names the model sent that the tool's schema does not take (noted, ignored). */
  ignoredArguments: readonly string[];
}

/**
 * A tool's answer. `result` goes back to the model as the tool result; on success, `events` are appended in
 * the same call as the `tool.completed` that records the run, so a crash never separates a tool's effect
 * from its record. A refusal (`ok: false`) is an expected outcome whose reason the model can act on.
 */
export type ToolOutcome =
  | {
      ok: true;
      result: string;
      events?: Array<Omit<NewSessionEvent, 'payload'> & { payload: unknown }>;
    }
  | { ok: false; result: string };

/** `direct` tools run at once; `proposed` ones wait for the person's approval (ADR 0006). */
export type ToolMode = 'direct' | 'proposed';

export interface AgentTool {
  name: string;
  description: string;
  /** Validates the model's arguments; its JSON Schema is what the model is shown. */
  parameters: z.ZodType;
  mode: ToolMode;
  /** A `proposed` tool's warning for the person, recorded with the proposal (the terminal's risky commands). */
  assessRisk?(args: unknown): CommandRiskVerdict;
  run(args: unknown, context: ToolContext): Promise<ToolOutcome>;
}
