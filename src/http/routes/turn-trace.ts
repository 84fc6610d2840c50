import { createRoute, z } from '@hono/zod-openapi';
import { foldTurnTrace } from '../../domain/conversation/index.ts';
import { readCalls } from '../../gateway/index.ts';
import { findSession } from '../../store/index.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonContent } from '../schemas.ts';

/** How many events of a session the trace reads at most. */
const MAX_EVENTS = 100_000;

const CallSchema = z.object({
  usage_id: z.string(),
  provider: z.string(),
  model: z.string(),
  outcome: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_input_tokens: z.number(),
  cache_write_input_tokens: z.number(),
  estimated: z.boolean(),
  latency_ms: z.number().nullable(),
  time_to_first_token_ms: z.number().nullable(),
  cost_usd: z.number().nullable(),
  started_at: z.string(),
  settled_at: z.string().nullable(),
});
const ToolCallSchema = z.object({
  tool_call_id: z.string(),
  tool: z.string(),
  args: z.string(),
  ok: z.boolean(),
  result: z.string(),
  result_characters: z.number().int(),
  started_at: z.string(),
  ended_at: z.string(),
  seq: z.number().int(),
});
const TurnTraceSchema = z
  .object({
    session_id: z.string(),
    turn_id: z.string(),
    agent: z.string(),
    status: z.enum(['running', 'answered', 'failed', 'stopped', 'limit_reached', 'waiting']),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    calls: z.array(CallSchema),
    tools: z.array(ToolCallSchema),
    events: z.array(
      z.object({
        seq: z.number().int(),
        type: z.string(),
        actor: z.string(),
        created_at: z.string(),
      }),
    ),
    totals: z.object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      cached_input_tokens: z.number(),
      cost_usd: z.number(),
      unpriced_calls: z.number().int(),
    }),
  })
  .openapi('TurnTrace');

const params = z.object({ id: idParameter('id'), turnId: idParameter('turnId') });
const turnTrace = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/turns/{turnId}/trace',
  summary:
    "One turn on a timeline: its model calls (tokens, cached share, cost, latency, first token) from token_usage, its tool calls (arguments, result or refusal, duration) and the events it appended, from the log; the ids are the OpenTelemetry spans' (forja.turn.id, gen_ai.tool.call.id)",
  request: { params },
  responses: { 200: jsonContent(TurnTraceSchema, "The turn's trace"), ...errorResponses(400, 404) },
});

/** `GET /api/sessions/:id/turns/:turnId/trace` (ADR 0411): built from the log and `token_usage`, no collector. */
export function turnTraceRoutes({ database, eventLog }: AppDependencies) {
  return newRouter().openapi(turnTrace, async (context) => {
    const { id, turnId } = context.req.valid('param');
    if (!(await findSession(database, id)))
      return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
    const skeleton = foldTurnTrace(await eventLog.read(id, { limit: MAX_EVENTS }), turnId);
    if (skeleton === null)
      return context.json(
        apiError('not_found', `No turn ${turnId} in session ${id}.`, 'turnId'),
        404,
      );
    const { usage_ids, ...turn } = skeleton;
    const calls = (await readCalls(database, id, usage_ids)).map(
      ({ agent: _agent, ...call }) => call,
    );
    const sum = (pick: (call: (typeof calls)[number]) => number) =>
      calls.reduce((total, call) => total + pick(call), 0);
    const totals = {
      input_tokens: sum((call) => call.input_tokens),
      output_tokens: sum((call) => call.output_tokens),
      cached_input_tokens: sum((call) => call.cached_input_tokens),
      cost_usd: sum((call) => call.cost_usd ?? 0),
      unpriced_calls: calls.filter((call) => call.cost_usd === null).length,
    };
    return context.json({ session_id: id, ...turn, calls, totals }, 200);
  });
}
