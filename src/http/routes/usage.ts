import { createRoute, z } from '@hono/zod-openapi';
import {
  BUILT_IN_PRICES,
  readProjectBudgets,
  setProjectBudget,
  setProjectMoneyBudget,
  summariseUsage,
} from '../../gateway/index.ts';
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
  /** Of input_tokens, those read from the provider's prompt cache, and those written to it. */
  cached_input_tokens: z.number().int(),
  cache_write_input_tokens: z.number().int(),
  /** What these calls cost in US dollars at their model's price (FORJA_PRICES over the built-in list). */
  cost_usd: z.number(),
  /** Calls with no price known for their model: their cost is not in cost_usd. */
  unpriced_calls: z.number().int(),
});
const LaneUsageSchema = z.object({
  /** The agent, with the calls made for it (the ContextManager's summaries). */
  lane: z.string(),
  calls: z.number().int(),
  total_tokens: z.number().int(),
  cached_input_tokens: z.number().int(),
  cache_write_input_tokens: z.number().int(),
  cost_usd: z.number(),
});
const UsageSchema = z
  .object({
    total_tokens: z.number().int(),
    reserved_tokens: z.number().int(),
    max_tokens: z.number().int().nullable().optional(),
    input_tokens: z.number().int(),
    cached_input_tokens: z.number().int(),
    /** The share of input tokens read from a prompt cache, 0 to 1. */
    cached_share: z.number(),
    /** What the calls cost in US dollars (those with a known price). */
    total_cost_usd: z.number(),
    /** Money held by turns in progress, at full price. */
    reserved_usd: z.number(),
    /** The project's budget in US dollars (project usage only). */
    max_usd: z.number().nullable().optional(),
    unpriced_calls: z.number().int(),
    /** Where the prices come from: the dated built-in list, or FORJA_PRICES over it. */
    prices: z.string(),
    by_agent_and_model: z.array(UsageLineSchema),
    by_lane: z.array(LaneUsageSchema),
  })
  .openapi('Usage');
const maxTokens = z
  .number({ error: 'must be a whole number of tokens or null' })
  .int('must be a whole number of tokens')
  .min(0, 'must be 0 or more')
  .nullable();
const maxUsd = z
  .number({ error: 'must be a number of US dollars or null' })
  .min(0, 'must be 0 or more')
  .max(1_000_000_000, 'must be at most 1000000000')
  .nullable();
const BudgetSchema = z
  .strictObject({ max_tokens: maxTokens.optional(), max_usd: maxUsd.optional() })
  .refine((body) => body.max_tokens !== undefined || body.max_usd !== undefined, {
    error: 'must set max_tokens, max_usd or both (null removes one)',
  })
  .openapi('Budget');
const BudgetNowSchema = z
  .object({ max_tokens: z.number().int().nullable(), max_usd: z.number().nullable() })
  .openapi('BudgetNow');
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
  summary:
    "Set the project's budget in tokens (max_tokens) and/or in US dollars (max_usd); null removes one, an absent one stays",
  request: { params: parameters, body: jsonBody(BudgetSchema) },
  responses: {
    200: jsonContent(BudgetNowSchema, 'The budgets now'),
    ...errorResponses(400, 403, 404, 413, 415),
  },
});

export function usageRoutes({ database, prices }: AppDependencies) {
  const source = (prices ?? BUILT_IN_PRICES).source;
  return newRouter()
    .openapi(projectUsage, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const usage = await summariseUsage(database, { projectId: id });
      const budgets = await readProjectBudgets(database, id);
      return context.json({ ...usage, ...budgets, prices: source }, 200);
    })
    .openapi(sessionUsage, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id)))
        return context.json(apiError('not_found', `No session with id ${id}.`, 'id'), 404);
      const usage = await summariseUsage(database, { sessionId: id });
      return context.json({ ...usage, prices: source }, 200);
    })
    .openapi(putBudget, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      const notOwner = notOwnerError(context, "sets the project's budget");
      if (notOwner !== null) return context.json(notOwner, 403);
      const { max_tokens, max_usd } = context.req.valid('json');
      if (max_tokens !== undefined) await setProjectBudget(database, id, max_tokens);
      if (max_usd !== undefined) await setProjectMoneyBudget(database, id, max_usd);
      return context.json(await readProjectBudgets(database, id), 200);
    });
}
