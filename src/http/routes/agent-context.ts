import { createRoute, z } from '@hono/zod-openapi';
import { AGENT_SLUG_PATTERN } from '../../domain/handoffs/index.ts';
import { findSession } from '../../store/index.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonContent } from '../schemas.ts';
import { AgentContextSchema } from '../view-schemas.ts';

const withSlug = z.object({
  id: idParameter('id'),
  slug: z
    .string()
    .regex(AGENT_SLUG_PATTERN, `must be an agent slug (${AGENT_SLUG_PATTERN.source})`)
    .openapi({ param: { name: 'slug', in: 'path' } }),
});

const agentContext = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/agents/{slug}/context',
  summary:
    "Exactly what the agent's next model call would send: system prompt, tools, the history as sent (after the compaction point), token counts",
  request: { params: withSlug },
  responses: {
    200: jsonContent(AgentContextSchema, 'The next request and its figures'),
    ...errorResponses(400, 404, 409, 503),
  },
});

/** The ContextManager's view of an agent in a session (ADR 0080): what `forja context --session` prints. */
export function agentContextRoutes({ database, conversation }: AppDependencies) {
  return newRouter().openapi(agentContext, async (context) => {
    const { id, slug } = context.req.valid('param');
    const session = await findSession(database, id);
    if (!session)
      return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
    const outcome = await conversation.describeAgentContext(id, session.project_id, slug);
    if (outcome.ok)
      return context.json(
        {
          session_id: id,
          system: outcome.system,
          layers: outcome.layers,
          tools: outcome.tools,
          ...outcome.context,
        },
        200,
      );
    if (outcome.status === 404)
      return context.json(apiError(outcome.code, outcome.message, 'slug'), 404);
    return context.json(
      apiError(outcome.code, outcome.message),
      outcome.status === 409 ? 409 : 503,
    );
  });
}
