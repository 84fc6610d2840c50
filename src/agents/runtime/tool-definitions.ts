import { z } from 'zod';
import type { ToolDefinition } from '../../gateway/index.ts';
import type { AgentTool } from './agent-tool.ts';

/** The tools as the model is shown them: name, description and the JSON Schema of their arguments. */
export function toToolDefinitions(tools: readonly AgentTool[]): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters:
      tool.jsonSchema ??
      (z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as Record<
        string,
        unknown
      >),
  }));
}
