import type { McpServerDeclaration } from '../../domain/mcp/index.ts';
import { readProjectMcpServers } from '../../store/index.ts';
import type { McpServers, McpServerTool } from '../../workspace/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { LoopScope } from '../runtime/tool-loop.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { inModuleWorktree } from './module-worktree.ts';

/** What each tool's description says of approvals, per terminal mode: the same as the terminal's. */
const APPROVAL_SENTENCE = {
  auto: '',
  proposed: ' Each call waits for the person to approve it.',
  direct: '',
} as const;

/**
 * The tools of the project's MCP servers (ADR 0410) for a dev of `scope.module`: each declared server is
 * started in the dev's sandbox (its worktree as the working directory) and its tools offered as
 * `mcp__<server>__<tool>`, their input schemas as the server gave them and checked before each call. A server
 * that does not start offers nothing this run; the calls run under the terminal's approval mode and limits.
 */
export async function mcpTools(
  dependencies: Pick<DevDependencies, 'database' | 'workspaces' | 'terminal' | 'mcp'>,
  scope: LoopScope,
): Promise<AgentTool[]> {
  const { mcp } = dependencies;
  if (scope.module === null || mcp === undefined) return [];
  const servers = await readProjectMcpServers(dependencies.database, scope.projectId);
  if (servers.length === 0) return [];
  const worktree = await dependencies.workspaces.ensureWorktree(scope.projectId, scope.module);
  const listings = await mcp.list(worktree.directory, servers);
  return listings.flatMap((listing) => {
    const server = servers.find((declared) => declared.name === listing.server);
    if (!listing.ok || server === undefined) return [];
    return listing.tools.map((tool) => mcpTool({ ...dependencies, mcp }, server, tool));
  });
}

/** One tool of a declared server as a dev tool: its mode and approval follow the terminal's (ADR 0410). */
export function mcpTool(
  dependencies: Pick<DevDependencies, 'workspaces' | 'terminal'> & { mcp: McpServers },
  server: McpServerDeclaration,
  tool: McpServerTool,
): AgentTool {
  const { settings } = dependencies.terminal;
  return defineTool({
    name: tool.name,
    description:
      `${tool.description}\n(Tool "${tool.tool}" of the project's MCP server "${server.name}", run inside your sandbox: no network, only your worktree writable, at most ${settings.timeoutMs / 1000} s and ${settings.outputLimitBytes} bytes of output.)` +
      APPROVAL_SENTENCE[settings.mode],
    parameters: tool.parameters,
    jsonSchema: tool.inputSchema,
    mode: settings.mode === 'direct' ? 'direct' : 'proposed',
    // auto: the sandbox bounds what the server can do, so calls run at once while it is known to work.
    needsApproval: () =>
      settings.mode !== 'auto' || dependencies.terminal.probed()?.available !== true,
    run: (args, context) =>
      inModuleWorktree(dependencies, context, async (worktree) => {
        const outcome = await dependencies.mcp.call(
          worktree.directory,
          server,
          tool.tool,
          (args ?? {}) as Record<string, unknown>,
          context.signal,
        );
        return { ok: outcome.ok, result: outcome.text };
      }),
  });
}
