import { createRoute, z } from '@hono/zod-openapi';
import { McpServerDeclarationsSchema } from '../../domain/mcp/index.ts';
import { findProject, readProjectMcpServers, writeProjectMcpServers } from '../../store/index.ts';
import { notOwnerError } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonBody, jsonContent } from '../schemas.ts';

const parameters = z.object({ id: idParameter('id') });
// Rebuilt from the domain's shape so `.openapi` exists whatever module loaded zod first (a schema made before
// @hono/zod-openapi extended zod has no `.openapi`).
const McpServersSchema = z.strictObject(McpServerDeclarationsSchema.shape).openapi('McpServers');

const getServers = createRoute({
  method: 'get',
  path: '/api/projects/{id}/mcp-servers',
  summary: "The MCP servers the project's dev agents are offered the tools of",
  request: { params: parameters },
  responses: {
    200: jsonContent(McpServersSchema, "The project's MCP servers"),
    ...errorResponses(400, 404),
  },
});
const putServers = createRoute({
  method: 'put',
  path: '/api/projects/{id}/mcp-servers',
  summary:
    "Replace the project's MCP servers: stdio servers, each a command line run in the dev's sandbox, its tools offered as mcp__<server>__<tool> (owner only)",
  request: { params: parameters, body: jsonBody(McpServersSchema) },
  responses: {
    200: jsonContent(McpServersSchema, "The project's MCP servers now"),
    ...errorResponses(400, 403, 404, 413, 415),
  },
});

/** `GET|PUT /api/projects/:id/mcp-servers` (ADR 0410): a project's MCP servers, replaced whole. */
export function mcpServerRoutes({ database }: AppDependencies) {
  return newRouter()
    .openapi(getServers, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      return context.json({ servers: await readProjectMcpServers(database, id) }, 200);
    })
    .openapi(putServers, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      // A server is a command run in every dev's sandbox: only an owner declares them.
      const notOwner = notOwnerError(context, "sets the project's MCP servers");
      if (notOwner !== null) return context.json(notOwner, 403);
      const { servers } = context.req.valid('json');
      await writeProjectMcpServers(database, id, servers);
      return context.json({ servers: await readProjectMcpServers(database, id) }, 200);
    });
}
