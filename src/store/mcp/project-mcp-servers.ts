import type { McpServerDeclaration } from '../../domain/mcp/index.ts';
import type { Queryable } from '../database.ts';

/** Replaces a project's MCP servers (already validated by `McpServerDeclarationsSchema`). */
export async function writeProjectMcpServers(
  database: Queryable,
  projectId: string,
  servers: readonly McpServerDeclaration[],
): Promise<void> {
  await database.query(
    `insert into project_mcp_servers (project_id, servers) values ($1, $2::jsonb)
     on conflict (project_id) do update set servers = excluded.servers, updated_at = now()`,
    [projectId, JSON.stringify(servers)],
  );
}

/** A project's MCP servers; none when it declared none. */
export async function readProjectMcpServers(
  database: Queryable,
  projectId: string,
): Promise<McpServerDeclaration[]> {
  const result = await database.query<{ servers: McpServerDeclaration[] }>(
    'select servers from project_mcp_servers where project_id = $1',
    [projectId],
  );
  return result.rows[0]?.servers ?? [];
}
