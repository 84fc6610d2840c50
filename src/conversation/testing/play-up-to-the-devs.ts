import type { Forja } from '../../composition.ts';
import { requestJson } from '../../testing/forja-harness.ts';

/** The person's two messages to Criativo in the line scripts (`production-line-script.ts`, `parallel-line-script.ts`). */
export const LINE_MESSAGES = [
  'Quero vender pão de madrugada, tudo entregue antes das 6h.',
  'Para os vizinhos do bairro.',
] as const;

/**
 * The person's part of the line up to the dev handoffs, through the API as the browser does it: a session
 * (in `projectId`, or a new project), Criativo started, the two messages, readiness, the PO's handoff and then the
 * Arquiteto's accepted, each waited for. Throws, naming the step, when one is refused: a script that no longer
 * plays the line fails here, not later on a missing handoff.
 */
export async function playUpToTheDevs(
  forja: Forja,
  projectId?: string,
): Promise<{ projectId: string; sessionId: string }> {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await requestJson(forja, method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const project = projectId ?? (await call('POST', '/api/projects', { name: 'Padaria' })).id;
  const sessionId = (await call('POST', `/api/projects/${project}/sessions`, { title: 'Ideia' }))
    .id as string;
  await call('POST', `/api/sessions/${sessionId}/agents/criativo/start`);
  for (const text of LINE_MESSAGES) {
    await call('POST', `/api/sessions/${sessionId}/messages`, { text });
    await forja.conversation.idle(sessionId);
  }
  const ready = await call('POST', `/api/sessions/${sessionId}/readiness?wait=true`);
  await call('POST', `/api/handoffs/${ready.handoff.id}/accept`);
  await forja.conversation.idle(sessionId);
  const handoffs = (await call('GET', `/api/sessions/${sessionId}/handoffs`)).handoffs as Array<{
    id: string;
    to_agent: string;
    status: string;
  }>;
  const toArquiteto = handoffs.find(
    (handoff) => handoff.to_agent === 'arquiteto' && handoff.status === 'offered',
  );
  if (toArquiteto === undefined) throw new Error('the PO offered no handoff to the Arquiteto');
  await call('POST', `/api/handoffs/${toArquiteto.id}/accept`);
  await forja.conversation.idle(sessionId);
  return { projectId: project, sessionId };
}
