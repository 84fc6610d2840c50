import { z } from 'zod';
import { assessCommand, describeLimits, limitNotes } from '../../domain/terminal/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { inModuleWorktree } from './module-worktree.ts';

export const MAX_COMMAND_CHARACTERS = 8000;

/**
 * `terminal`: one shell command in the agent's worktree, inside the sandbox (no network, only the worktree
 * writable), with a time limit, an output cap and a scrubbed environment. `proposed` (the person approves
 * each command) unless Forja is configured to run it `direct`.
 */
export function terminalTool(
  dependencies: Pick<DevDependencies, 'workspaces' | 'terminal'>,
): AgentTool {
  const { settings } = dependencies.terminal;
  return defineTool({
    name: 'terminal',
    description:
      `Run one shell command (sh -c) in your worktree: no network, only your worktree is writable, at most ${settings.timeoutMs / 1000} s and ${settings.outputLimitBytes} bytes of output; limits: ${describeLimits(settings.limits)}.` +
      (settings.mode === 'proposed' ? ' Each command waits for the person to approve it.' : ''),
    parameters: z.strictObject({
      command: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(MAX_COMMAND_CHARACTERS, `must be at most ${MAX_COMMAND_CHARACTERS} characters`),
    }),
    mode: settings.mode,
    assessRisk: ({ command }) => assessCommand(command),
    run: ({ command }, context) =>
      inModuleWorktree(dependencies, context, async (worktree) => {
        const outcome = await dependencies.terminal.run(
          worktree.directory,
          command,
          context.signal === undefined ? {} : { signal: context.signal },
        );
        if (!outcome.ok) return { ok: false, result: outcome.reason };
        if (outcome.startError !== null)
          return {
            ok: false,
            result: `terminal could not start the command: ${outcome.startError}`,
          };
        const notes = [
          outcome.timedOut
            ? `[stopped: the time limit of ${settings.timeoutMs / 1000} s was reached]`
            : null,
          outcome.stopped ? '[stopped: the turn was stopped]' : null,
          ...limitNotes(outcome, settings.limits).map((note) => `[limit: ${note}]`),
          outcome.truncated ? `[output cut at ${settings.outputLimitBytes} bytes]` : null,
          outcome.sandboxed
            ? null
            : "[ran WITHOUT the sandbox: allowed by this Forja's configuration]",
        ].filter((note) => note !== null);
        const status =
          outcome.exitCode === null
            ? `killed by ${outcome.signal}`
            : `exit code ${outcome.exitCode}`;
        return {
          ok: true,
          result: [`$ ${command}`, outcome.output.trimEnd(), `[${status}]`, ...notes]
            .filter((line) => line !== '')
            .join('\n'),
        };
      }),
  });
}
