import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { accessControl, requestOriginGuard } from './access/access-middleware.ts';
import { apiError, respondWithError } from './api-error.ts';
import type { AppDependencies } from './app-dependencies.ts';
import { jsonBodies, MALFORMED_JSON, NOT_JSON } from './json-bodies.ts';
import { MCP_PATH, mcpRoutes } from './mcp/mcp-route.ts';
import { agentContextRoutes } from './routes/agent-context.ts';
import { agentInstructionRoutes } from './routes/agent-instructions.ts';
import { architectureRoutes } from './routes/architecture.ts';
import { idleLaneRoutes } from './routes/idle-lanes.ts';
import { authRoutes } from './routes/auth.ts';
import { commitRoutes } from './routes/commits.ts';
import { conversationRoutes } from './routes/conversation.ts';
import { gitHttpRoutes } from './routes/git-http.ts';
import { healthRoutes } from './routes/health.ts';
import { mcpServerRoutes } from './routes/mcp-servers.ts';
import { memoryRoutes } from './routes/memory.ts';
import { projectRoutes } from './routes/projects.ts';
import { remoteRoutes } from './routes/remotes.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { staticWebRoutes } from './routes/static-web.ts';
import { streamRoutes } from './routes/stream.ts';
import { turnRoutes } from './routes/turns.ts';
import { turnTraceRoutes } from './routes/turn-trace.ts';
import { usageRoutes } from './routes/usage.ts';
import { newRouter } from './router.ts';

/** Request bodies larger than this are refused with 413 before they are read whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Builds the HTTP application: the API under /api, its OpenAPI document, and JSON errors for every failure.
 * Nothing here listens on a port; `serve` does that, and tests call `app.request(...)` in-process.
 */
export function createApp(dependencies: AppDependencies) {
  const app = newRouter();

  // Before anything else: the Host and Origin rule for every request, then who is asking (ADR 0100).
  app.use('*', requestOriginGuard(dependencies.access.network));
  const access = accessControl(dependencies.database, dependencies.access.accountsInUse);
  app.use('/api/*', access);
  app.use('/git/*', access);
  // The MCP server (ADR 0350) answers under the same access rules and body limit as the API.
  app.use(MCP_PATH, access);

  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (context) =>
      respondWithError(
        context,
        413,
        'body_too_large',
        `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
      ),
  });
  app.use('/api/*', limit);
  app.use(MCP_PATH, limit);
  app.use('/api/*', jsonBodies());

  for (const routes of [
    healthRoutes,
    authRoutes,
    projectRoutes,
    remoteRoutes,
    sessionRoutes,
    usageRoutes,
    mcpServerRoutes,
    streamRoutes,
    agentInstructionRoutes,
    conversationRoutes,
    architectureRoutes,
    idleLaneRoutes,
    commitRoutes,
    memoryRoutes,
    agentContextRoutes,
    turnRoutes,
    turnTraceRoutes,
  ])
    app.route('/', routes(dependencies));
  app.route('/', gitHttpRoutes(dependencies));

  app.route('/', mcpRoutes(dependencies));
  app.doc31('/api/openapi.json', openApiConfig(dependencies.version));
  app.route('/', staticWebRoutes());

  app.notFound((context) =>
    respondWithError(
      context,
      404,
      'not_found',
      `No route for ${context.req.method} ${context.req.path}.`,
    ),
  );
  app.onError((error, context) => {
    if (error instanceof HTTPException) return context.json(httpExceptionBody(error), error.status);
    dependencies.logger.error(
      { err: error, method: context.req.method, path: context.req.path },
      'unhandled error in a request',
    );
    return respondWithError(
      context,
      500,
      'internal_error',
      'Something went wrong on our side; the request was not completed.',
    );
  });
  return app;
}

function httpExceptionBody(error: HTTPException) {
  if (error.status === 400 && /malformed json/i.test(error.message)) return MALFORMED_JSON;
  if (error.status === 415) return NOT_JSON;
  return apiError('http_error', error.message);
}

/** The document's header; the paths and schemas come from the routes. */
export const openApiConfig = (version: string) => ({
  openapi: '3.1.0',
  info: { title: 'Forja API', version },
});

export type ForjaApp = ReturnType<typeof createApp>;
