import type { GraphStore } from '../graph/graph-store.ts';

/**
 * Test support: a GraphStore that calls `onWrite(n)` before its n-th write (1, 2, …; upserts of nodes and
 * edges), which may throw to inject a fault at exactly that point — before the write reaches the graph.
 */
export function faultyGraphStore(
  inner: GraphStore,
  onWrite: (writeNumber: number) => void,
): GraphStore {
  let writes = 0;
  const before = () => onWrite((writes += 1));
  return {
    ...inner,
    upsertNode: async (node) => {
      before();
      await inner.upsertNode(node);
    },
    upsertEdge: async (edge) => {
      before();
      await inner.upsertEdge(edge);
    },
  };
}
