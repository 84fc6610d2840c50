import type {
  EdgeWrite,
  GraphEdge,
  GraphNode,
  GraphProperties,
  GraphSnapshot,
  GraphStore,
  NodeRef,
  NodeWrite,
} from './graph-store.ts';
import { compareBytewise, mergeNodeWrite, type StoredNodeState } from './merge-node-write.ts';

/**
 * The graph in a Map: the reference the contract suite holds the Postgres adapter to, and a fast store for
 * unit tests of the write use cases. Same rules, no persistence.
 */
export function createInMemoryGraphStore(): GraphStore {
  const nodes = new Map<string, NodeRef & StoredNodeState>();
  const edges = new Map<string, GraphEdge>();
  const nodeId = (ref: NodeRef) => JSON.stringify([ref.label, ref.key]);
  const edgeId = (edge: { type: string; from: NodeRef; to: NodeRef }) =>
    JSON.stringify([edge.from.label, edge.from.key, edge.type, edge.to.label, edge.to.key]);
  const copy = (node: NodeRef & StoredNodeState): GraphNode => ({
    label: node.label,
    key: node.key,
    properties: structuredClone(node.properties),
  });
  const ensure = (ref: NodeRef) => {
    if (!nodes.has(nodeId(ref)))
      nodes.set(nodeId(ref), { label: ref.label, key: ref.key, properties: {}, revision: '' });
  };
  const byKey = (left: NodeRef, right: NodeRef) =>
    compareBytewise(left.label, right.label) || compareBytewise(left.key, right.key);

  return {
    upsertNode: async (write: NodeWrite) => {
      const stored = nodes.get(nodeId(write)) ?? null;
      const properties = structuredClone(write.properties) as GraphProperties;
      const merged = mergeNodeWrite(
        stored,
        write.revision === undefined ? { properties } : { properties, revision: write.revision },
      );
      nodes.set(nodeId(write), { label: write.label, key: write.key, ...merged });
    },
    upsertEdge: async (write: EdgeWrite) => {
      ensure(write.from);
      ensure(write.to);
      const existing = edges.get(edgeId(write));
      const properties = {
        ...(existing?.properties ?? {}),
        ...structuredClone(write.properties ?? {}),
      };
      edges.set(edgeId(write), {
        type: write.type,
        from: { ...write.from },
        to: { ...write.to },
        properties,
      });
    },
    findNode: async (ref) => {
      const node = nodes.get(nodeId(ref));
      return node === undefined ? null : copy(node);
    },
    findNodes: async (label, where = {}) =>
      [...nodes.values()]
        .filter((node) => node.label === label && contains(node.properties, where))
        .sort(byKey)
        .map(copy),
    neighbours: async (ref, options) => {
      const found = [...edges.values()].filter((edge) => {
        const end = options.direction === 'out' ? edge.from : edge.to;
        return (
          end.label === ref.label &&
          end.key === ref.key &&
          (options.type === undefined || edge.type === options.type)
        );
      });
      const other = (edge: GraphEdge) => (options.direction === 'out' ? edge.to : edge.from);
      found.sort(
        (left, right) => compareBytewise(left.type, right.type) || byKey(other(left), other(right)),
      );
      return found.map((edge) => ({
        edge: structuredClone(edge),
        node: copy(nodes.get(nodeId(other(edge)))!),
      }));
    },
    clear: async (options = {}) => {
      const kept = new Set(options.keepLabels ?? []);
      for (const [id, node] of nodes) if (!kept.has(node.label)) nodes.delete(id);
      for (const [id, edge] of edges)
        if (!nodes.has(nodeId(edge.from)) || !nodes.has(nodeId(edge.to))) edges.delete(id);
    },
    snapshot: async (options = {}): Promise<GraphSnapshot> => {
      const excluded = new Set(options.excludeLabels ?? []);
      const keptNodes = [...nodes.values()].filter((node) => !excluded.has(node.label)).sort(byKey);
      const keptEdges = [...edges.values()]
        .filter((edge) => !excluded.has(edge.from.label) && !excluded.has(edge.to.label))
        .sort(
          (left, right) =>
            byKey(left.from, right.from) ||
            compareBytewise(left.type, right.type) ||
            byKey(left.to, right.to),
        );
      return {
        nodes: keptNodes.map((node) => ({ ...copy(node), revision: node.revision })),
        edges: structuredClone(keptEdges),
      };
    },
  };
}

/** jsonb `@>` for the flat, scalar `where` the port takes. */
function contains(properties: GraphProperties, where: GraphProperties): boolean {
  return Object.entries(where).every(
    ([key, value]) => JSON.stringify(properties[key]) === JSON.stringify(value),
  );
}
