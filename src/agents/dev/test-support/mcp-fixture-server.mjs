// A small stdio MCP server written with the SDK, for the tests of a project's MCP servers (ADR 0410). It runs
// in the dev's sandbox: `echo` answers with its text, `probe` tries what the sandbox must stop (the network, a
// write outside the working directory) and says what happened.
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fixture', version: '1.0.0' });

server.registerTool(
  'echo',
  {
    description: 'Repeats the text it is given.',
    inputSchema: { text: z.string().max(100) },
  },
  async ({ text }) => ({ content: [{ type: 'text', text: `echo from the fixture: ${text}` }] }),
);

const attempt = (run) => {
  try {
    run();
    return 'done';
  } catch (error) {
    return `refused (${error.code ?? error.message})`;
  }
};

const reach = (port) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error) => resolve(`refused (${error.code ?? error.message})`));
    setTimeout(() => resolve('timed out'), 3000).unref();
  });

server.registerTool(
  'probe',
  {
    description: 'Tries to reach a port of the host and to write outside and inside its directory.',
    inputSchema: { port: z.number().int(), outside: z.string() },
  },
  async ({ port, outside }) => {
    const report = {
      network: await reach(port),
      outside: attempt(() => writeFileSync(outside, 'escaped')),
      inside: attempt(() => writeFileSync('written-by-mcp.txt', 'inside')),
      cwd: process.cwd(),
    };
    return { content: [{ type: 'text', text: JSON.stringify(report) }] };
  },
);

server.registerTool(
  'flood',
  {
    description: 'Answers with more text than a dev may read.',
    inputSchema: { bytes: z.number().int() },
  },
  async ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }),
);

server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
  isError: true,
  content: [{ type: 'text', text: 'the fixture failed on purpose' }],
}));

await server.connect(new StdioServerTransport());
