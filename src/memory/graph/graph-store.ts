/**
 * The graph port (record ADR 0101, ADR 0020): a property graph of labelled nodes with natural keys and typed edges.
 * The Postgres adapter keeps it in the `graph` schema; the port keeps a Neo4j adapter possible later. Every
 * write is an idempotent upsert by natural key, so replaying the log — in any order, any number of times —
 * gives the same graph.
 */

/** A node's identity: its label and its natural key (`Handoff` / the handoff's id). */
export interface NodeRef {
  readonly label: string;
  readonly key: string;
}

export type GraphProperties = Readonly<Record<string, unknown>>;

export interface GraphNode extends NodeRef {
  readonly properties: GraphProperties;
}

/** A node write. See `GraphStore.upsertNode` for what `revision` does. */
export interface NodeWrite extends GraphNode {
  readonly revision?: string;
}

export interface GraphEdge {
  readonly type: string;
  readonly from: NodeRef;
  readonly to: NodeRef;
  readonly properties: GraphProperties;
}

export interface EdgeWrite {
  readonly type: string;
  readonly from: NodeRef;
  readonly to: NodeRef;
  readonly properties?: GraphProperties;
}

/** An edge seen from one of its nodes, with the node at the other end. */
export interface Neighbour {
  readonly edge: GraphEdge;
  readonly node: GraphNode;
}

/** The whole graph, nodes and edges in a stable order: what two graphs are compared by. */
export interface GraphSnapshot {
  readonly nodes: ReadonlyArray<GraphNode & { readonly revision: string }>;
  readonly edges: readonly GraphEdge[];
}

export interface GraphStore {
  /**
   * Creates the node or merges `properties` into it. Without `revision`, later values win (use it for
   * properties every writer agrees on). With `revision`: a write whose revision is ≥ the stored one wins the
   * properties it names and becomes the stored revision; an older write only fills in properties the node
   * does not have. Revisions compare byte-wise.
   */
  upsertNode(node: NodeWrite): Promise<void>;
  /** Creates the edge or merges its properties; an endpoint that does not exist is created empty. */
  upsertEdge(edge: EdgeWrite): Promise<void>;
  findNode(ref: NodeRef): Promise<GraphNode | null>;
  /** Nodes of a label whose properties contain every entry of `where`, by key. */
  findNodes(label: string, where?: GraphProperties): Promise<GraphNode[]>;
  /** Edges leaving (`out`) or reaching (`in`) the node, optionally of one type, with the other node. */
  neighbours(
    ref: NodeRef,
    options: { direction: 'out' | 'in'; type?: string },
  ): Promise<Neighbour[]>;
  /** Removes every node (and its edges) whose label is not kept. */
  clear(options?: { keepLabels?: readonly string[] }): Promise<void>;
  snapshot(options?: { excludeLabels?: readonly string[] }): Promise<GraphSnapshot>;
}
