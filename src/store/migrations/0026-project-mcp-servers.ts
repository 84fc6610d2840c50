import type { Migration } from './migration.ts';

/**
 * The MCP servers a project declares for its dev agents (ADR 0410): one row per project, the declarations as
 * `PUT /api/projects/:id/mcp-servers` validated them, replaced whole.
 */
export const projectMcpServers: Migration = {
  version: 26,
  name: 'project-mcp-servers',
  sql: `
    create table project_mcp_servers (
      project_id uuid primary key references projects (id) on delete cascade,
      servers jsonb not null,
      updated_at timestamptz not null default now()
    );
  `,
};
