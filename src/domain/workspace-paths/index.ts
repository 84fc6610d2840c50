export { isInside } from './is-inside.ts';
export { normalizeAbsolutePath } from './normalize-absolute-path.ts';
export { MAX_REQUESTED_PATH_LENGTH, resolveInsideWorktree } from './resolve-inside-worktree.ts';
export type {
  WorkspacePathRefusalCode,
  WorktreePathResolution,
} from './resolve-inside-worktree.ts';
export {
  FORJA_OWNED_DIRECTORY,
  isForjaOwnedPath,
  linkTargetEscape,
} from './link-target-rule.ts';
export {
  INSTRUCTION_FILE_NAME,
  INSTRUCTION_FILE_NAMES,
  isInstructionFilePath,
} from './instruction-file-names.ts';
