import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTerminalRunner,
  type McpServers,
  readTerminalSettings,
  type TerminalRunner,
} from '../../workspace/index.ts';
import { mcpTool } from './mcp-tools.ts';

const SERVER = { name: 'notes', transport: 'stdio' as const, command: 'node server.js' };
const TOOL = {
  name: 'mcp__notes__add',
  tool: 'add',
  description: 'Adds a note.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  parameters: z.object({ text: z.string() }),
};
/** The approval rule reads no server and no worktree: both refuse to be used. */
const unused = {
  workspaces: new Proxy({}, { get: () => expect.unreachable('workspaces used') }),
  mcp: new Proxy({}, { get: () => expect.unreachable('mcp used') }) as McpServers,
};

function runner(mode: string): TerminalRunner {
  const read = readTerminalSettings({ FORJA_TERMINAL_MODE: mode });
  if (!read.ok) throw new Error(read.message);
  return createTerminalRunner(read.settings);
}

const toolFor = (terminal: TerminalRunner) =>
  mcpTool({ ...unused, terminal } as Parameters<typeof mcpTool>[0], SERVER, TOOL);

describe("an MCP server's tool under the terminal's approval mode", () => {
  it('proposed: every call waits for the person, and the model is told so', () => {
    const tool = toolFor(runner('proposed'));
    expect(tool.mode).toBe('proposed');
    expect(tool.needsApproval?.({ text: 'x' })).toBe(true);
    expect(tool.description).toContain('Each call waits for the person to approve it.');
  });

  it('direct: calls run at once', () => {
    const tool = toolFor(runner('direct'));
    expect(tool.mode).toBe('direct');
    expect(tool.description).not.toContain('approve');
  });

  it('auto: calls wait until the sandbox is known to work, then run at once', async () => {
    const terminal = runner('auto');
    const tool = toolFor(terminal);
    expect(tool.mode).toBe('proposed');
    expect(tool.needsApproval?.({ text: 'x' })).toBe(true);
    const probe = await terminal.probe();
    expect(tool.needsApproval?.({ text: 'x' })).toBe(!probe.available);
  });
});
