import { createRoute, z } from '@hono/zod-openapi';
import { newRouter } from '../router.ts';
import { AGENT_SLUG_PATTERN } from '../../domain/handoffs/index.ts';
import { DEFAULT_READ_LIMIT, findSession } from '../../store/index.ts';
import { actorOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import {
  decimalText,
  errorResponses,
  idParameter,
  jsonBody,
  jsonContent,
  SessionEventSchema,
  SessionSchema,
  seqText,
  text,
} from '../schemas.ts';
import { SessionStateSchema } from '../view-schemas.ts';

const MAX_MESSAGE_CHARACTERS = 32_000;
const sessionParameters = z.object({ id: idParameter('id') });
export const NewMessageSchema = z
  .strictObject({
    text: text()
      .refine((text) => text.trim().length > 0, 'must not be empty')
      .pipe(
        z
          .string()
          .max(MAX_MESSAGE_CHARACTERS, `must be at most ${MAX_MESSAGE_CHARACTERS} characters`),
      ),
    /** The agent the message is for (`criativo`, `po`, `dev:<module>` …); without it, the session's current addressee. */
    to: z
      .string()
      .regex(AGENT_SLUG_PATTERN, `must be an agent slug (${AGENT_SLUG_PATTERN.source})`)
      .optional(),
  })
  .openapi('NewMessage');
const EventsQuerySchema = z.object({
  after: seqText()
    .optional()
    .openapi({ param: { name: 'after', in: 'query' }, example: '0' }),
  limit: decimalText(1, DEFAULT_READ_LIMIT)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, example: '100' }),
});

const show = createRoute({
  method: 'get',
  path: '/api/sessions/{id}',
  summary: 'One session',
  request: { params: sessionParameters },
  responses: { 200: jsonContent(SessionSchema, 'The session'), ...errorResponses(400, 404) },
});
const postMessage = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/messages',
  summary:
    "Append the person's message (a chat.message event) for `to` (an active agent; default: the session's current addressee), who answers in a turn streamed over /stream; 409 names the active agents",
  request: { params: sessionParameters, body: jsonBody(NewMessageSchema) },
  responses: {
    201: jsonContent(SessionEventSchema, 'The appended event'),
    ...errorResponses(400, 404, 409, 413, 415),
  },
});
const listEvents = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/events',
  summary: "The session's events in seq order",
  request: { params: sessionParameters, query: EventsQuerySchema },
  responses: {
    200: jsonContent(z.object({ events: z.array(SessionEventSchema) }), 'Events'),
    ...errorResponses(400, 404),
  },
});

const sessionState = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/state',
  summary:
    'The session as its event log folds: active agents, business rules, brief, handoffs, pending actions, turn in progress',
  request: { params: sessionParameters },
  responses: {
    200: jsonContent(SessionStateSchema, 'The folded state'),
    ...errorResponses(400, 404),
  },
});

const sessionNotFound = (id: string) => apiError('not_found', `No session with id ${id}.`, 'id');

export function sessionRoutes({ database, eventLog, conversation, gateway }: AppDependencies) {
  return newRouter()
    .openapi(show, async (context) => {
      const { id } = context.req.valid('param');
      const session = await findSession(database, id);
      return session ? context.json(session, 200) : context.json(sessionNotFound(id), 404);
    })
    .openapi(postMessage, async (context) => {
      const { id } = context.req.valid('param');
      const { text, to } = context.req.valid('json');
      const outcome = await conversation.postMessage(id, text, to, actorOf(context));
      if (!outcome.ok)
        return outcome.status === 409
          ? context.json(
              apiError(
                outcome.code,
                outcome.message,
                outcome.code === 'not_active' ? 'to' : undefined,
              ),
              409,
            )
          : context.json(sessionNotFound(id), 404);
      return context.json(outcome.event, 201);
    })
    .openapi(sessionState, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id))) return context.json(sessionNotFound(id), 404);
      const { history: _history, ...state } = (await conversation.views.load(id)).state;
      return context.json({ ...state, model: gateway.status(), models: gateway.models() }, 200);
    })
    .openapi(listEvents, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id))) return context.json(sessionNotFound(id), 404);
      const { after = 0, limit = 100 } = context.req.valid('query');
      return context.json({ events: await eventLog.read(id, { afterSeq: after, limit }) }, 200);
    });
}
