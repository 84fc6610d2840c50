/** The name the walk collects, matched case-sensitively as git and the records spell it. */
export const INSTRUCTION_FILE_NAME = 'AGENTS.md';

/**
 * The names read as a directory's instructions, in preference order: one file per directory is used, the
 * first of these that it has and that is usable. `AGENTS.override.md` is Codex's local override of
 * `AGENTS.md`; `CLAUDE.md` is read where a directory has neither.
 */
export const INSTRUCTION_FILE_NAMES = [
  'AGENTS.override.md',
  INSTRUCTION_FILE_NAME,
  'CLAUDE.md',
] as const;

/** Whether a repository path (`/`-separated) names an instruction file, in any directory. */
export function isInstructionFilePath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (INSTRUCTION_FILE_NAMES as readonly string[]).includes(name);
}
