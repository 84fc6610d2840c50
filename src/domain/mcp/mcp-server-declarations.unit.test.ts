import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_MCP_SERVER_NAME_CHARACTERS,
  MAX_MCP_SERVERS,
  MCP_SERVER_NAME_PATTERN,
  McpServerDeclarationsSchema,
  mcpToolName,
  PROVIDER_TOOL_NAME_PATTERN,
} from './mcp-server-declarations.ts';

const validName = fc
  .stringMatching(MCP_SERVER_NAME_PATTERN)
  .filter((name) => name.length <= MAX_MCP_SERVER_NAME_CHARACTERS);
const server = (name: string, command = 'node server.mjs') => ({
  name,
  transport: 'stdio',
  command,
});
const problems = (body: unknown) => {
  const parsed = McpServerDeclarationsSchema.safeParse(body);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
};

describe('MCP server declarations', () => {
  it('accepts any valid name, and the tool names it makes are ones providers accept for short tools', () => {
    fc.assert(
      fc.property(validName, (name) => {
        expect(problems({ servers: [server(name)] })).toEqual([]);
        expect(name).not.toContain('__');
        expect(PROVIDER_TOOL_NAME_PATTERN.test(mcpToolName(name, 'echo'))).toBe(true);
      }),
    );
  });

  it('refuses a name outside the rule, naming servers.N.name', () => {
    const invalid = fc.oneof(
      fc.string().filter((name) => !MCP_SERVER_NAME_PATTERN.test(name)),
      validName.map((name) => `${name}${'x'.repeat(MAX_MCP_SERVER_NAME_CHARACTERS)}`),
      validName.map((name) => `${name}__x`),
      validName.map((name) => name.toUpperCase()).filter((name) => /[A-Z]/.test(name)),
    );
    fc.assert(
      fc.property(fc.nat({ max: 3 }), invalid, (index, name) => {
        const servers = Array.from({ length: index }, (_, n) => server(`ok${n}`));
        const found = problems({ servers: [...servers, server(name)] });
        expect(found.length).toBeGreaterThan(0);
        for (const problem of found)
          expect(problem).toEqual({
            path: `servers.${index}.name`,
            message: expect.stringMatching(/^must be (1 to 32|a string)/),
          });
      }),
    );
  });

  it('refuses a duplicate name, a transport other than stdio, an empty or control-laden command, unknown fields', () => {
    expect(problems({ servers: [server('a'), server('a')] })).toEqual([
      { path: 'servers.1.name', message: 'must be unique: "a" is declared twice' },
    ]);
    expect(problems({ servers: [{ ...server('a'), transport: 'http' }] })).toEqual([
      { path: 'servers.0.transport', message: expect.stringMatching(/^must be "stdio"/) },
    ]);
    expect(problems({ servers: [server('a', '   ')] })).toEqual([
      { path: 'servers.0.command', message: 'must not be empty' },
    ]);
    expect(problems({ servers: [server('a', 'node\u0000x')] })).toEqual([
      { path: 'servers.0.command', message: 'must not contain control characters' },
    ]);
    expect(problems({ servers: [{ ...server('a'), url: 'http://x' }] })).toMatchObject([
      { path: 'servers.0' },
    ]);
    expect(problems({})).toMatchObject([{ path: 'servers' }]);
  });

  it('refuses more than the maximum of servers, naming servers', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_MCP_SERVERS + 1, max: MAX_MCP_SERVERS + 4 }), (count) => {
        const servers = Array.from({ length: count }, (_, n) => server(`s${n}`));
        expect(problems({ servers })).toEqual([
          { path: 'servers', message: `must hold at most ${MAX_MCP_SERVERS} servers` },
        ]);
      }),
    );
  });
});
