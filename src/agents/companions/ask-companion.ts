import type { ModelGateway } from '../../gateway/index.ts';

/** One companion call: an assembled prompt and the single instruction that asks for the JSON answer. */
export interface CompanionQuestion {
  projectId: string;
  sessionId: string;
  agent: string;
  system: string;
  instruction: string;
  maxOutputTokens: number;
}

/**
 * The companions' one model turn (the Psicólogo's analysis, the Anamnese's profiles): through the gateway
 * (metered, budgeted), no tools, one user message. A call that did not complete is a reason, not a throw.
 */
export async function askCompanion(
  gateway: ModelGateway,
  question: CompanionQuestion,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const outcome = await gateway.runTurn({
    projectId: question.projectId,
    sessionId: question.sessionId,
    agent: question.agent,
    system: question.system,
    messages: [{ role: 'user', content: question.instruction }],
    tools: [],
    maxOutputTokens: question.maxOutputTokens,
  });
  if (outcome.status === 'completed') return { ok: true, text: outcome.text };
  return { ok: false, reason: outcome.status === 'cancelled' ? 'cancelled' : outcome.message };
}
