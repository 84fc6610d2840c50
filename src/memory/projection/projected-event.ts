import type { SessionEvent } from '../../store/index.ts';

/** A stored event with the project its session belongs to: what the graph write use cases take. */
export type ProjectedEvent = SessionEvent & { readonly project_id: string };

/** What a write use case did with an event. A skip is an expected outcome (an unreadable payload), with its reason. */
export type ProjectionOutcome =
  | { readonly outcome: 'recorded' }
  | { readonly outcome: 'skipped'; readonly reason: string };

export const RECORDED: ProjectionOutcome = { outcome: 'recorded' };
export const skipped = (reason: string): ProjectionOutcome => ({ outcome: 'skipped', reason });
