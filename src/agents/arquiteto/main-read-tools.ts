import { z } from 'zod';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';

const path = z
  .string()
  .describe("A path relative to the root of the project's repository (main), e.g. src/index.ts");

/**
 * The Arquiteto's read-only looks at `main` (ADR 0416): `read_file` and `search_workspace` in the project's
 * repository, through the same confined, no-follow reads as a dev's (`..`, absolute paths, `.git` and links
 * that lead out are refused with the reason). Nothing is written.
 */
export function mainReadTools(
  dependencies: Pick<ArquitetoDependencies, 'workspaces' | 'files'>,
): AgentTool[] {
  return [
    defineTool({
      name: 'read_file',
      description:
        "Read a file of the project's repository as main holds it (a directory lists its entries). Read-only.",
      parameters: z.strictObject({ path }),
      mode: 'direct',
      run: async ({ path: target }, context) => {
        const root = dependencies.workspaces.workspaceDirectory(context.projectId);
        const read = await dependencies.files.read(root, target);
        return read.ok ? { ok: true, result: read.text } : { ok: false, result: read.reason };
      },
    }),
    defineTool({
      name: 'search_workspace',
      description:
        "Search text (case-insensitive) in the file names and lines of the project's repository (main), optionally under a path. Read-only.",
      parameters: z.strictObject({
        query: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
        path: path.optional(),
      }),
      mode: 'direct',
      run: async ({ query, path: under }, context) => {
        const root = dependencies.workspaces.workspaceDirectory(context.projectId);
        const found = await dependencies.files.search(root, query, under ?? '.');
        return found.ok ? { ok: true, result: found.text } : { ok: false, result: found.reason };
      },
    }),
  ];
}
