import { lazy, Suspense } from 'react';
import type { SessionView } from '../session/fold/session-view.ts';

const loadProductionPanel = () => import('./ProductionPanel.tsx');
const ProductionPanel = lazy(() =>
  loadProductionPanel().then((module) => ({ default: module.ProductionPanel })),
);

/**
 * Starts loading the production panel's chunk (ADR 0424). The session page calls it when it opens, so the chunk
 * loads while the session's events do.
 */
export function preloadProductionPanel(): void {
  void loadProductionPanel();
}

/**
 * The production panel (backlog, module map and its layouts, contracts, developers), a chunk of its own: it is
 * below the chat, so a session's first view does not wait for it; nothing is shown until it has loaded.
 */
export function ProductionPanelLater({
  sessionId,
  view,
}: {
  sessionId: string;
  view: SessionView;
}) {
  return (
    <Suspense fallback={null}>
      <ProductionPanel sessionId={sessionId} view={view} />
    </Suspense>
  );
}
