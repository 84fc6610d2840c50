import type { z } from 'zod';
import { describeInvalidArguments } from './describe-invalid-arguments.ts';
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
  /** Aborted when the turn is stopped: a tool that runs a process kills it (the terminal, a check). */
  signal?: AbortSignal;
}

/** Events a tool records; `id` when the tool must name an event before it is stored (a rule's new version). */
type OutcomeEvents = Array<Omit<NewSessionEvent, 'payload'> & { payload: unknown; id?: string }>;

/**
 * A tool's answer. `result` goes back to the model as the tool result; `events` are appended in the same
 * call as the `tool.completed` that records the run, so a crash never separates a tool's effect from its
 * record. A refusal (`ok: false`) is an expected outcome whose reason the model can act on; it stores
 * nothing of what was asked, only, when the tool says so, what the refusal itself tells others (a check
 * broken by the module map is a block for the Arquiteto, ADR 0321).
 */
export type ToolOutcome =
  | { ok: true; result: string; events?: OutcomeEvents }
  | { ok: false; result: string; events?: OutcomeEvents };

/** `direct` tools run at once; `proposed` ones wait for the person's approval (ADR 0006). */
export type ToolMode = 'direct' | 'proposed';

/**
 * A tool as the loop holds it, its arguments erased: the loop validates the model's arguments with
 * `parameters` before `run`. Built by `defineTool`, which gives the tool's own code arguments typed by its schema.
 */
export interface AgentTool {
  name: string;
  description: string;
  /** Validates the model's arguments; its JSON Schema is what the model is shown, unless `jsonSchema` is set. */
  parameters: z.ZodType;
  /** The JSON Schema the model is shown, as a tool's author wrote it (an MCP server's tools, ADR 0410). */
  jsonSchema?: Record<string, unknown>;
  mode: ToolMode;
  /**
   * The tool only records something: its result, when ok, is an acknowledgement the model need not read. A turn
   * whose answer spoke and called only such tools ends once they are recorded, without another model call (the
   * stop rule, ADR 0380); a refusal still goes back to the model.
   */
  recordsOnly?: boolean;
  /**
   * A `proposed` tool's warning for the person, recorded with the proposal (the terminal's risky commands);
   * undefined when the arguments are not the tool's (the call will be refused when it runs).
   */
  assessRisk?(args: unknown): CommandRiskVerdict | undefined;
  /**
   * Whether this call of a `proposed` tool waits for the person (default: every call does). False for
   * arguments that are not the tool's: the call is refused when it runs, with nothing to approve.
   */
  needsApproval?(args: unknown): boolean;
  /**
   * A tool that asks the person (`ask_person`): the question its arguments ask, recorded as `person.asked`; the
   * call waits for `person.answered`, then `run` answers it. Undefined when the arguments are not the tool's.
   */
  asksPerson?(args: unknown): QuestionForThePerson | undefined;
  run(args: unknown, context: ToolContext): Promise<ToolOutcome>;
}

/** What an agent asks the person: the question, the options it offers, why it asks. */
export interface QuestionForThePerson {
  question: string;
  options?: string[];
  why?: string;
}

/** A tool as it is written: `run` and `assessRisk` take the arguments its schema outputs. */
export interface ToolSpecification<Schema extends z.ZodType> {
  name: string;
  description: string;
  parameters: Schema;
  jsonSchema?: Record<string, unknown>;
  mode: ToolMode;
  /** See `AgentTool.recordsOnly` (ADR 0380). */
  recordsOnly?: boolean;
  assessRisk?(args: z.output<Schema>): CommandRiskVerdict;
  needsApproval?(args: z.output<Schema>): boolean;
  asksPerson?(args: z.output<Schema>): QuestionForThePerson;
  run(args: z.output<Schema>, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * A tool whose `run` gets its arguments typed by its zod schema, as the AI SDK's `tool()` and agents-js's
 * `tool()` do. The erased `run` parses the arguments again (cheap, and schemas here are idempotent: trims,
 * defaults), so a caller that skipped validation still cannot hand the tool what its schema refuses.
 */
export function defineTool<Schema extends z.ZodType>(
  specification: ToolSpecification<Schema>,
): AgentTool {
  const { parameters, assessRisk, needsApproval, asksPerson } = specification;
  return {
    name: specification.name,
    description: specification.description,
    parameters,
    ...(specification.jsonSchema === undefined ? {} : { jsonSchema: specification.jsonSchema }),
    mode: specification.mode,
    ...(specification.recordsOnly === true ? { recordsOnly: true } : {}),
    ...(assessRisk === undefined
      ? {}
      : {
          assessRisk: (args: unknown) => {
            const parsed = parameters.safeParse(args);
            return parsed.success ? assessRisk(parsed.data) : undefined;
          },
        }),
    ...(needsApproval === undefined
      ? {}
      : {
          needsApproval: (args: unknown) => {
            const parsed = parameters.safeParse(args);
            return parsed.success && needsApproval(parsed.data);
          },
        }),
    ...(asksPerson === undefined
      ? {}
      : {
          asksPerson: (args: unknown) => {
            const parsed = parameters.safeParse(args);
            return parsed.success ? asksPerson(parsed.data) : undefined;
          },
        }),
    run: async (args, context) => {
      const parsed = parameters.safeParse(args);
      if (!parsed.success)
        return { ok: false, result: describeInvalidArguments(specification.name, parsed.error) };
      return specification.run(parsed.data, context);
    },
  };
}

/**
 * The model is shown `schema` whole, but every value reaches the tool, typed `unknown`: the tool validates the
 * arguments itself, to refuse with every problem at once, in the domain's words (the backlog, the declarations).
 */
export function checkedByTheTool<Schema extends z.ZodType>(
  schema: Schema,
): z.ZodType<unknown, z.input<Schema>> {
  return schema.catch((context) => context.value as z.output<Schema>);
}
