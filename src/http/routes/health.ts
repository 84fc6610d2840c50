import { createRoute, z } from '@hono/zod-openapi';
import { newRouter } from '../router.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { errorResponses, jsonContent } from '../schemas.ts';

const ModelHealthSchema = z
  .object({
    configured: z.boolean(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    target: z.string().nullable().openapi({
      description: 'The endpoint looked at, without credentials; null for scripted or no model.',
    }),
    reachable: z
      .boolean()
      .nullable()
      .openapi({ description: 'Whether it answered the last look; null before the first.' }),
    checked_at: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .openapi('ModelHealth');

const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    database: z.object({ kind: z.string(), description: z.string() }),
    model: ModelHealthSchema,
  })
  .openapi('Health');

const health = createRoute({
  method: 'get',
  path: '/api/health',
  summary: 'Whether the server and its database answer, and whether the model endpoint does',
  description:
    'The model part is the last periodic look (a GET of its model list, no tokens). `?check=model` looks again first ' +
    '(at most once per 5 s); an unreachable model does not make the server unhealthy.',
  request: { query: z.object({ check: z.enum(['model']).optional() }) },
  responses: { 200: jsonContent(HealthSchema, 'Healthy'), ...errorResponses(400, 503) },
});

export function healthRoutes(dependencies: AppDependencies) {
  return newRouter().openapi(health, async (context) => {
    try {
      await dependencies.database.query('select 1');
    } catch (error) {
      dependencies.logger.warn({ err: error }, 'health check: database did not answer');
      return context.json(
        { error: { code: 'database_unavailable', message: 'The database does not answer.' } },
        503,
      );
    }
    const { kind, description } = dependencies.database;
    const model =
      context.req.valid('query').check === 'model'
        ? await dependencies.modelHealth.check()
        : dependencies.modelHealth.current();
    return context.json(
      {
        status: 'ok' as const,
        version: dependencies.version,
        database: { kind, description },
        model,
      },
      200,
    );
  });
}
