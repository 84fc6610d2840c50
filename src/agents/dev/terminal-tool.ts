import { z } from 'zod';
import { assessCommand, describeLimits, limitNotes } from '../../domain/terminal/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import type { DevDependencies } from './dev-dependencies.ts';
import { inModuleWorktree } from './module-worktree.ts';

export const MAX_COMMAND_CHARACTERS = 8000;

/** What the tool's description says of approvals, per mode. */
const APPROVAL_SENTENCE = {
  auto: ' Commands that delete, overwrite history, escalate privileges or pipe downloads into a shell wait for the person to approve them; the rest run at once.',
  proposed: ' Each command waits for the person to approve it.',
  direct: '',
} as const;

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
      APPROVAL_SENTENCE[settings.mode],
    parameters: z.strictObject({
      command: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(MAX_COMMAND_CHARACTERS, `must be at most ${MAX_COMMAND_CHARACTERS} characters`),
    }),
    mode: settings.mode === 'direct' ? 'direct' : 'proposed',
    assessRisk: ({ command }) => assessCommand(command),
    // auto: the sandbox bounds what a command can do, so only what the risk check flags waits — and every
    // command while the sandbox is not known to work (ADR 0327).
    needsApproval: ({ command }) =>
      settings.mode !== 'auto' ||
      dependencies.terminal.probed()?.available !== true ||
      assessCommand(command).risky,
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
