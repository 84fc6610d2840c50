import {
  type ContextReport,
  lastAssemblyOf,
  type PromptSources,
  toToolDefinitions,
} from '../agents/index.ts';
import {
  refusal,
  type ConversationDependencies,
  type Refusal,
} from './conversation-dependencies.ts';

/** A layer of the system prompt as `forja context` shows it (its content is in the prompt itself). */
export type LayerFigures = {
  name: string;
  strategy: string;
  budget: number;
  tokens: number;
  estimated: boolean;
  status: string;
};

export type AgentContext = {
  ok: true;
  system: string;
  layers: LayerFigures[] | null;
  tools: string[];
  context: ContextReport;
};

/**
 * What an agent's next model call in a session would send, exactly: the system prompt as assembled now, the
 * tools, and the history as the ContextManager would send it (compaction point, messages, token counts).
 * Nothing is called or recorded; when a compaction is due, the report says so.
 */
export async function describeAgentContext(
  dependencies: ConversationDependencies,
  prompts: PromptSources,
  sessionId: string,
  projectId: string,
  slug: string,
): Promise<AgentContext | Refusal> {
  const agent = dependencies.catalog.get(slug);
  if (agent === null)
    return refusal(404, 'unknown_agent', `no runtime for agent ${slug} in this process`);
  if (dependencies.contextManager === undefined)
    return refusal(503, 'no_context_manager', 'this Forja runs without a ContextManager');
  const view = await dependencies.views.load(sessionId);
  const module = slug.startsWith('dev:') ? slug.slice('dev:'.length) : null;
  const system = await agent.buildSystemPrompt(view, { projectId, sessionId, module });
  const tools = toToolDefinitions(agent.tools);
  const described = dependencies.contextManager.describe({
    view,
    projectId,
    sessionId,
    agent: slug,
    system,
    tools,
    maxOutputTokens: agent.maxOutputTokens,
  });
  if (!described.ok) return refusal(409, described.reason, described.message);
  // Agents whose prompt is assembled by the harness show its layers; a prompt built otherwise shows none.
  const layers =
    lastAssemblyOf(prompts, slug, system)?.layers.map(
      ({ content: _content, units: _units, ...figures }) => figures,
    ) ?? null;
  return {
    ok: true,
    system,
    layers,
    tools: tools.map((tool) => tool.name),
    context: described.report,
  };
}
