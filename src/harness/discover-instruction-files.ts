import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { InstructionSkip, InstructionSource } from './instruction-sources.ts';
import { INSTRUCTION_FILE_NAME, compareInstructionPaths, orderInstructionPaths } from './order-instruction-paths.ts';
import { readInstructionFile } from './read-instruction-file.ts';
import { walkWorkspace } from './walk-workspace.ts';

/** Instruction files larger than this are skipped (`too_large`): the whole layer's default budget is ~16 KiB. */
export const DEFAULT_MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024;

/** The workspace's instruction files in ascending priority, and what was left out and why. */
export interface DiscoveredInstructionFiles {
  readonly sources: readonly InstructionSource[];
  readonly skipped: readonly InstructionSkip[];
}

/**
 * Finds every `AGENTS.md` under `workspaceDir` (skipping `.git` and what the workspace's `.gitignore` files
 * ignore) and reads them. Sources come in ascending priority: the root file, then shallower before deeper,
 * ties in byte order; skips are sorted the same way. No file makes it throw; a missing or unreadable
 * workspace directory does.
 */
export async function discoverInstructionFiles(
  workspaceDir: string,
  options: { readonly maxFileBytes?: number } = {},
): Promise<DiscoveredInstructionFiles> {
  const root = path.resolve(workspaceDir);
  const rootRealPath = await realpath(root);
  const walk = await walkWorkspace(root, INSTRUCTION_FILE_NAME);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_INSTRUCTION_FILE_BYTES;
  const reads = await Promise.all(
    orderInstructionPaths(walk.found).map((relative) => readInstructionFile(root, rootRealPath, relative, maxBytes)),
  );
  const sources = reads.flatMap((read) => ('source' in read ? [read.source] : []));
  const fileSkips = reads.flatMap((read) => ('skip' in read ? [read.skip] : []));
  const skipped = [...walk.skipped, ...fileSkips].sort((left, right) => compareInstructionPaths(left.path, right.path));
  return { sources, skipped };
}
