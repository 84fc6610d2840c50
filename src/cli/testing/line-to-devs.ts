import { call, waitFor } from './forja-serve.ts';
import { finalAnswers as finalAnswersOf } from './lane-log.ts';

/**
 * Plays a `parallelLineScript` line on the process at `base` up to the devs: a project and a session, two
 * messages to the Criativo, readiness, the handoff to the Arquiteto accepted, its module map and dev handoffs,
 * and every dev handoff accepted. Returns the session's id once the dev handoffs are accepted (their kickoffs
 * start, or wait for a turn slot).
 */
export async function lineToDevs(base: string, devs: number): Promise<string> {
  const project = await call(`${base}/api/projects`, 'POST', { name: 'Padaria' });
  const session = await call(`${base}/api/projects/${project['id']}/sessions`, 'POST', {});
  const sessionId = session['id'] as string;
  await call(`${base}/api/sessions/${sessionId}/agents/criativo/start`, 'POST');
  for (const [index, text] of [
    'Quero vender pão de madrugada.',
    'Para os vizinhos do bairro.',
  ].entries()) {
    await call(`${base}/api/sessions/${sessionId}/messages`, 'POST', { text });
    await waitFor(base, sessionId, (log) => finalAnswersOf(log).length >= index + 1);
  }
  const ready = await call(`${base}/api/sessions/${sessionId}/readiness?wait=true`, 'POST');
  await call(`${base}/api/handoffs/${ready['handoff'].id}/accept`, 'POST');
  const offered = await waitFor(base, sessionId, (log) =>
    log.some((event) => event.type === 'handoff.offered' && event.payload.to_agent === 'arquiteto'),
  );
  const toArquiteto = offered.find(
    (event) => event.type === 'handoff.offered' && event.payload.to_agent === 'arquiteto',
  )!;
  await call(
    `${base}/api/handoffs/${(toArquiteto.payload as { handoff_id?: string }).handoff_id}/accept`,
    'POST',
  );
  await waitFor(
    base,
    sessionId,
    (log) =>
      log.filter(
        (event) => event.type === 'handoff.offered' && event.payload.to_agent?.startsWith('dev:'),
      ).length === devs && finalAnswersOf(log).some((event) => event.payload.agent === 'arquiteto'),
  );
  await call(`${base}/api/sessions/${sessionId}/dev-handoffs/accept`, 'POST');
  return sessionId;
}
