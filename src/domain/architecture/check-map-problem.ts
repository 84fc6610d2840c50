/** The longest excerpt of the output a map problem quotes. */
const MAX_QUOTE_CHARACTERS = 300;

// Lines that say the check's command, not the module's code, is wrong: the shell could not find a program or
// enter a directory, or the check used git, which has no repository inside the sandbox.
const SIGNS: ReadonlyArray<{ line: RegExp; why: string }> = [
  { line: /\bcd\b.*(can't cd|cannot cd|No such file or directory)/, why: 'the check cannot cd' },
  { line: /^(?:\/bin\/)?sh: (?:\d+: )?.*: not found$/, why: 'a program of the check is not found' },
  {
    line: /^(?:\/bin\/)?sh: (?:\d+: )?.*: Permission denied$/,
    why: 'a program of the check cannot run',
  },
  {
    line: /fatal: not a git repository/,
    why: 'the check uses git, which is not available inside the sandbox',
  },
];

/**
 * Why a failed check failed for a reason of the module map (its `check` command) rather than of the dev's
 * code, or null: a shell that could not find a program (exit 127) or run it (126), could not `cd`, or a
 * `git` with no repository. The first line that shows it is quoted. Pure.
 */
export function checkMapProblem(exitCode: number, output: string): string | null {
  const lines = output.split('\n').map((line) => line.trimEnd());
  for (const sign of SIGNS) {
    const line = lines.find((candidate) => sign.line.test(candidate));
    if (line !== undefined) return `${sign.why} (exit code ${exitCode}): ${quote(line)}`;
  }
  if (exitCode === 127) return 'a program of the check is not found (exit code 127)';
  if (exitCode === 126) return 'a program of the check cannot run (exit code 126)';
  return null;
}

const quote = (line: string) =>
  line.length <= MAX_QUOTE_CHARACTERS ? line : `${line.slice(0, MAX_QUOTE_CHARACTERS)}…`;
