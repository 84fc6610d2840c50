import { z } from 'zod';
import { MODULE_NAME_PATTERN } from '../../domain/architecture/index.ts';
import { BLOCK_KINDS, type BlockKind, LINE_EVENTS } from '../../domain/line/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';

const ReportBlockedSchema = z.strictObject({
  kind: z
    .enum(BLOCK_KINDS, {
      error: `must be one of ${BLOCK_KINDS.join(', ')}`,
    })
    .default('interface')
    .describe(
      "interface: an interface no contract declares; check: the module map's check cannot run; task: the task belongs to another module or the boundary is wrong; other. Default interface.",
    ),
  modulo: z
    .string()
    .trim()
    .regex(
      MODULE_NAME_PATTERN,
      'must be a module name (lowercase letters, digits, "-" or "_"), e.g. board-engine',
    )
    .describe(
      'The module it is about: the one that should expose the interface, yours for a check, the one the task belongs to.',
    ),
  falta: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000, 'must be at most 1000 characters')
    .describe('What is missing or wrong, and why you cannot go on.'),
});

/** What happens next, for each kind: who resolves the block and how (ADR 0323). */
const NEXT: Readonly<Record<BlockKind, (modulo: string) => string>> = {
  interface: (modulo) =>
    `The Arquiteto declares it in a new version of the contracts, or answers that you go on without it. Do not implement it in ${modulo}'s code and do not look for it in its worktree.`,
  check: () =>
    'The Arquiteto fixes the check in a new version of the module map, or answers you. The check belongs to the map: do not work around it in your code.',
  task: () =>
    "The Arquiteto redraws the module map in a new version (and may move the task to another module, or split it between modules and answer you), or answers you. Do not write the other module's code.",
  other: () =>
    'The Arquiteto answers with a new version of the module map or of the contracts, or with a reply to you.',
};

/**
 * `report_blocked` (direct): `{kind, modulo, falta}` — the dev cannot go on for a reason outside its own
 * code: a missing interface (record ADR 0200), a check the map broke, a task in the wrong module, or other.
 * Recorded as `dev.blocked` for the Arquiteto and the person; the answer says what will happen for that
 * kind, and that the dev gets a turn when it is resolved.
 */
export function reportBlockedTool(): AgentTool {
  return defineTool({
    name: 'report_blocked',
    description:
      'Report that you cannot go on for a reason outside your own code, for the Arquiteto to resolve: {kind: interface|check|task|other, modulo, falta}. You get a turn when it is resolved.',
    parameters: ReportBlockedSchema,
    mode: 'direct',
    run: async ({ kind, modulo, falta }, context) => {
      const module = context.module ?? '(none)';
      return {
        ok: true,
        result: `Recorded: blocked (${kind}) on ${modulo} — ${falta}. ${NEXT[kind](modulo)} You get a turn when it is resolved; meanwhile go on with what does not depend on it.`,
        events: [
          LINE_EVENTS.devBlocked.create(context.agent, {
            v: 1,
            agent: context.agent,
            module,
            modulo,
            falta,
            kind,
          }),
        ],
      };
    },
  });
}
