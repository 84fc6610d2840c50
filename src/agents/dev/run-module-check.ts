import { moduleCheck, type ModuleDeclaration } from '../../domain/architecture/index.ts';
import { limitNotes } from '../../domain/terminal/index.ts';
import type { TerminalRunner } from '../../workspace/index.ts';

/** Lines of the output's tail a failing check returns to the model. */
export const CHECK_OUTPUT_TAIL_LINES = 40;

export type CheckRun = {
  passed: boolean;
  /** What the model is told: the command, where it came from, the exit code and (failing) the output's tail. */
  report: string;
  record: {
    command: string;
    source: 'declared' | 'default';
    exit_code: number;
    duration_ms: number;
  };
};

/**
 * Runs the module's check in its worktree through the terminal runner (the same bubblewrap sandbox, time,
 * output and resource limits as `terminal`, ADR 0311); stopped with the turn through `signal`. Null when the
 * module has no check. A check that cannot run (no sandbox, not started, killed, timed out, stopped) fails
 * with why, and with the limits it reached.
 */
export async function runModuleCheck(
  terminal: TerminalRunner,
  directory: string,
  module: Pick<ModuleDeclaration, 'name' | 'stack' | 'check'>,
  signal?: AbortSignal,
): Promise<CheckRun | null> {
  const check = moduleCheck(module);
  if (check === null) return null;
  const origin =
    check.source === 'declared'
      ? 'declared in the module map'
      : `Forja's default for the stack "${module.stack}" (the map declares no check)`;
  const started = Date.now();
  const outcome = await terminal.run(
    directory,
    check.command,
    signal === undefined ? {} : { signal },
  );
  const duration_ms = Date.now() - started;
  const failed = (exit_code: number, why: string) => ({
    passed: false,
    report: `the check \`${check.command}\` (${origin}) ${why}.`,
    record: { ...check, exit_code, duration_ms },
  });
  if (!outcome.ok) return failed(-1, `could not run: ${outcome.reason}`);
  if (outcome.startError !== null) return failed(-1, `could not start: ${outcome.startError}`);
  const limits = limitNotes(outcome, terminal.settings.limits)
    .map((note) => `[limit: ${note}]\n`)
    .join('');
  const tail = `${outcome.output.trimEnd().split('\n').slice(-CHECK_OUTPUT_TAIL_LINES).join('\n')}\n${limits}`;
  if (outcome.stopped) return failed(-1, 'was stopped with the turn');
  if (outcome.timedOut)
    return failed(
      -1,
      `was stopped at the time limit of ${terminal.settings.timeoutMs / 1000} s; output tail:\n${tail}`,
    );
  if (outcome.exitCode === null)
    return failed(-1, `was killed by ${outcome.signal}; output tail:\n${tail}`);
  if (outcome.exitCode !== 0)
    return failed(
      outcome.exitCode,
      `failed with exit code ${outcome.exitCode} in ${duration_ms} ms; output tail:\n${tail}`,
    );
  return {
    passed: true,
    report: `The check \`${check.command}\` (${origin}) passed (exit code 0, ${duration_ms} ms).`,
    record: { ...check, exit_code: 0, duration_ms },
  };
}
