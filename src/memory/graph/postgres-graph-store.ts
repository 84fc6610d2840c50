import type { Queryable } from '../../store/index.ts';
import type {
  EdgeWrite,
  GraphEdge,
  GraphNode,
  GraphProperties,
  GraphSnapshot,
  GraphStore,
  Neighbour,
  NodeRef,
  NodeWrite,
} from './graph-store.ts';
import { GraphUnavailableError } from './graph-unavailable-error.ts';
import { isGraphUnavailable } from './is-graph-unavailable.ts';

interface NodeRow {
  label: string;
  key: string;
  properties: Record<string, unknown>;
  revision: string;
}

interface EdgeRow {
  type: string;
  from_label: string;
  from_key: string;
  to_label: string;
  to_key: string;
  properties: Record<string, unknown>;
}

/**
 * The graph in the `graph` schema of Forja's PostgreSQL (PGlite or a server), on any `Queryable`: the
 * database, or a transaction so that graph writes commit with the outbox row that caused them. Failures
 * that mean "the graph is not there right now" become `GraphUnavailableError`.
 */
export function createPostgresGraphStore(database: Queryable): GraphStore {
  async function run<Row>(sql: string, params: unknown[]): Promise<Row[]> {
    try {
      return (await database.query<Row>(sql, params)).rows;
    } catch (error) {
      if (isGraphUnavailable(error))
        throw new GraphUnavailableError(
          `the graph is unavailable: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      throw error;
    }
  }

  return {
    upsertNode: async (node: NodeWrite) =>
      void (await run(UPSERT_NODE_SQL, [
        node.label,
        node.key,
        JSON.stringify(node.properties),
        node.revision ?? null,
      ])),
    upsertEdge: async (edge: EdgeWrite) =>
      void (await run(UPSERT_EDGE_SQL, [
        edge.type,
        edge.from.label,
        edge.from.key,
        edge.to.label,
        edge.to.key,
        JSON.stringify(edge.properties ?? {}),
      ])),
    findNode: async (ref: NodeRef) => {
      const rows = await run<NodeRow>(
        'select label, key, properties from graph.nodes where label = $1 and key = $2',
        [ref.label, ref.key],
      );
      return rows[0] === undefined ? null : toNode(rows[0]);
    },
    findNodes: async (label: string, where: GraphProperties = {}) =>
      (
        await run<NodeRow>(
          'select label, key, properties from graph.nodes where label = $1 and properties @> $2::jsonb order by key collate "C"',
          [label, JSON.stringify(where)],
        )
      ).map(toNode),
    neighbours: async (
      ref: NodeRef,
      options: { direction: 'out' | 'in'; type?: string },
    ): Promise<Neighbour[]> => {
      const rows = await run<EdgeRow & { node_properties: Record<string, unknown> }>(
        options.direction === 'out' ? OUTGOING_SQL : INCOMING_SQL,
        [ref.label, ref.key, options.type ?? null],
      );
      return rows.map((row) => {
        const edge = toEdge(row);
        const other = options.direction === 'out' ? edge.to : edge.from;
        return { edge, node: { ...other, properties: row.node_properties } };
      });
    },
    clear: async (options: { keepLabels?: readonly string[] } = {}) =>
      void (await run('delete from graph.nodes where not (label = any($1::text[]))', [
        options.keepLabels ?? [],
      ])),
    snapshot: async (
      options: { excludeLabels?: readonly string[] } = {},
    ): Promise<GraphSnapshot> => {
      const excluded = options.excludeLabels ?? [];
      const nodes = await run<NodeRow>(
        'select label, key, properties, revision from graph.nodes where not (label = any($1::text[])) order by label collate "C", key collate "C"',
        [excluded],
      );
      const edges = await run<EdgeRow>(
        `select type, from_label, from_key, to_label, to_key, properties from graph.edges
         where not (from_label = any($1::text[])) and not (to_label = any($1::text[]))
         order by from_label collate "C", from_key collate "C", type collate "C", to_label collate "C", to_key collate "C"`,
        [excluded],
      );
      return {
        nodes: nodes.map((row) => ({ ...toNode(row), revision: row.revision })),
        edges: edges.map(toEdge),
      };
    },
  };
}

const toNode = (row: NodeRow): GraphNode => ({
  label: row.label,
  key: row.key,
  properties: row.properties,
});
const toEdge = (row: EdgeRow): GraphEdge => ({
  type: row.type,
  from: { label: row.from_label, key: row.from_key },
  to: { label: row.to_label, key: row.to_key },
  properties: row.properties,
});

// The revision rule of `mergeNodeWrite`, in SQL: `||` lets its right side win.
const UPSERT_NODE_SQL = `
  insert into graph.nodes (label, key, properties, revision) values ($1, $2, $3::jsonb, coalesce($4::text, ''))
  on conflict (label, key) do update set
    properties = case when $4::text is null or excluded.revision >= graph.nodes.revision
                      then graph.nodes.properties || excluded.properties
                      else excluded.properties || graph.nodes.properties end,
    revision = case when $4::text is null then graph.nodes.revision else greatest(graph.nodes.revision, excluded.revision) end`;

const UPSERT_EDGE_SQL = `
  with endpoints as (
    insert into graph.nodes (label, key) values ($2, $3), ($4, $5) on conflict (label, key) do nothing
  )
  insert into graph.edges (type, from_label, from_key, to_label, to_key, properties) values ($1, $2, $3, $4, $5, $6::jsonb)
  on conflict (from_label, from_key, type, to_label, to_key) do update set properties = graph.edges.properties || excluded.properties`;

const OUTGOING_SQL = `
  select e.type, e.from_label, e.from_key, e.to_label, e.to_key, e.properties, n.properties as node_properties
  from graph.edges e join graph.nodes n on n.label = e.to_label and n.key = e.to_key
  where e.from_label = $1 and e.from_key = $2 and ($3::text is null or e.type = $3)
  order by e.type collate "C", e.to_label collate "C", e.to_key collate "C"`;

const INCOMING_SQL = `
  select e.type, e.from_label, e.from_key, e.to_label, e.to_key, e.properties, n.properties as node_properties
  from graph.edges e join graph.nodes n on n.label = e.from_label and n.key = e.from_key
  where e.to_label = $1 and e.to_key = $2 and ($3::text is null or e.type = $3)
  order by e.type collate "C", e.from_label collate "C", e.from_key collate "C"`;
