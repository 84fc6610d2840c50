import { z } from 'zod';
import { MODULE_NAME_PATTERN } from '../../domain/architecture/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import { LINE_EVENTS } from '../../domain/line/index.ts';

const ReportBlockedSchema = z.strictObject({
  modulo: z
    .string()
    .trim()
    .regex(
      MODULE_NAME_PATTERN,
      'must be a module name (lowercase letters, digits, "-" or "_"), e.g. board-engine',
    )
    .describe('The module whose interface is missing.'),
  falta: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000, 'must be at most 1000 characters')
    .describe('What is missing: the interface you need.'),
});

/**
 * `report_blocked` (direct): `{modulo, falta}` — the dev's task depends on an interface no contract
 * declares. Recorded as `dev.blocked` for the Arquiteto and the person; the dev does not write it into the
 * other module's code (record ADR 0200).
 */
export function reportBlockedTool(): AgentTool {
  return defineTool({
    name: 'report_blocked',
    description:
      'Report that your task depends on an interface that no contract declares: {modulo: the module that should expose it, falta: what is missing}.',
    parameters: ReportBlockedSchema,
    mode: 'direct',
    run: async ({ modulo, falta }, context) => {
      const module = context.module ?? '(none)';
      return {
        ok: true,
        result: `Recorded: blocked on ${modulo} — ${falta}. The Arquiteto declares it in a new version of the contracts. Do not implement it in ${modulo}'s code and do not look for it in its worktree; go on with what does not depend on it.`,
        events: [
          LINE_EVENTS.devBlocked.create(context.agent, {
            v: 1,
            agent: context.agent,
            module,
            modulo,
            falta,
          }),
        ],
      };
    },
  });
}
