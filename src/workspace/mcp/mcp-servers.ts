import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  type McpServerDeclaration,
  mcpToolName,
  PROVIDER_TOOL_NAME_PATTERN,
} from '../../domain/mcp/index.ts';
import type { TerminalRunner } from '../terminal/terminal-runner.ts';
import { SandboxedStdioTransport } from './sandboxed-stdio-transport.ts';

/** Longest wait for a server to start and answer `initialize` and `tools/list`. */
const START_TIMEOUT_MS = 30_000;
/** A server unused this long is stopped; the next use starts it again. */
const DEFAULT_IDLE_MS = 10 * 60_000;
/** At most this many tools of one server are offered; a larger input schema than this is not offered. */
export const MAX_TOOLS_PER_SERVER = 64;
export const MAX_INPUT_SCHEMA_CHARACTERS = 16 * 1024;
export const MAX_DESCRIPTION_CHARACTERS = 1024;

/** A tool of a server as a dev is offered it: its namespaced name, its schema as the server gave it, its check. */
export interface McpServerTool {
  name: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's JSON Schema as a zod schema: Forja refuses arguments it does not accept before the call. */
  parameters: z.ZodType;
}

/** What listing one server found: its tools (and those not offered, with why), or why it did not start. */
export type McpServerListing =
  | { server: string; ok: true; tools: McpServerTool[]; skipped: string[] }
  | { server: string; ok: false; reason: string };

export interface McpServers {
  /** Each declared server's tools, each server started in the sandbox of `worktree` if it is not running. */
  list(worktree: string, servers: readonly McpServerDeclaration[]): Promise<McpServerListing[]>;
  /** One call of `tool`; a failure of the server or of the call is `ok: false` with a reason, never a throw. */
  call(
    worktree: string,
    server: McpServerDeclaration,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ ok: boolean; text: string }>;
  /** Stops every server. */
  close(): Promise<void>;
}

interface Connection {
  client: Client;
  transport: SandboxedStdioTransport;
}

type Entry = { connection: Promise<Connection | { reason: string }>; timer: NodeJS.Timeout | null };

/**
 * The projects' MCP servers for the dev agents (ADR 0410), one process per worktree and declaration, started
 * by the terminal runner inside the dev's sandbox, spoken to with the SDK's `Client`, kept while used.
 */
export function createMcpServers(
  terminal: TerminalRunner,
  options: { idleMs?: number } = {},
): McpServers {
  const { settings } = terminal;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const entries = new Map<string, Entry>();
  const maxMessageBytes = Math.max(1024 * 1024, 4 * settings.outputLimitBytes);

  const drop = (key: string, entry: Entry) => {
    if (entries.get(key) === entry) entries.delete(key);
    if (entry.timer !== null) clearTimeout(entry.timer);
    void entry.connection.then((found) => ('client' in found ? found.client.close() : undefined));
  };
  const use = (worktree: string, server: McpServerDeclaration) => {
    const key = `${worktree}\n${server.name}\n${server.command}`;
    let entry = entries.get(key);
    if (entry === undefined) {
      const made: Entry = { connection: Promise.resolve({ reason: '' }), timer: null };
      made.connection = connect(terminal, worktree, server, maxMessageBytes, () => drop(key, made));
      entry = made;
      entries.set(key, entry);
    }
    const current = entry;
    if (current.timer !== null) clearTimeout(current.timer);
    current.timer = setTimeout(() => drop(key, current), idleMs);
    current.timer.unref();
    return current.connection;
  };

  return {
    list: (worktree, servers) =>
      Promise.all(
        servers.map(async (server): Promise<McpServerListing> => {
          const found = await use(worktree, server);
          if ('reason' in found)
            return { server: server.name, ok: false, reason: hidePath(found.reason, worktree) };
          return listTools(found, server, worktree);
        }),
      ),
    async call(worktree, server, tool, args, signal) {
      const found = await use(worktree, server);
      if ('reason' in found)
        return {
          ok: false,
          text: `MCP server "${server.name}" is not running: ${hidePath(found.reason, worktree)}`,
        };
      try {
        const result = (await found.client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: settings.timeoutMs,
          ...(signal === undefined ? {} : { signal }),
        })) as CallToolResult;
        const text = hidePath(resultText(result), worktree);
        return { ok: result.isError !== true, text: boundBytes(text, settings.outputLimitBytes) };
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          text: `MCP server "${server.name}" failed the call of ${tool}: ${hidePath(why, worktree).slice(0, 1000)}`,
        };
      }
    },
    async close() {
      for (const [key, entry] of [...entries]) drop(key, entry);
    },
  };
}

async function connect(
  terminal: TerminalRunner,
  worktree: string,
  server: McpServerDeclaration,
  maxMessageBytes: number,
  onClose: () => void,
): Promise<Connection | { reason: string }> {
  const started = await terminal.start(worktree, server.command);
  if (!started.ok) return started;
  const transport = new SandboxedStdioTransport(started, maxMessageBytes);
  const client = new Client({ name: 'forja', version: '1' }, { capabilities: {} });
  try {
    await client.connect(transport, {
      timeout: Math.min(START_TIMEOUT_MS, terminal.settings.timeoutMs),
    });
  } catch (error) {
    started.kill();
    const why = error instanceof Error ? error.message : String(error);
    const stderr = transport.stderr().trim();
    return {
      reason: `it did not start (${why.slice(0, 300)})${stderr === '' ? '' : `; its stderr ends with: ${stderr.slice(-500)}`}`,
    };
  }
  client.onclose = onClose;
  return { client, transport };
}

async function listTools(
  connection: Connection,
  server: McpServerDeclaration,
  worktree: string,
): Promise<McpServerListing> {
  let tools: Tool[];
  try {
    tools = (await connection.client.listTools(undefined, { timeout: START_TIMEOUT_MS })).tools;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { server: server.name, ok: false, reason: hidePath(why, worktree).slice(0, 500) };
  }
  const offered: McpServerTool[] = [];
  const skipped: string[] = [];
  for (const tool of tools.slice(0, MAX_TOOLS_PER_SERVER)) {
    const made = offeredTool(server.name, tool);
    if (typeof made === 'string') skipped.push(made);
    else offered.push(made);
  }
  if (tools.length > MAX_TOOLS_PER_SERVER)
    skipped.push(
      `${tools.length - MAX_TOOLS_PER_SERVER} tools beyond the first ${MAX_TOOLS_PER_SERVER}`,
    );
  return { server: server.name, ok: true, tools: offered, skipped };
}

/** The tool as offered, or why it is not (its name, its schema). */
function offeredTool(server: string, tool: Tool): McpServerTool | string {
  const name = mcpToolName(server, tool.name);
  const shown = JSON.stringify(tool.name).slice(0, 80);
  if (!PROVIDER_TOOL_NAME_PATTERN.test(name))
    return `${shown}: its name is not one a model provider accepts (letters, digits, "_", "-", at most 64 characters with the prefix)`;
  const schema = JSON.stringify(tool.inputSchema);
  if (schema.length > MAX_INPUT_SCHEMA_CHARACTERS)
    return `${shown}: its input schema is longer than ${MAX_INPUT_SCHEMA_CHARACTERS} characters`;
  let parameters: z.ZodType;
  try {
    parameters = z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return `${shown}: its input schema is not one Forja can check`;
  }
  return {
    name,
    tool: tool.name,
    description: (tool.description ?? tool.title ?? '').slice(0, MAX_DESCRIPTION_CHARACTERS),
    inputSchema: JSON.parse(schema) as Record<string, unknown>,
    parameters,
  };
}

/** A call's result as the model reads it: its text, and a note for each part that is not text. */
function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'resource':
        return 'text' in part.resource
          ? part.resource.text
          : `[binary resource ${part.resource.uri} not shown]`;
      case 'resource_link':
        return `[resource ${part.uri}]`;
      default:
        return `[${part.type} content not shown]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

/** `text` cut to `limit` UTF-8 bytes (at a character), with a note when cut. */
export function boundBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  const kept = bytes
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}\n[output cut at ${limit} bytes]`;
}

/** The worktree's host path never reaches the model or the log: it is "." in what a server says. */
function hidePath(text: string, worktree: string): string {
  return text.split(worktree).join('.');
}
