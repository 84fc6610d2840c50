import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { projectOfResource, roleIn, type Person, type ResourceKind } from '../../store/index.ts';
import type { AppDependencies } from '../app-dependencies.ts';

/** Who calls the tools: the person the access middleware found (null without accounts) and the events' actor. */
export interface McpCaller {
  person: Person | null;
  actor: string;
}

/** What a tool is given: the HTTP layer's use cases and ports, and its caller. */
export interface McpToolContext {
  dependencies: AppDependencies;
  caller: McpCaller;
}

/** A refusal the caller can act on: its message is the tool error's text. */
export class ToolRefusal extends Error {}

/** A use case's refusal (`{ code, message }`) as the tool's refusal. */
export function refusedBy(outcome: { code: string; message: string }): never {
  throw new ToolRefusal(`${outcome.code}: ${outcome.message}`);
}

/**
 * The project of the resource `id` names, when the caller may see it: as the access middleware does for a route,
 * another project's ids are refused exactly like ids that do not exist (ADR 0100). `field` names the argument.
 */
export async function projectOf(
  { dependencies, caller }: McpToolContext,
  kind: ResourceKind,
  id: string,
  field: string,
): Promise<string> {
  const { database } = dependencies;
  const projectId = await projectOfResource(database, kind, id.toLowerCase());
  const visible =
    projectId !== null &&
    (caller.person === null || (await roleIn(database, projectId, caller.person.id)) !== null);
  if (!visible || projectId === null)
    throw new ToolRefusal(`not_found: ${field}: no ${kind} with id ${id}.`);
  return projectId;
}

/** The tool's answer: the value as JSON text, and as structured content for clients that read it. */
export function answer(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** One tool: its name, what it is for (the model reads it), its zod input (as a route's body), what it does. */
export interface McpToolSpec<Input extends z.ZodObject> {
  name: string;
  description: string;
  input: Input;
  /** True when the tool only reads. */
  readOnly: boolean;
  run: (args: z.output<Input>, context: McpToolContext) => Promise<Record<string, unknown>>;
}

/**
 * Registers the tool. The SDK validates the arguments with the zod schema first (a refusal names the field and
 * the rule); a `ToolRefusal` becomes a tool error with its message; any other failure is logged and the caller
 * is told only that it failed on Forja's side.
 */
export function registerTool<Input extends z.ZodObject>(
  server: McpServer,
  spec: McpToolSpec<Input>,
  context: McpToolContext,
): void {
  const callback = async (args: z.output<Input>): Promise<CallToolResult> => {
    try {
      return answer(await spec.run(args, context));
    } catch (error) {
      if (error instanceof ToolRefusal)
        return { content: [{ type: 'text', text: error.message }], isError: true };
      context.dependencies.logger.error({ err: error, tool: spec.name }, 'an MCP tool failed');
      return {
        content: [{ type: 'text', text: 'Something went wrong on our side; nothing was done.' }],
        isError: true,
      };
    }
  };
  server.registerTool(
    spec.name,
    {
      description: spec.description,
      inputSchema: spec.input,
      annotations: { readOnlyHint: spec.readOnly, openWorldHint: false },
    },
    callback as ToolCallback<Input>,
  );
}

/** Defines a tool, its argument types following its schema. */
export const defineMcpTool = <Input extends z.ZodObject>(spec: McpToolSpec<Input>) => spec;
