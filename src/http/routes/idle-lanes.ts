import { createRoute, z } from '@hono/zod-openapi';
import { AGENT_SLUG_PATTERN } from '../../domain/handoffs/index.ts';
import { actorOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonContent, noBody } from '../schemas.ts';

const IdleLaneSchema = z
  .object({
    agent: z.string().openapi({ example: 'dev:catalog' }),
    module: z.string().openapi({ example: 'catalog' }),
    unfinished: z
      .array(z.object({ id: z.string(), title: z.string() }))
      .openapi({ description: "The module's tasks whose finish does not stand, in backlog order" }),
  })
  .openapi('IdleLane');

const idleLanesRoute = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/idle-lanes',
  summary:
    'The dev lanes sitting idle while their module is unfinished: activated, no turn running or owed, no open block (what "Needs you" offers to nudge)',
  request: { params: z.object({ id: idParameter('id') }) },
  responses: {
    200: jsonContent(z.object({ lanes: z.array(IdleLaneSchema) }), 'The idle lanes, oldest first'),
    ...errorResponses(400, 404),
  },
});

const nudgeRoute = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/agents/{slug}/nudge',
  summary:
    "Nudge an idle dev lane: a message to the dev naming its module's unfinished tasks, answered by a turn like any message; 409 lane_not_idle (with why) when the lane is not idle",
  request: {
    params: z.object({
      id: idParameter('id'),
      slug: z
        .string()
        .regex(AGENT_SLUG_PATTERN, `must be an agent slug (${AGENT_SLUG_PATTERN.source})`)
        .openapi({ param: { name: 'slug', in: 'path' }, example: 'dev:catalog' }),
    }),
    body: noBody,
  },
  responses: {
    202: jsonContent(
      z.object({ agent: z.string(), seq: z.number().int(), lane: IdleLaneSchema }),
      'The nudge is stored as a message to the dev (seq); its turn follows',
    ),
    ...errorResponses(400, 404, 409),
  },
});

/** Idle dev lanes and the person's nudge of one (the "Needs you" item for a lane that will not move by itself). */
export function idleLaneRoutes({ conversation }: AppDependencies) {
  return newRouter()
    .openapi(idleLanesRoute, async (context) => {
      const lanes = await conversation.idleLanes(context.req.valid('param').id);
      if (!Array.isArray(lanes))
        return context.json(apiError(lanes.code, lanes.message, 'id'), 404);
      return context.json({ lanes }, 200);
    })
    .openapi(nudgeRoute, async (context) => {
      const { id, slug } = context.req.valid('param');
      const outcome = await conversation.nudgeLane(id, slug, actorOf(context));
      if (outcome.ok) {
        return context.json({ agent: slug, seq: outcome.event.seq, lane: outcome.lane }, 202);
      }
      if (outcome.status === 409)
        return context.json(apiError(outcome.code, outcome.message, 'slug'), 409);
      return context.json(apiError(outcome.code, outcome.message, 'id'), 404);
    });
}
