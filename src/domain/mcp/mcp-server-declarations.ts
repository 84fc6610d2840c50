import { z } from 'zod';

/** At most this many MCP servers per project: each is a process in every dev's sandbox. */
export const MAX_MCP_SERVERS = 8;
export const MAX_MCP_COMMAND_CHARACTERS = 2000;

/**
 * A server's name: it becomes the middle of its tools' names (`mcp__<server>__<tool>`), so lower-case letters,
 * digits and single underscores or hyphens, starting with a letter; no `__`, which would make the namespacing
 * ambiguous.
 */
export const MCP_SERVER_NAME_PATTERN = /^[a-z](?:[a-z0-9]|[_-][a-z0-9])*$/;
export const MAX_MCP_SERVER_NAME_CHARACTERS = 32;

const NAME_RULE =
  'must be 1 to 32 lower-case letters, digits, "_" or "-", starting with a letter, with no "__" and no trailing "_" or "-"';
const serverName = z
  .string({ error: 'must be a string' })
  .max(MAX_MCP_SERVER_NAME_CHARACTERS, NAME_RULE)
  .regex(MCP_SERVER_NAME_PATTERN, NAME_RULE);

const command = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_MCP_COMMAND_CHARACTERS, `must be at most ${MAX_MCP_COMMAND_CHARACTERS} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL and other controls are what is refused
  .refine((text) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text), {
    error: 'must not contain control characters',
  });

/**
 * One MCP server of a project (ADR 0410): a stdio server, started as a shell command line (`sh -c`) inside the
 * dev's sandbox, in the dev's worktree. Only stdio: the sandbox has no network, so a server the dev's tools
 * reach over HTTP would have to run outside it.
 */
export const McpServerDeclarationSchema = z.strictObject({
  name: serverName,
  transport: z.literal('stdio', { error: 'must be "stdio" (the only transport a sandbox allows)' }),
  command,
});

/** A project's MCP servers, replaced whole by `PUT /api/projects/:id/mcp-servers`. */
export const McpServerDeclarationsSchema = z.strictObject({
  servers: z
    .array(McpServerDeclarationSchema, { error: 'must be an array of servers' })
    .max(MAX_MCP_SERVERS, `must hold at most ${MAX_MCP_SERVERS} servers`)
    .superRefine((servers, context) => {
      const seen = new Set<string>();
      servers.forEach((server, index) => {
        if (seen.has(server.name))
          context.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `must be unique: "${server.name}" is declared twice`,
          });
        seen.add(server.name);
      });
    }),
});

export type McpServerDeclaration = z.output<typeof McpServerDeclarationSchema>;
export type McpServerDeclarations = z.output<typeof McpServerDeclarationsSchema>;

/** The name a dev agent sees for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** Tool names the providers accept (OpenAI's and Anthropic's rule); a server's tool outside it is not offered. */
export const PROVIDER_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
