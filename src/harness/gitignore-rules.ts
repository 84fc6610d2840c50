import ignore, { type Ignore } from 'ignore';

interface RuleVerdict {
  readonly ignored: boolean;
  readonly unignored: boolean;
}

// The rules of one file tested against the path itself, without the library's walk up the parents. The
// public `test` answers "ignored" for `a/build/x` from a shallower `build/` even when a deeper `!build/`
// re-included `a/build/`, which is not what git does (git only tests a path whose parents it entered).
// The walk never enters an ignored directory, so the path itself is all there is to test.
type RuleManager = { test(path: string, mode: 'regex'): RuleVerdict };

function ownRules(matcher: Ignore): RuleManager {
  const rules = (matcher as unknown as { _rules?: RuleManager })._rules;
  if (typeof rules?.test !== 'function')
    throw new Error('the ignore package no longer exposes its rules (_rules.test)');
  return rules;
}

/** The rules of one `.gitignore` file and the directory (relative to the workspace, '' for the root) they apply under. */
export interface GitignoreScope {
  readonly base: string;
  readonly matcher: Ignore;
  readonly rules: RuleManager;
}

/** The `.gitignore` files that apply to a directory, shallowest first. */
export type GitignoreChain = readonly GitignoreScope[];

/** A chain with the rules of the `.gitignore` found in `base` added after (so above) those of its parents. */
export function withGitignore(chain: GitignoreChain, base: string, text: string): GitignoreChain {
  // Git matches case-sensitively unless core.ignorecase is set; the library's default is the opposite.
  const matcher = ignore({ ignorecase: false }).add(text);
  return [...chain, { base, matcher, rules: ownRules(matcher) }];
}

/**
 * Whether git would ignore `relativePath` (POSIX separators, relative to the workspace) under `chain`.
 * As in git, a deeper `.gitignore` overrides a shallower one, and within a file the last matching rule
 * wins (so `!keep` re-includes). Directories are tested with a trailing slash so `node_modules/` matches.
 * Parents are not tested here: the walk never enters an ignored directory, exactly like git, which cannot
 * re-include a file whose parent directory is excluded; a deeper `!build/` that re-included a directory a
 * shallower `build/` excluded leaves what is inside it included, as in git.
 */
export function isIgnored(
  chain: GitignoreChain,
  relativePath: string,
  isDirectory: boolean,
): boolean {
  let ignored = false;
  for (const scope of chain) {
    const withinScope =
      scope.base === '' ? relativePath : relativePath.slice(scope.base.length + 1);
    const result = scope.rules.test(isDirectory ? `${withinScope}/` : withinScope, 'regex');
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
