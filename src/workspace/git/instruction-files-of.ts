import { isInstructionFilePath } from '../../domain/workspace-paths/index.ts';
import { MAX_MERGED_INSTRUCTION_FILES } from '../../domain/line/index.ts';
import { MAIN_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';

/** An instruction file as `commit` has it: its path and its text (empty when over `maxBytes`). */
export interface CommittedInstructionFile {
  path: string;
  content: string;
}

export type CommittedInstructionFiles =
  | { ok: true; files: CommittedInstructionFile[] }
  | { ok: false; reason: string };

/**
 * The instruction files (AGENTS.md, AGENTS.override.md, CLAUDE.md, in any directory) that `commit` adds or
 * changes against where it meets `base`, `main` unless told (`git diff --merge-base`: for `main` and the line's `dev`, what the
 * line's devs wrote; for a merge's first parent and the merge, what the merge brought), read from git's
 * objects — never from a file of the workspace. More than `MAX_MERGED_INSTRUCTION_FILES` is a refusal. A
 * file over `maxBytes` is not read (its text is empty; the instruction reader skips such a file anyway).
 */
export async function instructionFilesOf(
  repository: string,
  commit: string,
  maxBytes: number,
  base: string = MAIN_BRANCH,
): Promise<CommittedInstructionFiles> {
  const git = gitAt(repository);
  const paths = (
    await git.raw([
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      '--diff-filter=AMT',
      '--merge-base',
      base,
      commit,
      '--',
    ])
  )
    .split('\0')
    .filter((path) => path !== '' && isInstructionFilePath(path));
  if (paths.length > MAX_MERGED_INSTRUCTION_FILES)
    return {
      ok: false,
      reason: `the line adds or changes ${paths.length} instruction files; at most ${MAX_MERGED_INSTRUCTION_FILES} can be reviewed in one merge`,
    };
  const files: CommittedInstructionFile[] = [];
  for (const path of paths.sort()) {
    const object = `${commit}:${path}`;
    const size = Number((await git.raw(['cat-file', '-s', object])).trim());
    const content = size > maxBytes ? '' : await git.raw(['cat-file', 'blob', object]);
    files.push({ path, content });
  }
  return { ok: true, files };
}
