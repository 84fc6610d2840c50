import { useMemo, useRef } from 'react';
import type { StoredEvent } from '../../api/types.ts';
import { continueFold, type SessionFold } from './incremental-fold.ts';
import type { SessionView } from './session-view.ts';

/**
 * What the session page shows, folded from the stream's events incrementally: each render applies only the
 * events added since the last one (decision 0231). The fold is keyed by the events array itself, so a render
 * repeated (StrictMode) or discarded by React folds nothing twice, and anything but an extension starts over.
 */
export function useSessionView(events: readonly StoredEvent[]): SessionView {
  const fold = useRef<SessionFold | null>(null);
  return useMemo(() => {
    fold.current = continueFold(fold.current, events);
    return fold.current.view;
  }, [events]);
}
