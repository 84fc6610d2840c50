import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** What the fixture server imports at run time, copied beside it: the sandbox shows it nothing else. */
const PACKAGES = [
  '@modelcontextprotocol/sdk',
  'zod',
  'zod-to-json-schema',
  'ajv',
  'ajv-formats',
  'fast-deep-equal',
  'json-schema-traverse',
  'fast-uri',
];

/** The fixture server's directory inside a worktree, and the command line that starts it there. */
export const MCP_FIXTURE_DIRECTORY = '.mcp-fixture';
export const MCP_FIXTURE_COMMAND = `node ${MCP_FIXTURE_DIRECTORY}/server.mjs`;

/**
 * Copies the SDK-written fixture server (`mcp-fixture-server.mjs`) and the packages it imports into
 * `worktree`, so that it runs inside the dev's sandbox, where only the worktree and the system are visible.
 */
export async function installMcpFixture(worktree: string): Promise<void> {
  const target = join(worktree, MCP_FIXTURE_DIRECTORY);
  await mkdir(join(target, 'node_modules'), { recursive: true });
  await cp(join(import.meta.dirname, 'mcp-fixture-server.mjs'), join(target, 'server.mjs'));
  for (const name of PACKAGES) {
    // The repository's own node_modules (the tests run from its root).
    await cp(join(process.cwd(), 'node_modules', name), join(target, 'node_modules', name), {
      recursive: true,
      dereference: true,
    });
  }
}
