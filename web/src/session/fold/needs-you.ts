import type { SessionView } from './session-view.ts';

/** What waits for the person: actions to approve, handoffs to accept, failed turns the agent has not answered since. */
export function needsYouCount(view: Pick<SessionView, 'actions' | 'handoffs' | 'chat'>): number {
  const actions = view.actions.filter((action) => action.status === 'proposed').length;
  const handoffs = Object.values(view.handoffs).filter(
    (handoff) => handoff.status === 'offered',
  ).length;
  const lastAnswer = new Map<string, number>();
  for (const item of view.chat) if (item.kind === 'agent') lastAnswer.set(item.agent, item.seq);
  const failed = view.chat.filter(
    (item) => item.kind === 'failed' && (lastAnswer.get(item.agent) ?? 0) < item.seq,
  ).length;
  return actions + handoffs + failed;
}

/** The tab's title: the count first, so a person sees from another tab that Forja waits for them. */
export function pageTitle(count: number): string {
  return count > 0 ? `(${count}) Forja` : 'Forja';
}
