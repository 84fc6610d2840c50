import { z } from 'zod';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { inModuleWorktree } from './module-worktree.ts';

const path = z.string().describe('A path relative to the root of your worktree, e.g. src/index.ts');

/**
 * `read_file`, `search_workspace` and `write_file` (direct): confined to the agent's worktree — `..` above
 * its root, absolute paths, `.git` and symbolic links that lead out are refused with the reason, and a
 * refused write writes nothing.
 */
export function fileTools(
  dependencies: Pick<DevDependencies, 'workspaces' | 'files'>,
): AgentTool[] {
  return [
    defineTool({
      name: 'read_file',
      description: 'Read a file of your worktree (a directory lists its entries).',
      parameters: z.strictObject({ path }),
      mode: 'direct',
      run: ({ path: target }, context) =>
        inModuleWorktree(dependencies, context, async (worktree) => {
          const read = await dependencies.files.read(worktree.directory, target);
          return read.ok ? { ok: true, result: read.text } : { ok: false, result: read.reason };
        }),
    }),
    defineTool({
      name: 'search_workspace',
      description:
        'Search text (case-insensitive) in the file names and lines of your worktree, optionally under a path.',
      parameters: z.strictObject({
        query: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
        path: path.optional(),
      }),
      mode: 'direct',
      run: ({ query, path: under }, context) =>
        inModuleWorktree(dependencies, context, async (worktree) => {
          const found = await dependencies.files.search(worktree.directory, query, under ?? '.');
          return found.ok ? { ok: true, result: found.text } : { ok: false, result: found.reason };
        }),
    }),
    defineTool({
      name: 'write_file',
      description:
        'Write a whole file of your worktree (created or replaced; directories are created).',
      parameters: z.strictObject({ path, content: z.string() }),
      mode: 'direct',
      run: ({ path: target, content }, context) =>
        inModuleWorktree(dependencies, context, async (worktree) => {
          const written = await dependencies.files.write(worktree.directory, target, content);
          return written.ok
            ? { ok: true, result: `Wrote ${written.bytes} bytes to ${written.relativePath}.` }
            : { ok: false, result: `write_file refused: ${written.reason}. Nothing was written.` };
        }),
    }),
  ];
}
