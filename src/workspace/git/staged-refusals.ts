import {
  isForjaOwnedPath,
  isInstructionFilePath,
  linkTargetEscape,
} from '../../domain/workspace-paths/index.ts';

/** git run in a module's worktree: its output, or why it was not run. */
export type WorktreeGit = (args: readonly string[]) => Promise<string | { refused: string }>;

const LINK_MODE = '120000';

/**
 * Why the changes staged in a dev's worktree may not be committed, or null when they may (ADR 0301): a
 * change under `docs/` (Forja writes it from the Arquiteto's artifacts), or a symbolic link added or
 * changed whose target may lead out of the repository (`linkTargetEscape`), or that is an instruction file
 * (what it points to would escape the review of ADR 0302). Read from git's index (`diff
 * --cached --raw`, the link's target from its blob), never from the files themselves. When none, the paths
 * staged (the same listing: one git for both).
 */
export async function stagedRefusal(
  git: WorktreeGit,
): Promise<{ refused: string } | { staged: string[] }> {
  const raw = await git(['diff', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev']);
  if (typeof raw !== 'string') return raw;
  const staged: string[] = [];
  const fields = raw.split('\0');
  const owned: string[] = [];
  const links: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [, newMode, , newBlob, status] = fields[index]!.split(' ');
    const path = fields[index + 1]!;
    staged.push(path);
    if (isForjaOwnedPath(path)) owned.push(path);
    if (newMode !== LINK_MODE || status === 'D') continue;
    const target = await git(['cat-file', 'blob', newBlob!]);
    if (typeof target !== 'string') return target;
    const why = isInstructionFilePath(path)
      ? 'an instruction file is never a link: write the file itself'
      : linkTargetEscape(path, target);
    if (why !== null) links.push(`${path} is a symbolic link and ${why}`);
  }
  const reasons = [
    ...links,
    ...(owned.length === 0
      ? []
      : [
          `${owned.join(', ')} ${owned.length === 1 ? 'is' : 'are'} under docs/, which Forja writes from the Arquiteto's artifacts: restore ${owned.length === 1 ? 'it' : 'them'} (git checkout -- docs) and keep your notes elsewhere`,
        ]),
  ];
  if (reasons.length === 0) return { staged };
  return {
    refused: `refused by the rule "what a dev commits stays in its repository and out of docs/": ${reasons.join('; ')}. Nothing was committed`,
  };
}
