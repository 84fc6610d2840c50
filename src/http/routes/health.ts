import { createRoute, z } from '@hono/zod-openapi';
import { newRouter } from '../router.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { errorResponses, jsonContent } from '../schemas.ts';

const HealthSchema = z.object({ status: z.literal('ok'), version: z.string(), database: z.object({ kind: z.string(), description: z.string() }) }).openapi('Health');

const health = createRoute({
  method: 'get',
  path: '/api/health',
  summary: 'Whether the server and its database answer',
  responses: { 200: jsonContent(HealthSchema, 'Healthy'), ...errorResponses(503) },
});

export function healthRoutes(dependencies: AppDependencies) {
  return newRouter().openapi(health, async (context) => {
    try {
      await dependencies.database.query('select 1');
    } catch (error) {
      dependencies.logger.warn({ err: error }, 'health check: database did not answer');
      return context.json({ error: { code: 'database_unavailable', message: 'The database does not answer.' } }, 503);
    }
    const { kind, description } = dependencies.database;
    return context.json({ status: 'ok' as const, version: dependencies.version, database: { kind, description } }, 200);
  });
}
