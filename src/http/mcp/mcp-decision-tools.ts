import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { QuestionAnswerSchema, ReasonSchema, RejectionSchema } from '../routes/conversation.ts';
import { NewMessageSchema } from '../routes/sessions.ts';
import { uuidText } from '../schemas.ts';
import {
  defineMcpTool,
  type McpToolContext,
  projectOf,
  refusedBy,
  registerTool,
} from './mcp-tool-kit.ts';

const sendMessageTool = defineMcpTool({
  name: 'send_message',
  description:
    "Send your message to an agent of the session (`to`: criativo, po, arquiteto, dev:<module> …; without it, the session's current addressee). The agent answers in a turn; read_session shows it.",
  input: NewMessageSchema.safeExtend({ session_id: uuidText() }),
  readOnly: false,
  run: async ({ session_id, text, to }, context) => {
    await projectOf(context, 'session', session_id, 'session_id');
    const outcome = await context.dependencies.conversation.postMessage(
      session_id,
      text,
      to,
      context.caller.actor,
    );
    return outcome.ok ? { event: outcome.event } : refusedBy(outcome);
  },
});

const acceptHandoffTool = defineMcpTool({
  name: 'accept_handoff',
  description:
    'Accept an offered handoff: its agent starts on the work it was handed (and the decisions its sender made are accepted with it).',
  input: z.strictObject({ handoff_id: uuidText() }),
  readOnly: false,
  run: async ({ handoff_id }, context) => {
    await projectOf(context, 'handoff', handoff_id, 'handoff_id');
    const outcome = await context.dependencies.conversation.transitionHandoff(handoff_id, {
      type: 'accept',
      actor: context.caller.actor,
    });
    return outcome.ok ? { handoff: outcome.handoff } : refusedBy(outcome);
  },
});

const rejectHandoffTool = defineMcpTool({
  name: 'reject_handoff',
  description:
    'Reject an offered handoff with the reason: it goes back to its sender, who is given the reason to act on.',
  input: RejectionSchema.safeExtend({ handoff_id: uuidText() }),
  readOnly: false,
  run: async ({ handoff_id, reason }, context) => {
    await projectOf(context, 'handoff', handoff_id, 'handoff_id');
    const outcome = await context.dependencies.conversation.transitionHandoff(handoff_id, {
      type: 'reject',
      actor: context.caller.actor,
      reason,
    });
    return outcome.ok ? { handoff: outcome.handoff } : refusedBy(outcome);
  },
});

const approveActionTool = defineMcpTool({
  name: 'approve_action',
  description:
    'Approve an action an agent proposed (a command to run): it runs and the agent goes on.',
  input: z.strictObject({ action_id: uuidText() }),
  readOnly: false,
  run: async ({ action_id }, context) => resolve(context, action_id, { approve: true }),
});

const denyActionTool = defineMcpTool({
  name: 'deny_action',
  description:
    'Deny an action an agent proposed: it does not run, and the agent is told, with your reason.',
  input: ReasonSchema.safeExtend({ action_id: uuidText() }),
  readOnly: false,
  run: async ({ action_id, reason }, context) =>
    resolve(context, action_id, { approve: false, ...(reason === undefined ? {} : { reason }) }),
});

async function resolve(
  context: McpToolContext,
  actionId: string,
  decision: { approve: true } | { approve: false; reason?: string },
) {
  await projectOf(context, 'action', actionId, 'action_id');
  const outcome = await context.dependencies.conversation.resolveAction(
    actionId,
    decision,
    context.caller.actor,
  );
  if (!outcome.ok) return refusedBy(outcome);
  return { action_id: actionId, status: decision.approve ? 'approved' : 'denied' };
}

const answerQuestionTool = defineMcpTool({
  name: 'answer_question',
  description:
    "Answer an agent's question (`answer`), or leave the decision to the agent (`decide_yourself: true`); its turn goes on with it.",
  input: QuestionAnswerSchema.safeExtend({ session_id: uuidText(), question_id: uuidText() }),
  readOnly: false,
  run: async ({ session_id, question_id, answer }, context) => {
    await projectOf(context, 'session', session_id, 'session_id');
    const outcome = await context.dependencies.conversation.answerQuestion(
      session_id,
      question_id,
      answer === undefined ? { decide_yourself: true } : { answer },
      context.caller.actor,
    );
    return outcome.ok
      ? { question_id: outcome.question_id, agent: outcome.agent }
      : refusedBy(outcome);
  },
});

/** The tools that act for the person: a message, a handoff, an action, an answer. */
export function registerDecisionTools(server: McpServer, context: McpToolContext): void {
  registerTool(server, sendMessageTool, context);
  registerTool(server, acceptHandoffTool, context);
  registerTool(server, rejectHandoffTool, context);
  registerTool(server, approveActionTool, context);
  registerTool(server, denyActionTool, context);
  registerTool(server, answerQuestionTool, context);
}
