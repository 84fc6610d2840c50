import type { ModuleDeclaration } from './module-map-schema.ts';

/** Where a module's check comes from: the map's `check`, or Forja's default for its stack. */
export interface ModuleCheck {
  command: string;
  source: 'declared' | 'default';
}

/**
 * Forja's defaults for known stacks (ADR 0110), used when the map declares no `check`. Each runs only when
 * the stack's marker file is in the worktree (a module that has not set up its stack's tooling yet is not
 * refused for it), and says so when it skips. Matched on the stack's words, first match wins.
 */
const DEFAULT_CHECKS: ReadonlyArray<{ stack: RegExp; marker: string; command: string }> = [
  {
    stack: /\btypescript\b|\bts\b/i,
    marker: 'tsconfig.json',
    command: 'npx --no-install tsc --noEmit',
  },
  { stack: /\bjavascript\b|\bnode(\.js)?\b/i, marker: 'package.json', command: 'node --test' },
  { stack: /\bpython\b/i, marker: 'pyproject.toml', command: 'python3 -m pytest -q' },
  { stack: /\bgo\b|\bgolang\b/i, marker: 'go.mod', command: 'go test ./...' },
  { stack: /\brust\b/i, marker: 'Cargo.toml', command: 'cargo test --offline' },
  { stack: /\belixir\b/i, marker: 'mix.exs', command: 'mix test' },
];

const DEFAULT_CHECK_SKIPPED = 'the default check';
const SKIPPED_LINE = /^no \S+: the default check \(.+\) was skipped$/m;

/**
 * Whether a default check's output says it ran nothing (its stack's marker file is missing): it exits 0, and
 * is a skip, not a pass. The whole line is matched, as the command prints it. Pure.
 */
export function defaultCheckSkipped(output: string): boolean {
  return SKIPPED_LINE.test(output);
}

/** The check `finish_task` runs for `module`, or null when the map declares none and its stack has no default. */
export function moduleCheck(
  module: Pick<ModuleDeclaration, 'stack' | 'check'>,
): ModuleCheck | null {
  if (module.check !== undefined) return { command: module.check, source: 'declared' };
  const known = DEFAULT_CHECKS.find((entry) => entry.stack.test(module.stack));
  if (known === undefined) return null;
  return {
    command: `if [ -f ${known.marker} ]; then ${known.command}; else echo "no ${known.marker}: ${DEFAULT_CHECK_SKIPPED} (${known.command}) was skipped"; fi`,
    source: 'default',
  };
}
