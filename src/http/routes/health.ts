import { createRoute, z } from '@hono/zod-openapi';
import { newRouter } from '../router.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { errorResponses, jsonContent } from '../schemas.ts';

const endpointFields = {
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
};

const AgentModelHealthSchema = z
  .object({
    agent: z.string().openapi({ description: 'The agent kind: criativo, po, arquiteto, dev, …' }),
    variable: z.string().openapi({
      description: 'FORJA_MODEL_<AGENT> when the kind has a model of its own, else FORJA_MODEL.',
    }),
    ...endpointFields,
    window: z
      .object({
        tokens: z.number().int(),
        source: z.string(),
        from: z.string(),
        truncates_at: z.number().int().nullable(),
        warning: z.string().nullable(),
      })
      .nullable()
      .openapi({
        description:
          "The window the agent's requests are sized to: a setting, what its server said (Ollama's num_ctx, vLLM's max_model_len), or the model's family.",
      }),
  })
  .openapi('AgentModelHealth');

const ModelHealthSchema = z
  .object({ ...endpointFields, agents: z.array(AgentModelHealthSchema) })
  .openapi('ModelHealth');

const TerminalHealthSchema = z
  .object({
    mode: z.enum(['auto', 'proposed', 'direct']).openapi({
      description:
        'auto: commands run in the sandbox at once, risky ones wait for the person; proposed: every command waits; direct: none does.',
    }),
    sandbox_available: z.boolean(),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the sandbox cannot be made; null when it can.' }),
  })
  .openapi('TerminalHealth');

const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    database: z.object({ kind: z.string(), description: z.string() }),
    model: ModelHealthSchema,
    terminal: TerminalHealthSchema.nullable(),
  })
  .openapi('Health');

const health = createRoute({
  method: 'get',
  path: '/api/health',
  summary: 'Whether the server and its database answer, and whether the model endpoint does',
  description:
    "The model part is the last periodic look at each model endpoint (a GET of its model list, and Ollama's /api/show, no tokens), " +
    "with each agent's model and window under `agents`. `?check=model` looks again first (at most once per 5 s); " +
    'an unreachable model does not make the server unhealthy.',
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
    const terminal = dependencies.terminal;
    const probe = terminal === undefined ? null : await terminal.probe();
    return context.json(
      {
        status: 'ok' as const,
        version: dependencies.version,
        database: { kind, description },
        model,
        terminal:
          terminal === undefined || probe === null
            ? null
            : {
                mode: terminal.settings.mode,
                sandbox_available: probe.available,
                reason: probe.available ? null : probe.reason,
              },
      },
      200,
    );
  });
}
