import { Buffer } from 'node:buffer';

export {
  INSTRUCTION_FILE_NAME,
  INSTRUCTION_FILE_NAMES,
} from '../domain/workspace-paths/index.ts';

/** The directory an instruction file governs: its own, relative to the workspace ('' for the root). */
export function governedDirectory(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash === -1 ? '' : relativePath.slice(0, slash);
}

/** Whether `directory` is `ancestor` or lies under it (both workspace-relative, '' for the root). */
export function isWithinDirectory(directory: string, ancestor: string): boolean {
  return ancestor === '' || directory === ancestor || directory.startsWith(`${ancestor}/`);
}

function depthOf(relativePath: string): number {
  let depth = 0;
  for (
    let index = relativePath.indexOf('/');
    index !== -1;
    index = relativePath.indexOf('/', index + 1)
  )
    depth++;
  return depth;
}

/**
 * Ascending priority of two workspace-relative POSIX paths: shallower first (the root `AGENTS.md` has depth
 * 0), ties in UTF-8 byte order. Byte order rather than JavaScript's UTF-16 order, so the result is that of
 * `LC_ALL=C sort` and does not depend on how a string happens to be stored.
 */
export function compareInstructionPaths(left: string, right: string): number {
  return depthOf(left) - depthOf(right) || Buffer.compare(Buffer.from(left), Buffer.from(right));
}

/** The paths sorted by ascending priority (see compareInstructionPaths); the input is left as it is. */
export function orderInstructionPaths(relativePaths: readonly string[]): string[] {
  return [...relativePaths].sort(compareInstructionPaths);
}
