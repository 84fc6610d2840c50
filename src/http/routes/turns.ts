import { createRoute, z } from '@hono/zod-openapi';
import { actorOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  errorResponses,
  idParameter,
  jsonContent,
  noBody,
  SessionEventSchema,
} from '../schemas.ts';

const TurnControlledSchema = z
  .object({
    agent: z.string(),
    turn_id: z.string(),
    events: z.array(SessionEventSchema),
  })
  .openapi('TurnControlled');

const params = z.object({ id: idParameter('id'), turnId: idParameter('turnId') });

const VERBS = {
  stop: {
    summary:
      'Stop a running turn: its model call is aborted and it ends as turn.stopped with the text streamed so far (200); when another process runs it, turn.stop_requested is recorded for that process (202); 409 naming the rule when it cannot be stopped',
    status: 200 as const,
  },
  retry: {
    summary:
      "Retry the lane's last turn when it failed: the same turn runs again from its own events (409 naming the rule otherwise)",
    status: 202 as const,
  },
  regenerate: {
    summary:
      "Regenerate the lane's last answer: it leaves the history (answer.superseded, kept in the log) and a new turn answers again (409 naming the rule otherwise)",
    status: 202 as const,
  },
};

const route = (verb: keyof typeof VERBS) =>
  createRoute({
    method: 'post',
    path: `/api/sessions/{id}/turns/{turnId}/${verb}`,
    summary: VERBS[verb].summary,
    request: { params, body: noBody },
    responses: {
      [VERBS[verb].status]: jsonContent(
        TurnControlledSchema,
        verb === 'stop' ? 'The turn.stopped event' : 'Recorded; the turn streams over SSE',
      ),
      ...(verb === 'stop'
        ? {
            202: jsonContent(
              TurnControlledSchema,
              'The turn.stop_requested event: another process runs the turn and stops it',
            ),
          }
        : {}),
      ...errorResponses(400, 404, 409, 413, 415),
    },
  });

/** Stop, Retry and Regenerate on a turn of a session (ADR 0220). */
export function turnRoutes({ conversation }: AppDependencies) {
  const app = newRouter();
  for (const verb of ['stop', 'retry', 'regenerate'] as const) {
    app.openapi(route(verb), async (context) => {
      const { id, turnId } = context.req.valid('param');
      const run =
        verb === 'stop'
          ? conversation.stopTurn
          : verb === 'retry'
            ? conversation.retryTurn
            : conversation.regenerateAnswer;
      const outcome = await run(id, turnId, actorOf(context));
      if (!outcome.ok)
        return context.json(apiError(outcome.code, outcome.message), outcome.status) as never;
      const body = { agent: outcome.agent, turn_id: outcome.turn_id, events: outcome.events };
      return context.json(body, outcome.requested === true ? 202 : VERBS[verb].status) as never;
    });
  }
  return app;
}
