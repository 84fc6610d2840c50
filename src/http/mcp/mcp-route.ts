import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { actorOf, personOf } from '../access/person-of-request.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { registerDecisionTools } from './mcp-decision-tools.ts';
import { registerReadTools } from './mcp-read-tools.ts';
import type { McpCaller } from './mcp-tool-kit.ts';

/** Where Forja answers as an MCP server. */
export const MCP_PATH = '/mcp';

const INSTRUCTIONS =
  "Forja's sessions: read them (list_projects, list_sessions, read_session), see what waits for you (list_waiting), and act as the person (send_message, accept_handoff, reject_handoff, approve_action, deny_action, answer_question).";

/** A server for one request, knowing its caller: every tool is registered with who asks. */
export function createMcpServer(dependencies: AppDependencies, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'forja', version: dependencies.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const context = { dependencies, caller };
  registerReadTools(server, context);
  registerDecisionTools(server, context);
  return server;
}

/**
 * Forja as an MCP server over Streamable HTTP, stateless (ADR 0350): each POST gets its own server and transport,
 * answered as JSON, so nothing is kept between requests and any process of Forja can answer. The access
 * middleware ran before (ADR 0100). A GET (a stream of server messages) and a DELETE (end of a session) have
 * nothing to do without sessions: 405, as the protocol allows.
 */
export function mcpRoutes(dependencies: AppDependencies) {
  return new Hono()
    .post(MCP_PATH, async (context) => {
      const server = createMcpServer(dependencies, {
        person: personOf(context),
        actor: actorOf(context),
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(context.req.raw);
      } finally {
        await server.close();
      }
    })
    .on(['GET', 'DELETE'], MCP_PATH, (context) =>
      context.json(
        {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: 'Method not allowed: this server is stateless; POST only.',
          },
          id: null,
        },
        405,
        { allow: 'POST' },
      ),
    );
}
