import ignore, { type Ignore } from 'ignore';

/** The rules of one `.gitignore` file and the directory (relative to the workspace, '' for the root) they apply under. */
export interface GitignoreScope {
  readonly base: string;
  readonly matcher: Ignore;
}

/** The `.gitignore` files that apply to a directory, shallowest first. */
export type GitignoreChain = readonly GitignoreScope[];

/** A chain with the rules of the `.gitignore` found in `base` added after (so above) those of its parents. */
export function withGitignore(chain: GitignoreChain, base: string, text: string): GitignoreChain {
  // Git matches case-sensitively unless core.ignorecase is set; the library's default is the opposite.
  return [...chain, { base, matcher: ignore({ ignorecase: false }).add(text) }];
}

/**
 * Whether git would ignore `relativePath` (POSIX separators, relative to the workspace) under `chain`.
 * As in git, a deeper `.gitignore` overrides a shallower one, and within a file the last matching rule
 * wins (so `!keep` re-includes). Directories are tested with a trailing slash so `node_modules/` matches.
 * Parents are not tested here: the walk never enters an ignored directory, exactly like git, which cannot
 * re-include a file whose parent directory is excluded.
 */
export function isIgnored(chain: GitignoreChain, relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const scope of chain) {
    const withinScope = scope.base === '' ? relativePath : relativePath.slice(scope.base.length + 1);
    const result = scope.matcher.test(isDirectory ? `${withinScope}/` : withinScope);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
