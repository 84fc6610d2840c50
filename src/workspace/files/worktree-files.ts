import { readWorktreeFile } from './read-worktree-file.ts';
import { searchWorktree } from './search-worktree.ts';
import { writeWorktreeFile } from './write-worktree-file.ts';

/** Confined file access in a worktree, as the dev agents are given it (composition.ts wires it; ADR 0235). */
export interface WorktreeFiles {
  read: typeof readWorktreeFile;
  search: typeof searchWorktree;
  write: typeof writeWorktreeFile;
}

export const worktreeFiles: WorktreeFiles = {
  read: readWorktreeFile,
  search: searchWorktree,
  write: writeWorktreeFile,
};
