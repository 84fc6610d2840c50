import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Refusal } from '../../conversation/index.ts';
import { SESSION_END_REASONS } from '../../domain/memory/index.ts';
import { MAX_RAG_K, recordRagFeedback } from '../../memory/index.ts';
import { findProject, findSession } from '../../store/index.ts';
import { actorOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  errorResponses,
  idParameter,
  jsonBody,
  jsonContent,
  noBody,
  SessionEventSchema,
  text,
} from '../schemas.ts';

const MAX_QUERY_CHARACTERS = 2000;
const idOnly = z.object({ id: idParameter('id') });
const nonEmpty = (max: number) =>
  text()
    .refine((text) => text.trim().length > 0, 'must not be empty')
    .pipe(z.string().max(max, `must be at most ${max} characters`));

const EvidenceSchema = z.object({
  session_id: z.string(),
  seq: z.number().int(),
  type: z.string().nullable(),
  excerpt: z.string().nullable(),
});
const UserContextSchema = z
  .object({
    project_id: z.uuid(),
    hypotheses: z.array(
      z.object({
        id: z.string(),
        session_id: z.string(),
        statement: z.string(),
        status: z.string(),
        trigger_reason: z.string().nullable(),
        proposed_at: z.string().nullable(),
        answered_at: z.string().nullable(),
        evidence: z.array(EvidenceSchema),
      }),
    ),
    profiles: z.array(
      z.object({
        competency: z.string(),
        level: z.string(),
        recorded_at: z.string(),
        evidence: z.array(EvidenceSchema),
      }),
    ),
  })
  .openapi('UserContext');
const RagSearchSchema = z
  .strictObject({
    query: nonEmpty(MAX_QUERY_CHARACTERS),
    k: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_RAG_K, `must be at most ${MAX_RAG_K}`)
      .default(10),
  })
  .openapi('RagSearch');
const RagHitSchema = z.object({
  chunk_id: z.string(),
  source_kind: z.enum(['artifact', 'agent_response', 'doc']),
  source_id: z.string(),
  source: z.string(),
  text: z.string(),
  score: z.number(),
});
const RagResultSchema = z
  .object({
    hits: z.array(RagHitSchema),
    degraded: z.boolean(),
    reason: z.string().optional(),
    method: z.enum(['hnsw', 'lsh', 'exact']),
    parts: z.array(z.enum(['fts', 'hnsw', 'lsh', 'exact'])),
  })
  .openapi('RagSearchResult');
const chunkIds = z
  .array(text().min(1, 'must not be empty').max(300, 'must be at most 300 characters'))
  .max(MAX_RAG_K, `must have at most ${MAX_RAG_K} items`);
const RagFeedbackSchema = z
  .strictObject({
    query: nonEmpty(MAX_QUERY_CHARACTERS),
    helpful: chunkIds,
    not_helpful: chunkIds.default([]),
  })
  .openapi('RagFeedback');

const endSession = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/end',
  summary:
    'End the session: session.ended with the reason classified from its log; the Psicólogo and the Anamnese run after it when enabled',
  request: { params: idOnly, body: noBody },
  responses: {
    201: jsonContent(
      z.object({
        event: SessionEventSchema,
        reason: z.enum(SESSION_END_REASONS),
        companions: z.array(z.string()),
      }),
      'The session ended',
    ),
    ...errorResponses(400, 404, 409, 413, 415),
  },
});
const answerRoute = (verb: 'accept' | 'dismiss') =>
  createRoute({
    method: 'post',
    path: `/api/hypotheses/{id}/${verb}`,
    summary: `${verb === 'accept' ? 'Accept' : 'Dismiss'} a Psicólogo hypothesis (once; 409 naming the earlier answer)`,
    request: { params: idOnly, body: noBody },
    responses: {
      200: jsonContent(
        z.object({ event: SessionEventSchema }),
        `hypothesis.${verb === 'accept' ? 'accepted' : 'dismissed'}`,
      ),
      ...errorResponses(400, 404, 409, 413, 415),
    },
  });
const userContext = createRoute({
  method: 'get',
  path: '/api/projects/{id}/user-context',
  summary:
    "query_user_context: the graph's hypotheses about the project's person, with their evidence, and competence profiles",
  request: { params: idOnly },
  responses: {
    200: jsonContent(UserContextSchema, 'What the graph knows'),
    ...errorResponses(400, 404, 503),
  },
});
const search = createRoute({
  method: 'post',
  path: '/api/projects/{id}/rag/search',
  summary:
    "rag_search {query, k}: the project's most relevant fragments, with scores; degraded: true with the reason when RAG failed",
  request: { params: idOnly, body: jsonBody(RagSearchSchema) },
  responses: { 200: jsonContent(RagResultSchema, 'Hits'), ...errorResponses(400, 404, 413, 415) },
});
const feedback = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/rag-feedback',
  summary: 'rag_feedback: record which rag_search hits helped (a rag.feedback event)',
  request: { params: idOnly, body: jsonBody(RagFeedbackSchema) },
  responses: {
    201: jsonContent(SessionEventSchema, 'The rag.feedback event'),
    ...errorResponses(400, 404, 413, 415),
  },
});

function refused(context: Context, outcome: Refusal): never {
  return context.json(apiError(outcome.code, outcome.message), outcome.status) as never;
}

/** The relational memory's routes (record ADR 0101). */
export function memoryRoutes({ database, eventLog, conversation, memory }: AppDependencies) {
  const app = newRouter()
    .openapi(endSession, async (context) => {
      const outcome = await conversation.endSession(
        context.req.valid('param').id,
        actorOf(context),
      );
      return outcome.ok
        ? context.json(
            { event: outcome.event, reason: outcome.reason, companions: outcome.companions },
            201,
          )
        : refused(context, outcome);
    })
    .openapi(userContext, async (context) => {
      const { id } = context.req.valid('param');
      if ((await findProject(database, id)) === null)
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const outcome = await memory.userContext(id);
      return outcome.ok
        ? context.json(outcome.context, 200)
        : context.json(apiError('graph_unavailable', outcome.reason), 503);
    })
    .openapi(search, async (context) => {
      const { id } = context.req.valid('param');
      if ((await findProject(database, id)) === null)
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const { query, k } = context.req.valid('json');
      const result = await memory.ragSearch(id, { query, k });
      return context.json({ ...result, hits: [...result.hits], parts: [...result.parts] }, 200);
    })
    .openapi(feedback, async (context) => {
      const { id } = context.req.valid('param');
      if ((await findSession(database, id)) === null)
        return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
      const body = context.req.valid('json');
      const outcome = await recordRagFeedback(eventLog, id, actorOf(context), {
        query: body.query,
        helpful: body.helpful,
        notHelpful: body.not_helpful,
      });
      return outcome.ok
        ? context.json(outcome.event, 201)
        : context.json(apiError('not_found', outcome.reason, 'id'), 404);
    });
  for (const verb of ['accept', 'dismiss'] as const) {
    app.openapi(answerRoute(verb), async (context) => {
      const outcome = await conversation.answerHypothesis(
        context.req.valid('param').id,
        verb,
        actorOf(context),
      );
      return outcome.ok ? context.json({ event: outcome.event }, 200) : refused(context, outcome);
    });
  }
  return app;
}
