import type { Forja } from '../../composition.ts';
import { requestJson } from '../../testing/forja-harness.ts';

/**
 * The dev phase of a scripted line (`workingLineScript`) after `playUpToTheDevs`: accepts the `modules` dev
 * handoffs, waits for the session to go idle (every dev answered, every finished module merged) and throws
 * unless the line completed — so a measure of it is a measure of devs whose work was committed and merged.
 */
export async function playDevPhase(
  forja: Forja,
  sessionId: string,
  modules: number,
): Promise<void> {
  const accepted = await requestJson(
    forja,
    'POST',
    `/api/sessions/${sessionId}/dev-handoffs/accept`,
  );
  if (accepted.body.accepted?.length !== modules)
    throw new Error(`expected ${modules} dev handoffs, got ${JSON.stringify(accepted.body)}`);
  await forja.conversation.idle(sessionId);
  const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
  const merged = events.filter((event) => event.type === 'module.merged').length;
  if (!events.some((event) => event.type === 'line.completed') || merged !== modules)
    throw new Error(
      `the line did not complete: ${merged} of ${modules} modules merged; last events ${events
        .slice(-5)
        .map((event) => `${event.type} ${JSON.stringify(event.payload).slice(0, 300)}`)
        .join(' | ')}`,
    );
}
