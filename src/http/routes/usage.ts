import { createRoute, z } from '@hono/zod-openapi';
import { readProjectBudget, setProjectBudget, summariseUsage } from '../../gateway/index.ts';
import { findProject, findSession } from '../../store/index.ts';
import { notOwnerError } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonBody, jsonContent } from '../schemas.ts';

const UsageLineSchema = z.object({
  agent: z.string(),
  provider: z.string(),
  model: z.string(),
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  estimated_calls: z.number().int(),
  failed_calls: z.number().int(),
  refused_calls: z.number().int(),
  /** Calls whose process stopped during them: settled at the estimate, counted as spent (ADR 0130). */
  interrupted_calls: z.number().int(),
  /** Their tokens (estimated input and the output streamed so far), part of total_tokens. */
  interrupted_tokens: z.number().int(),
});
const UsageSchema = z
  .object({
    total_tokens: z.number().int(),
    reserved_tokens: z.number().int(),
    max_tokens: z.number().int().nullable().optional(),
    by_agent_and_model: z.array(UsageLineSchema),
  })
  .openapi('Usage');
const BudgetSchema = z
  .strictObject({
    max_tokens: z
      .number({ error: 'must be a whole number of tokens or null' })
      .int('must be a whole number of tokens')
      .min(0, 'must be 0 or more')
      .nullable(),
  })
  .openapi('Budget');
const parameters = z.object({ id: idParameter('id') });

const projectUsage = createRoute({
  method: 'get',
  path: '/api/projects/{id}/usage',
  summary: "Tokens the project's model calls used, by agent and model, and its budget",
  request: { params: parameters },
  responses: { 200: jsonContent(UsageSchema, 'Usage'), ...errorResponses(400, 404) },
});
const sessionUsage = createRoute({
  method: 'get',
  path: '/api/sessions/{id}/usage',
  summary: "Tokens the session's model calls used, by agent and model",
  request: { params: parameters },
  responses: { 200: jsonContent(UsageSchema, 'Usage'), ...errorResponses(400, 404) },
});
const putBudget = createRoute({
  method: 'put',
  path: '/api/projects/{id}/budget',
  summary: "Set the project's token budget (null removes it)",
  request: { params: parameters, body: jsonBody(BudgetSchema) },
  responses: {
    200: jsonContent(BudgetSchema, 'The budget now'),
    ...errorResponses(400, 403, 404, 413, 415),
  },
});

export function usageRoutes({ database }: AppDependencies) {
  return newRouter()
    .openapi(projectUsage, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const usage = await summariseUsage(database, { projectId: id });
      return context.json({ ...usage, max_tokens: await readProjectBudget(database, id) }, 200);
    })
    .openapi(sessionUsage, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id)))
        return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
      return context.json(await summariseUsage(database, { sessionId: id }), 200);
    })
    .openapi(putBudget, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const notOwner = notOwnerError(context, "sets the project's budget");
      if (notOwner !== null) return context.json(notOwner, 403);
      const { max_tokens } = context.req.valid('json');
      await setProjectBudget(database, id, max_tokens);
      return context.json({ max_tokens }, 200);
    });
}
