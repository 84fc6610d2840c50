import { z } from 'zod';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import { handOffWork } from '../line/hand-off-work.ts';
import type { LineDependencies } from '../line/line-dependencies.ts';
import { BACKLOG_TYPES } from '../../domain/artifacts/index.ts';
import { readProjectBacklog } from '../../store/index.ts';
import { openQuestionsCheck, type OpenQuestionsCheck } from '../../domain/conversation/index.ts';

/** Why the work cannot go on yet: a question still waits for the person, or open questions are not closed. */
function silentDecisions(check: OpenQuestionsCheck): string | null {
  if (check.waiting.length > 0)
    return `${check.waiting.length} of your questions still wait for the person's answer (${check.waiting.map((question) => `"${question.question}"`).join(', ')}); nothing was handed off.`;
  if (check.closed >= check.open.length) return null;
  return [
    `the brief lists ${check.open.length} open question(s) and ${check.closed} are closed. Close each one first: ask_person for what only the person can decide, record_decision for what you decide yourself (question, answer, reason). Nothing was handed off. The open questions:`,
    ...check.open.map((question) => `- ${question}`),
  ].join('\n');
}

/**
 * `hand_off_to_arquiteto` (direct, no arguments): the PO's last step. Refused while the backlog has no task
 * (the Arquiteto and the devs work from tasks); otherwise completes the PO's handoff and offers the work to
 * the Arquiteto, pointing at the latest backlog artifact of this session. The person accepts it.
 */
export function handOffToArquitetoTool(dependencies: LineDependencies): AgentTool {
  return defineTool({
    name: 'hand_off_to_arquiteto',
    description:
      'When the backlog is complete: completes your handoff and offers the work to the Arquiteto. No arguments.',
    parameters: z.object({}),
    mode: 'direct',
    run: async (_args, context) => {
      const backlog = await readProjectBacklog(dependencies.database, context.projectId);
      if (backlog.tasks.length === 0) {
        return {
          ok: false,
          result:
            'hand_off_to_arquiteto refused: the backlog has no task yet. Declare epics, stories and tasks with declare_backlog first; nothing was handed off.',
        };
      }
      const questions = openQuestionsCheck(
        context.state.product_brief?.data.open_questions ?? [],
        context.state.questions,
        context.state.decisions,
        context.agent,
      );
      const silent = silentDecisions(questions);
      if (silent !== null) return { ok: false, result: `hand_off_to_arquiteto refused: ${silent}` };
      const latest = context.state.artifacts
        .filter((artifact) => (BACKLOG_TYPES as readonly string[]).includes(artifact.type))
        .at(-1);
      const outcome = await handOffWork(dependencies, {
        sessionId: context.sessionId,
        state: context.state,
        from: context.agent,
        to: ['arquiteto'],
        artifactId: latest?.event_id ?? null,
      });
      if (!outcome.ok)
        return { ok: false, result: `hand_off_to_arquiteto refused: ${outcome.reason}.` };
      if (outcome.offered.length === 0)
        return {
          ok: true,
          result: 'The work was already handed to the Arquiteto; nothing more to do.',
        };
      const counts = `${backlog.epics.length} epic(s), ${backlog.stories.length} stor(ies), ${backlog.tasks.length} task(s)`;
      return {
        ok: true,
        result: `Handed off to the Arquiteto (handoff ${outcome.offered[0]!.id}) with ${counts}. The person accepts it to start the Arquiteto; tell them in one short sentence.`,
      };
    },
  });
}
