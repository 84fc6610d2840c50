import {
  checkMapProblem,
  checkOutputExcerpt,
  moduleCheck,
  type ModuleDeclaration,
} from '../../domain/architecture/index.ts';
import { limitNotes } from '../../domain/terminal/index.ts';
import type { TerminalRunner } from '../../workspace/index.ts';

export type CheckRun = {
  passed: boolean;
  /** Why a failing check failed for a reason of the module map (its command), not of the code; else null. */
  mapProblem: string | null;
  /**
   * What the model is told: the command, where it came from, the exit code and (failing) the failing tests
   * with their diagnostics, then the output's tail (`checkOutputExcerpt`, ADR 0322).
   */
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
  const failed = (exit_code: number, why: string, mapProblem: string | null = null) => ({
    passed: false,
    mapProblem,
    report: `the check \`${check.command}\` (${origin}) ${why}.`,
    record: { ...check, exit_code, duration_ms },
  });
  if (!outcome.ok) return failed(-1, `could not run: ${outcome.reason}`);
  if (outcome.startError !== null) return failed(-1, `could not start: ${outcome.startError}`);
  const limits = limitNotes(outcome, terminal.settings.limits)
    .map((note) => `[limit: ${note}]\n`)
    .join('');
  const tail = `${checkOutputExcerpt(outcome.output)}\n${limits}`;
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
      `failed with exit code ${outcome.exitCode} in ${duration_ms} ms; the failing tests, then the output's tail:\n${tail}`,
      checkMapProblem(outcome.exitCode, outcome.output),
    );
  return {
    passed: true,
    mapProblem: null,
    report: `The check \`${check.command}\` (${origin}) passed (exit code 0, ${duration_ms} ms).`,
    record: { ...check, exit_code: 0, duration_ms },
  };
}
