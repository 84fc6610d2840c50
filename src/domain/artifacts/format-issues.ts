import type { z } from 'zod';

/** `['goals', 0]` under `data` → `data.goals[0]`; the root itself is the prefix. */
export function formatIssuePath(prefix: string, path: readonly PropertyKey[]): string {
  let formatted = prefix;
  for (const segment of path) {
    formatted +=
      typeof segment === 'number'
        ? `[${segment}]`
        : `${formatted === '' ? '' : '.'}${String(segment)}`;
  }
  return formatted === '' ? '(root)' : formatted;
}

/**
 * One line per issue, `path: rule`, joined with `; ` — every problem at once, so a model fixes them in one
 * retry instead of discovering them one refusal at a time.
 */
export function formatIssues(prefix: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${formatIssuePath(prefix, issue.path)}: ${describeIssue(issue)}`)
    .join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // zod's own wording for unknown keys does not say what to do about them.
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.join(', ')}; remove them`;
  return issue.message;
}
