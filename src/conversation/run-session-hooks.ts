import { runHooks, type HookPayloads } from '../harness/index.ts';
import type { ConversationDependencies } from './conversation-dependencies.ts';

/**
 * Fires `session_start` or `session_end` after the session's event is stored. Session hooks observe: a
 * handler that throws is logged with its phase and never fails the person's request, whose effect is stored.
 */
export async function runSessionHooks<P extends 'session_start' | 'session_end'>(
  dependencies: Pick<ConversationDependencies, 'hooks' | 'logger'>,
  phase: P,
  payload: HookPayloads[P],
): Promise<void> {
  try {
    await runHooks(dependencies.hooks, phase, payload);
  } catch (error) {
    dependencies.logger.error({ err: error, session_id: payload.session_id, phase }, 'hook failed');
  }
}
